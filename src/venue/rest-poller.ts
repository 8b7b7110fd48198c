/** A REST polling source of market data (depth, trades, klines, tickers, funding rates) for what no socket carries or is wanted: the same events, within the weight budget. */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import { depthSnapshotEvent, fundingEvent, tickerEvent, tradeEvent } from '../model/events.ts';
import type { KlineEndpointInterval } from '../model/enums.ts';
import type { Depth, FundingRate, Kline, SpotTicker24h, ContractTicker24h } from '../model/market.ts';
import type { PublicTrade } from '../model/trade.ts';
import { ENDPOINTS } from './catalogue.ts';
import { chargedWeight } from './endpoint.ts';
import { KlineTracker } from './market-normalise.ts';
import type { EventSink } from './ws-connection.ts';

/** The REST client's market calls the poller uses (VenueRestClient has them). */
export interface MarketRestApi {
  depth(p: { symbol: string; limit?: number }): Promise<Depth>;
  depthMerged(p: { symbol: string; limit?: number }): Promise<Depth>;
  contractDepth(p: { symbol: string; limit?: number }): Promise<Depth>;
  contractDepthMerged(p: { symbol: string; limit?: number }): Promise<Depth>;
  trades(p: { symbol: string; limit?: number }): Promise<readonly PublicTrade[]>;
  contractTrades(p: { symbol: string; limit?: number }): Promise<readonly PublicTrade[]>;
  klines(p: { symbol: string; interval: KlineEndpointInterval; limit?: number }): Promise<readonly Kline[]>;
  ticker24hr(p: { symbol: string }): Promise<SpotTicker24h>;
  contractTicker24hr(p: { symbol: string }): Promise<ContractTicker24h>;
  fundingRate(p: { symbol?: string; state?: 'current' | 'past' }): Promise<readonly FundingRate[]>;
}

/** What to poll for one symbol, each kind at its own period. */
export interface PollPlan {
  readonly symbol: string;
  readonly market?: 'spot' | 'contract';
  readonly depth?: { readonly everyMs: number; readonly limit?: number; readonly merged?: boolean };
  readonly trades?: { readonly everyMs: number; readonly limit?: number };
  readonly klines?: { readonly everyMs: number; readonly interval: KlineEndpointInterval };
  readonly ticker?: { readonly everyMs: number };
  /** A contract's current funding rate: published at the first poll and whenever the rate or its interval changes. */
  readonly funding?: { readonly everyMs: number };
}

export interface RestPollerOptions {
  readonly rest: MarketRestApi;
  readonly clock: Clock;
  readonly sink: EventSink;
  readonly plans: readonly PollPlan[];
  /** REQUEST_WEIGHT per minute of the venue (default 1500, venue-api.md Limits). */
  readonly weightPerMinute?: number;
  /** The share of it the poller may plan to use (default 0.5, leaving the rest to orders and queries). */
  readonly maxShare?: number;
  readonly log?: Logger;
}

type Kind = 'depth' | 'trades' | 'klines' | 'ticker' | 'funding';
const KINDS: readonly Kind[] = ['depth', 'trades', 'klines', 'ticker', 'funding'];

interface TradeCursor {
  time: number;
  /** How many trades of each (price, qty, side) were published at `time`. */
  atTime: Map<string, number>;
}

/** Polls each (symbol, kind) every period, one request in flight per pair; a failed poll is logged and tried at the next period. */
export class RestPoller {
  private readonly timers: TimerHandle[] = [];
  private readonly klines: KlineTracker;
  private readonly cursors = new Map<string, TradeCursor>();
  /** The last funding published per symbol, as `intervalStart|rate` (one entry per planned contract). */
  private readonly funding = new Map<string, string>();
  private readonly log: Logger;
  private running = false;
  private failures = 0;

  constructor(private readonly o: RestPollerOptions) {
    this.log = o.log ?? silentLogger();
    this.klines = new KlineTracker(o.sink);
    const planned = plannedWeightPerMinute(o.plans);
    const budget = (o.weightPerMinute ?? 1500) * (o.maxShare ?? 0.5);
    if (planned > budget) {
      throw new ConfigError('poller.plans', `would use ${Math.ceil(planned)} request weight a minute, more than the ${Math.floor(budget)} allowed; poll less often`);
    }
  }

  /** Returns how many polls failed. */
  get failed(): number {
    return this.failures;
  }

  /** Starts every poll: each runs at once, then every period after it finished. */
  start(): void {
    if (this.running) return;
    this.running = true;
    for (const p of this.o.plans) {
      for (const kind of KINDS) {
        const every = p[kind]?.everyMs;
        if (every !== undefined) this.loop(p, kind, every);
      }
    }
  }

  /** Stops polling; a request in flight finishes but publishes nothing. */
  stop(): void {
    this.running = false;
    for (const t of this.timers.splice(0)) t.cancel();
  }

