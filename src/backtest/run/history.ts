/** `ctx.history` in a backtest: klines and public trades read from the catalog, only up to the clock's (virtual) time, so a strategy warming up cannot see ahead. */
import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { replay } from '../../data/replay.ts';
import type { Kline, PublicTrade } from '../../model/index.ts';
import type { HistoryApi } from '../../strategy/index.ts';

/** Most candles and trades one call returns, as live (MAX_HISTORY_KLINES, MAX_HISTORY_TRADES). */
const MAX_KLINES = 5000;
const MAX_TRADES = 1000;

/** The history API of a backtest, and the reads it has in flight (the event loop waits for them: a read takes no simulated time). */
export interface CatalogHistory extends HistoryApi {
  /** Resolves when the reads in flight are done; undefined when there are none. */
  busy(): Promise<unknown> | undefined;
}

/** Returns the history API over a catalog; every answer ends strictly before the clock's now. */
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
  /** Up to `n` of the latest items `pick` takes from the replay of `table` before now (a bounded window). */
  const latest = async <T>(symbol: string, table: 'klines' | 'trades', n: number, pick: (ev: Parameters<Parameters<typeof replay>[0]['sink']>[0]) => T | undefined): Promise<T[]> => {
    const out: T[] = [];
    await track(replay({
      catalog, symbols: [symbol], tables: [table], to: BigInt(clock.now()) * 1_000_000n,
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
      count(n, MAX_KLINES);
      return latest<Kline>(symbol, 'klines', n, (ev) => (ev.kind === 'kline' && ev.interval === interval && ev.closed ? {
        openTime: ev.openTime, open: ev.open, high: ev.high, low: ev.low, close: ev.close, volume: ev.volume,
        closeTime: 0, quoteVolume: '0', trades: 0, takerBuyBaseVolume: '0', takerBuyQuoteVolume: '0',
      } : undefined));
    },
    async trades(symbol, n) {
      known(symbol);
      count(n, MAX_TRADES);
      return latest<PublicTrade>(symbol, 'trades', n, (ev) => (ev.kind === 'trade' ? { price: ev.price, qty: ev.qty, time: ev.ts, isBuyerMaker: ev.takerSide === 'SELL' } : undefined));
    },
  };
}
