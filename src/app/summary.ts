/**
 * The summary a run ends with: per strategy, the orders it placed, its fills, volume and fees per
 * symbol, its PnL and the positions it leaves open. Orders and fills are tallied as they happen (so
 * the figures do not depend on how long finished orders are kept); PnL and positions are read at the
 * end from whatever the app's portfolio offers, through the small interfaces below.
 */
import { Decimal, DecimalSum, mulScaled, roundToDecimal, scaledOfAny, scaleOf } from '../core/fixed.ts';
import type { Instrument } from '../model/index.ts';
import { signed } from './status.ts';

/** One fill as the summary needs it. */
export interface SummaryFill {
  readonly strategyId: string | undefined;
  readonly symbol: string;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  readonly feeAsset: string;
}

/** What the portfolio says of one strategy at the end (the status line's fields). */
export interface SummaryStrategy {
  readonly id: string;
  readonly state: string;
  /** Realized plus unrealized PnL by asset. */
  readonly pnl: Readonly<Record<string, string>>;
  /** Net position per symbol (zero when flat), in `unit`. */
  readonly positions: readonly { readonly symbol: string; readonly qty: string; readonly unit: string }[];
}

/** Sums kept in scaled integers (a fill is counted on every fill), each as decimal.js would add it. */
interface SymbolTally {
  fills: number;
  readonly qty: DecimalSum;
  /** Σ price × qty (spot and linear: quote asset; inverse: price × contracts, not shown). */
  readonly notional: DecimalSum;
  readonly fees: Map<string, DecimalSum>;
}

/** One strategy's summary. */
export interface StrategySummary extends SummaryStrategy {
  readonly orders: number;
  readonly fills: number;
  /** Per symbol traded: quantity (base asset or contracts), notional in the quote asset (spot and linear), fees by asset. */
  readonly symbols: readonly { readonly symbol: string; readonly fills: number; readonly volume: string; readonly unit: string; readonly notional?: string; readonly quote?: string }[];
  readonly fees: Readonly<Record<string, string>>;
}

/** Counts orders and fills per strategy as the run goes; memory grows with strategies × symbols, never with traffic. */
export class RunTally {
  private readonly orders = new Map<string, number>();
  private readonly fills = new Map<string, Map<string, SymbolTally>>();

  /** Counts an order the run placed for `strategyId`. */
  order(strategyId: string): void {
    this.orders.set(strategyId, (this.orders.get(strategyId) ?? 0) + 1);
  }

  /** Uncounts an order counted by `order` that never reached the venue (cancelled before it was sent, or settled as not placed). */
  unsent(strategyId: string): void {
    this.orders.set(strategyId, (this.orders.get(strategyId) ?? 1) - 1);
  }

  /** Counts a fill (each once: the caller passes each trade once); fills of orders the run does not know are under "unattributed". */
  fill(f: SummaryFill): void {
    const id = f.strategyId ?? 'unattributed';
    let bySymbol = this.fills.get(id);
    if (!bySymbol) this.fills.set(id, (bySymbol = new Map()));
    let t = bySymbol.get(f.symbol);
    if (!t) bySymbol.set(f.symbol, (t = { fills: 0, qty: new DecimalSum(), notional: new DecimalSum(), fees: new Map() }));
    t.fills += 1;
    const qty = scaledOfAny(f.qty, 'qty');
    t.qty.add(qty);
    t.notional.add(roundToDecimal(mulScaled(scaledOfAny(f.price, 'price'), qty)));
    let fee = t.fees.get(f.feeAsset);
    if (fee === undefined) t.fees.set(f.feeAsset, (fee = new DecimalSum()));
    fee.addText(f.fee, 'fee');
  }

  /** Returns the summary of each strategy (and of unattributed fills, when there were any). */
  summary(strategies: readonly SummaryStrategy[], instruments: ReadonlyMap<string, Instrument>): StrategySummary[] {
    const ids = [...strategies.map((s) => s.id), ...(this.fills.has('unattributed') ? ['unattributed'] : [])];
    return ids.map((id) => {
      const s = strategies.find((x) => x.id === id) ?? { id, state: '-', pnl: {}, positions: [] };
      const bySymbol = this.fills.get(id) ?? new Map<string, SymbolTally>();
      const fees = new Map<string, Decimal>();
      const symbols = [...bySymbol].map(([symbol, t]) => {
        for (const [asset, v] of t.fees) fees.set(asset, (fees.get(asset) ?? new Decimal(0)).plus(v.value()));
        const inst = instruments.get(symbol);
        const unit = inst === undefined ? '' : inst.kind === 'spot' ? inst.baseAsset : 'contracts';
        const qty = t.qty.value();
        const volume = inst === undefined ? qty.toFixed() : qty.toDecimalPlaces(scaleOf(inst.stepSize)).toFixed();
        // Notional in the quote asset where price × quantity is one (spot; linear contracts with their multiplier).
        const quoted = inst !== undefined && inst.kind !== 'inverse';
        const notional = quoted ? t.notional.value().times(inst.multiplier).toFixed(scaleOf(inst.tickSize), Decimal.ROUND_HALF_EVEN) : undefined;
        return { symbol, fills: t.fills, volume, unit, ...(notional === undefined ? {} : { notional, quote: inst!.quoteAsset }) };
      });
      return {
        id, state: s.state, pnl: s.pnl, positions: s.positions,
        orders: this.orders.get(id) ?? 0,
        fills: symbols.reduce((n, x) => n + x.fills, 0),
        symbols,
        fees: Object.fromEntries([...fees].map(([a, v]) => [a, v.toFixed()])),
      };
    });
  }
}

/** Returns the summary as lines: `summary mm[stopped]: orders=12 fills=4 volume=BTCUSDT 0.004 BTC (120.00 USDT) fees=0.12 USDT pnl=+0.5 USDT open=BTCUSDT:+0.002 BTC`. */
export function formatSummary(list: readonly StrategySummary[]): string[] {
  return list.map((s) => {
    const volume = s.symbols.length === 0 ? '0' : s.symbols.map((x) => `${x.symbol} ${x.volume} ${x.unit}${x.notional === undefined ? '' : ` (${x.notional} ${x.quote})`}`).join(', ');
    const fees = amounts(s.fees);
    const pnl = amounts(s.pnl, true);
    const open = s.positions.filter((p) => !new Decimal(p.qty).isZero()).map((p) => `${p.symbol}:${signed(p.qty)} ${p.unit}`);
    return `summary ${s.id}[${s.state}]: orders=${s.orders} fills=${s.fills} volume=${volume} fees=${fees} pnl=${pnl} open=${open.length === 0 ? 'none' : open.join(',')}`;
  });
}

// Display only: eight decimals are enough to read (inverse PnL divides and runs long).
function amounts(m: Readonly<Record<string, string>>, sign = false): string {
  const parts = Object.entries(m).filter(([, v]) => !new Decimal(v).isZero());
  if (parts.length === 0) return '0';
  return parts.map(([asset, v]) => {
    const shown = new Decimal(v).toDecimalPlaces(8).toFixed();
    return `${sign ? signed(shown) : shown} ${asset}`;
  }).join(' ');
}