  /** Polls one kind of one plan now and publishes what is new. */
  async pollOnce(p: PollPlan, kind: Kind): Promise<void> {
    const contract = p.market === 'contract';
    const { rest, sink, clock } = this.o;
    const symbol = p.symbol;
    switch (kind) {
      case 'depth': {
        const q = { symbol, limit: p.depth?.limit };
        const merged = p.depth?.merged ?? false;
        const d = await (contract ? (merged ? rest.contractDepthMerged(q) : rest.contractDepth(q)) : (merged ? rest.depthMerged(q) : rest.depth(q)));
        const now = clock.now();
        const ts = d.time ?? now;
        sink(depthSnapshotEvent({ symbol, version: `rest@${ts}`, bids: d.bids, asks: d.asks, ts, recvTs: now }));
        return;
      }
      case 'trades': {
        const list = await (contract ? rest.contractTrades({ symbol, limit: p.trades?.limit }) : rest.trades({ symbol, limit: p.trades?.limit }));
        this.publishTrades(symbol, list, clock.now());
        return;
      }
      case 'klines': {
        const interval = p.klines!.interval;
        const list = [...await rest.klines({ symbol, interval, limit: 2 })].sort((a, b) => a.openTime - b.openTime);
        const now = clock.now();
        const cur = list[list.length - 1];
        if (!cur) return;
        for (const k of list.slice(0, -1)) this.klines.close(symbol, interval, candle(k), now, now);
        this.klines.update(symbol, interval, candle(cur), now, now);
        return;
      }
      case 'ticker': {
        const t = await (contract ? rest.contractTicker24hr({ symbol }) : rest.ticker24hr({ symbol }));
        sink(tickerEvent({
          symbol, last: t.lastPrice, open: t.openPrice, high: t.highPrice, low: t.lowPrice, volume: t.volume,
          quoteVolume: t.quoteVolume, ts: t.time, recvTs: clock.now(),
        }));
        return;
      }
      case 'funding': {
        const list = await rest.fundingRate({ symbol, state: 'current' });
        const f = list.find((x) => x.symbol === symbol);
        if (!f) return;
        const key = `${f.intervalStart}|${f.rate}`;
        if (this.funding.get(symbol) === key) return;
        this.funding.set(symbol, key);
        const now = clock.now();
        sink(fundingEvent({ symbol, rate: f.rate, intervalStart: f.intervalStart, intervalEnd: f.intervalEnd, ts: now, recvTs: now }));
        return;
      }
      default: {
        const never: never = kind;
        throw new ConfigError('kind', `unknown poll kind ${String(never)}`);
      }
    }
  }

  private loop(p: PollPlan, kind: Kind, everyMs: number): void {
    const run = (): void => {
      if (!this.running) return;
      this.pollOnce(p, kind).catch((err: unknown) => {
        this.failures += 1;
        this.log.warn({ symbol: p.symbol, kind, err: err instanceof Error ? err.message : String(err) }, 'poll failed');
      }).finally(() => {
        if (this.running) this.timers.push(this.o.clock.setTimeout(run, everyMs));
      });
    };
    run();
  }

  /**
   * REST trades carry no id: a trade is new when its time is later than the last published one, or
   * at that same time when more trades of its (price, qty, side) came back than were published.
   */
  private publishTrades(symbol: string, list: readonly PublicTrade[], recvTs: number): void {
    const sorted = list.map((t, i) => ({ t, i })).sort((a, b) => a.t.time - b.t.time || a.i - b.i).map((x) => x.t);
    const cur = this.cursors.get(symbol);
    const seenAt = new Map<string, number>();
    let time = cur?.time ?? -Infinity;
    let atTime = cur?.atTime ?? new Map<string, number>();
    for (const t of sorted) {
      if (t.time < time) continue;
      const key = `${t.price}|${t.qty}|${t.isBuyerMaker ? 'S' : 'B'}`;
      if (t.time === time) {
        const seen = (seenAt.get(key) ?? 0) + 1;
        seenAt.set(key, seen);
        if (seen <= (atTime.get(key) ?? 0)) continue;
      } else {
        time = t.time;
        atTime = new Map();
        seenAt.clear();
        seenAt.set(key, 1);
      }
      atTime.set(key, (atTime.get(key) ?? 0) + 1);
      const n = [...atTime.values()].reduce((a, b) => a + b, 0);
      this.o.sink(tradeEvent({
        symbol, tradeId: `${t.time}-${n}`, price: t.price, qty: t.qty, takerSide: t.isBuyerMaker ? 'SELL' : 'BUY', ts: t.time, recvTs,
      }));
    }
    if (time !== -Infinity) this.cursors.set(symbol, { time, atTime });
  }
}

function candle(k: Kline): { openTime: number; open: string; high: string; low: string; close: string; volume: string } {
  return { openTime: k.openTime, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume };
}

/** Returns the request weight a minute the plans would use. */
export function plannedWeightPerMinute(plans: readonly PollPlan[]): number {
  let w = 0;
  for (const p of plans) {
    const contract = p.market === 'contract';
    const perMin = (everyMs: number | undefined, weight: number): number => (everyMs === undefined ? 0 : (60_000 / everyMs) * weight);
    for (const [k, ms] of [['depth', p.depth?.everyMs], ['trades', p.trades?.everyMs], ['klines', p.klines?.everyMs], ['ticker', p.ticker?.everyMs], ['funding', p.funding?.everyMs]] as const) {
      if (ms !== undefined && !(ms >= 100)) throw new ConfigError(`poller.plans.${p.symbol}.${k}.everyMs`, `must be at least 100 ms, got ${ms}`);
    }
    const depthEp = contract ? (p.depth?.merged ? ENDPOINTS.contractDepthMerged : ENDPOINTS.contractDepth) : (p.depth?.merged ? ENDPOINTS.depthMerged : ENDPOINTS.depth);
    w += perMin(p.depth?.everyMs, chargedWeight(depthEp));
    w += perMin(p.trades?.everyMs, chargedWeight(contract ? ENDPOINTS.contractTrades : ENDPOINTS.trades));
    w += perMin(p.klines?.everyMs, chargedWeight(ENDPOINTS.klines));
    w += perMin(p.ticker?.everyMs, chargedWeight(contract ? ENDPOINTS.contractTicker24hr : ENDPOINTS.ticker24hr));
    w += perMin(p.funding?.everyMs, chargedWeight(ENDPOINTS.fundingRate));
  }
  return w;
}
