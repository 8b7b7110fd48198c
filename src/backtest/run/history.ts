/**
 * `ctx.history` in a backtest: klines and public trades read from the catalog, only up to the clock's
 * (virtual) time, so a strategy warming up cannot see ahead, and only from the recent past, as a live
 * venue answers: a gap in the recording (or a catalog holding another period) must not hand a warm-up
 * candles or trades from long before now.
 */
import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { replay } from '../../data/replay.ts';
import { isKlineEndpointInterval, klineIntervalMs, type KlineEndpointInterval } from '../../model/enums.ts';
import type { Kline, PublicTrade } from '../../model/index.ts';
import { bucketOf } from '../../sim/engine/klines.ts';
import type { HistoryApi } from '../../strategy/index.ts';

/** Most candles and trades one call returns, as live (MAX_HISTORY_KLINES, MAX_HISTORY_TRADES). */
const MAX_KLINES = 5000;
const MAX_TRADES = 1000;
/** How far back trades history looks: the trades received in the last hour before now, at most n of them. */
export const TRADES_LOOKBACK_MS = 3_600_000;

/**
 * Returns the earliest open time of the last `n` candles of `interval` up to `now`, the candle still
 * open at `now` counted (as a live venue's last n candles are): `now - n·interval + 1` ms, or for 1M the
 * first of the month n−1 calendar months before now's (UTC).
 */
export function klinesWindowStart(interval: KlineEndpointInterval, n: number, now: number): number {
  const ms = klineIntervalMs(interval);
  if (ms !== undefined) return now - n * ms + 1;
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (n - 1), 1);
}

/** Returns a candle's close time as the simulated venue gives it: the end of its interval bucket less 1 ms (for 1M, the next month's first ms less 1). */
export function klineCloseTime(interval: KlineEndpointInterval, openTime: number): number {
  return bucketOf(interval, openTime)[1] - 1;
}

/** The history API of a backtest, and the reads it has in flight (the event loop waits for them: a read takes no simulated time). */
export interface CatalogHistory extends HistoryApi {
  /** Resolves when the reads in flight are done; undefined when there are none. */
  busy(): Promise<unknown> | undefined;
}

/**
 * Returns the history API over a catalog; every answer ends strictly before the clock's now (local time)
 * and starts no earlier than the recent past: klines only the closed candles among the last `n` intervals
 * (so fewer than n, or none, when the catalog has no candles that recent), trades only those received
 * within TRADES_LOOKBACK_MS.
 */
export function catalogHistory(catalog: string, clock: Clock, symbols: readonly string[]): CatalogHistory {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    const done = (): void => {
      inFlight.delete(p);
    };
    p.then(done, done);
    return p;
  };
  const known = (symbol: string): void => {
    if (!symbols.includes(symbol)) throw new ConfigError('history.symbol', `unknown symbol ${symbol}`);
  };
  const count = (n: number, max: number): void => {
    if (!Number.isInteger(n) || n < 1 || n > max) throw new ConfigError('history.n', `must be an integer from 1 to ${max}, got ${n}`);
  };
  /** Up to `n` of the latest items `pick` takes from the replay of `table` from local time `from` (ms, inclusive) to now (exclusive): a bounded window. */
  const latest = async <T>(symbol: string, table: 'klines' | 'trades', n: number, from: number, now: number, pick: (ev: Parameters<Parameters<typeof replay>[0]['sink']>[0]) => T | undefined): Promise<T[]> => {
    const out: T[] = [];
    await track(replay({
      catalog, symbols: [symbol], tables: [table], from: BigInt(Math.max(0, from)) * 1_000_000n, to: BigInt(now) * 1_000_000n,
      sink: (ev) => {
        const v = pick(ev);
        if (v === undefined) return;
        out.push(v);
        if (out.length > 2 * n) out.splice(0, out.length - n);
      },
    }));
    return out.slice(-n);
  };
  return {
    busy: () => (inFlight.size === 0 ? undefined : Promise.allSettled([...inFlight])),
    async klines(symbol, interval, n) {
      known(symbol);
      if (!isKlineEndpointInterval(interval)) throw new ConfigError('history.interval', `must be one of the klines endpoint's intervals (1m, 5m, 15m, 30m, 1h, 1d, 1w, 1M), got ${String(interval)}`);
      count(n, MAX_KLINES);
      const now = clock.now();
      const start = klinesWindowStart(interval, n, now);
      // A candle's closed row is received after it opened, so reading from the window's start misses none of the window's.
      // The catalog's klines table keeps open, high, low, close and volume only: quoteVolume, trades and the
      // taker-buy volumes a live venue sends are not recorded, so they are '0' and 0 here (unknown, not zero activity).
      return latest<Kline>(symbol, 'klines', n, start, now, (ev) => (ev.kind === 'kline' && ev.interval === interval && ev.closed && ev.openTime >= start ? {
        openTime: ev.openTime, open: ev.open, high: ev.high, low: ev.low, close: ev.close, volume: ev.volume,
        closeTime: klineCloseTime(interval, ev.openTime), quoteVolume: '0', trades: 0, takerBuyBaseVolume: '0', takerBuyQuoteVolume: '0',
      } : undefined));
    },
    async trades(symbol, n) {
      known(symbol);
      count(n, MAX_TRADES);
      const now = clock.now();
      return latest<PublicTrade>(symbol, 'trades', n, now - TRADES_LOOKBACK_MS, now, (ev) => (ev.kind === 'trade' && ev.ts >= now - TRADES_LOOKBACK_MS ? { price: ev.price, qty: ev.qty, time: ev.ts, isBuyerMaker: ev.takerSide === 'SELL' } : undefined));
    },
  };
}
