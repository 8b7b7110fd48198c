/**
 * The traded markets of a backtest, one per symbol: its instrument, its account on the simulated
 * venue's ledger (spot balances, or a contracts account with margin, funding and liquidation), its
 * exchange (the recorded L2 book, or the bar path), and how it is marked and valued for the results.
 */
import type { VirtualClock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { Decimal, mulScaled, roundToDecimal, scaled, scaledText } from '../../core/fixed.ts';
import type { CatalogIndex } from '../../data/catalog.ts';
import { replay } from '../../data/replay.ts';
import { FUNDING_INTERVAL_MS } from '../../sim/contracts/funding.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { AMOUNT_SCALE, type Amount } from '../../sim/ledger/amount.ts';
import { BarExchange } from '../bar-exchange.ts';
import type { Bar } from '../bars.ts';
import { ContractAccount } from '../exchange/contract-account.ts';
import { BacktestExchange } from '../exchange/exchange.ts';
import { linkLatency, type LatencyModel } from '../exchange/latency.ts';
import type { QueueModel } from '../exchange/queue.ts';
import { SpotAccount } from '../exchange/spot-account.ts';
import type { ExecutionReport } from '../exchange/types.ts';
import type { LatencySpec } from '../latency.ts';
import { RoundTrips } from '../trades.ts';
import type { GatewayMarket } from './exchange-gateway.ts';
import { simInstrumentOf } from './instruments.ts';

/** How the orders of a backtest fill: on the recorded L2 book, or along each kline's path. */
export type BacktestMode = 'l2' | 'bars';

/** What the markets are built from (the config's `backtest:` section, resolved). */
export interface MarketSettings {
  readonly clock: VirtualClock;
  readonly catalog: string;
  readonly index: CatalogIndex;
  readonly mode: BacktestMode;
  /** Starting balances by asset (a contract's margin token is funded from its entry). */
  readonly balances: Readonly<Record<string, string>>;
  readonly fees: { readonly maker: string; readonly taker: string };
  readonly latency: { readonly entry: LatencySpec; readonly response: LatencySpec };
  /** A traded symbol's own latency model, instead of one drawn from `latency` (parity: the recorded round trips). */
  readonly latencyOf?: (symbol: string) => LatencyModel;
  readonly queue: QueueModel;
  readonly seed: number;
  /** A fixed 8-hour funding rate for every interval, in place of the catalog's recorded ones. */
  readonly fundingRate?: string;
  readonly onReport: (symbol: string, r: ExecutionReport) => void;
  /** A contracts account changed without an order report (funding, liquidation). */
  readonly onAccountChange: (symbol: string) => void;
  /** A bar closed (bar mode). */
  readonly onBarClose?: (symbol: string, bar: Bar) => void;
}

/** One traded market of a run. */
export interface RunMarket extends GatewayMarket {
  readonly exchange: BacktestExchange | BarExchange;
  /** The asset its equity, PnL, fees and funding are counted in (spot quote, contract margin token). */
  readonly currency: string;
  readonly trips: RoundTrips;
  /** Returns the price equity is marked at, ticks: the recorded mid (else last trade) in L2, the path's last price in bars; a contract's mark where it has one. */
  markTicks(): number | undefined;
  /** Returns mark-to-market equity in `currency`: a spot account's at `markTicks`, a contracts account's at its own mark. */
  equity(markTicks: number): Amount;
  /** Returns a fill's traded value and fee in `currency`. */
  value(f: { side: string; price: string; qty: string; fee: string }): { notional: string; fee: string };
  /** Returns the net position after the latest change (contracts: long − short). */
  netPosition(): string | undefined;
  /** Funding paid and received so far, in `currency` ('0' for spot). */
  funding(): { paid: Amount; received: Amount };
}

/** Returns the markets of the traded symbols; contracts read their recorded funding rates first. */
export async function buildMarkets(s: MarketSettings, traded: readonly string[]): Promise<RunMarket[]> {
  const out: RunMarket[] = [];
  for (const [k, symbol] of traded.entries()) {
    const c = s.index.instruments[symbol]!;
    const inst = simInstrumentOf(c);
    const latency = s.latencyOf?.(symbol) ?? linkLatency(s.latency.entry, s.latency.response, s.seed + k, 'backtest.latency');
    const onReport = (r: ExecutionReport): void => s.onReport(symbol, r);
    if (inst.contract === undefined) {
      const balances = Object.fromEntries(Object.entries(s.balances).filter(([a]) => a === inst.baseAsset || a === inst.quoteAsset));
      const account = new SpotAccount({ clock: s.clock, inst, balances, makerFee: s.fees.maker, takerFee: s.fees.taker });
      const exchange = exchangeOf(s, inst, account, latency, onReport, false);
      out.push(spotMarket(inst, account, exchange));
      continue;
    }
    const token = inst.contract.marginToken;
    const account = new ContractAccount({
      clock: s.clock, inst, balance: s.balances[token] ?? '0', fees: { maker: s.fees.maker, taker: s.fees.taker }, onChange: () => s.onAccountChange(symbol),
    });
    const exchange = exchangeOf(s, inst, account, latency, onReport, markSource(s.index, symbol) === undefined);
    const rates = await recordedFunding(s.catalog, symbol, s.index);
    // The boundaries the recorded rates are for (a recording of this venue: 04:00, 12:00, 20:00 UTC), else Binance's (00:00, 08:00, 16:00 UTC), which the committed samples are.
    const first = rates.keys().next();
    const offset = first.done === true ? 0 : ((first.value % FUNDING_INTERVAL_MS) + FUNDING_INTERVAL_MS) % FUNDING_INTERVAL_MS;
    account.startFunding((start) => s.fundingRate ?? rates.get(start) ?? '0', offset);
    out.push(contractMarket(inst, account, exchange));
  }
  return out;
}

/**
 * Returns the symbol whose recorded index is a contract's mark: its own (a converted recording that stores
 * mark prices under the contract), else the index the catalog names for it (our recordings store the index
 * under the index's symbol, BTCUSDT for BTC-SWAP-USDT); undefined when the catalog holds neither (the mark is the book's mid).
 */
function markSource(index: CatalogIndex, symbol: string): string | undefined {
  const has = (s: string): boolean => index.files.some((f) => f.table === 'index' && f.symbol === s);
  if (has(symbol)) return symbol;
  const named = index.instruments[symbol]?.index;
  return named !== undefined && has(named) ? named : undefined;
}

/** Returns the contracts marked at another symbol's recorded index (the index the catalog names for them), by that symbol. */
export function indexMarks(index: CatalogIndex, markets: readonly RunMarket[]): Map<string, RunMarket[]> {
  const out = new Map<string, RunMarket[]>();
  for (const m of markets) {
    const source = markSource(index, m.inst.symbol);
    if (source === undefined || source === m.inst.symbol) continue;
    out.set(source, [...(out.get(source) ?? []), m]);
  }
  return out;
}

/** Returns the exchange of one market: the recorded L2 book, or the bar path in bar mode. */
function exchangeOf(s: MarketSettings, inst: SimInstrument, account: SpotAccount | ContractAccount, latency: LatencyModel, onReport: (r: ExecutionReport) => void, markFromMid: boolean): BacktestExchange | BarExchange {
  if (s.mode === 'bars') {
    return new BarExchange({ clock: s.clock, inst, latency, account, onReport, ...(s.onBarClose ? { onClose: (bar: Bar) => s.onBarClose!(inst.symbol, bar) } : {}) });
  }
  return new BacktestExchange({ clock: s.clock, inst, queue: s.queue, account, latency, onReport, markFromMid });
}

/** Returns the recorded funding rates of a contract by interval start (ms). */
async function recordedFunding(catalog: string, symbol: string, index: CatalogIndex): Promise<Map<number, string>> {
  const rates = new Map<number, string>();
  if (!index.files.some((f) => f.table === 'funding' && f.symbol === symbol)) return rates;
  await replay({
    catalog, symbols: [symbol], tables: ['funding'],
    sink: (ev) => {
      if (ev.kind === 'funding') rates.set(ev.intervalStart, ev.rate);
    },
  });
  return rates;
}

function spotMarket(inst: SimInstrument, account: SpotAccount, exchange: BacktestExchange | BarExchange): RunMarket {
  return {
    inst, account, exchange, currency: inst.quoteAsset, trips: account.trips,
    markTicks: () => (exchange instanceof BarExchange ? exchange.lastPrice : midOrLast(exchange)),
    equity: (mark) => account.equity(mark),
    value: (f) => {
      // A buy pays its fee in the base it receives: valued at the fill's price in the quote. Products in scaled integers, rounded as decimal.js rounds them (one per fill).
      const price = scaled(f.price, 'price');
      const fee = f.side === 'BUY' ? scaledText(roundToDecimal(mulScaled(scaled(f.fee, 'fee'), price))) : scaledText(scaled(f.fee, 'fee'));
      return { notional: scaledText(roundToDecimal(mulScaled(price, scaled(f.qty, 'qty')))), fee };
    },
    netPosition: () => undefined,
    funding: () => ({ paid: 0n, received: 0n }),
  };
}

function contractMarket(inst: SimInstrument, account: ContractAccount, exchange: BacktestExchange | BarExchange): RunMarket {
  const c = inst.contract!;
  const tick = inst.tick.amount;
  return {
    inst, account, exchange, currency: c.marginToken, trips: account.trips,
    markTicks: () => {
      const m = account.markPrice();
      if (m !== undefined) return Number(m / tick);
      return exchange instanceof BarExchange ? exchange.lastPrice : midOrLast(exchange);
    },
    equity: () => account.equity(),
    value: (f) => {
      // A contract's value in its margin token: inverse qty × multiplier ÷ price (to the ledger's 18 places: a quotient need not end), linear qty × multiplier × price; fees are charged in it.
      const units = new Decimal(f.qty).times(c.contractMultiplier);
      const notional = c.inverse ? units.div(f.price).toDecimalPlaces(AMOUNT_SCALE) : units.times(f.price);
      return { notional: notional.toFixed(), fee: f.fee };
    },
    netPosition: () => account.netPosition(),
    funding: () => ({ paid: account.fundingPaid, received: account.fundingReceived }),
  };
}

/** Returns the recorded book's mid (down to the tick), else the last recorded trade price. */
function midOrLast(ex: BacktestExchange): number | undefined {
  const bid = ex.book.best(0);
  const ask = ex.book.best(1);
  return bid !== undefined && ask !== undefined ? Math.floor((bid + ask) / 2) : ex.lastPrice;
}

/** Returns the mode a run uses: the one configured, else bars when the replayed symbols have klines but neither book nor trades in the range. */
export function modeOf(configured: 'auto' | BacktestMode, index: CatalogIndex, symbols: readonly string[], range: { from: number; to: number }): BacktestMode {
  if (configured !== 'auto') return configured;
  const inRange = index.files.filter((f) => symbols.includes(f.symbol) && Number(BigInt(f.lastNs) / 1_000_000n) >= range.from && Number(BigInt(f.firstNs) / 1_000_000n) < range.to);
  const l2 = inRange.some((f) => f.table === 'book_deltas' || f.table === 'trades');
  const bars = inRange.some((f) => f.table === 'klines');
  if (!l2 && !bars) throw new ConfigError('backtest.data', `the catalog holds no book, trades or klines of ${symbols.join(', ')} between ${new Date(range.from).toISOString()} and ${new Date(range.to).toISOString()}`);
  return l2 ? 'l2' : 'bars';
}
