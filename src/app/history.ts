/** `ctx.history`: recent klines and public trades through the REST client (which waits for its request-weight budget), for warming up indicators. */
import { ConfigError } from '../core/errors.ts';
import { isKlineEndpointInterval, type Instrument, type Kline, type KlineEndpointInterval, type PublicTrade } from '../model/index.ts';
import type { HistoryApi } from '../strategy/index.ts';

/** Most candles one call returns (5 requests of the venue's 1000). */
export const MAX_HISTORY_KLINES = 5000;
/** Most trades one call returns (the venue's limit for one request). */
export const MAX_HISTORY_TRADES = 1000;
/** Candles per request: the venue's maximum. */
const PAGE = 1000;

/** The REST client's calls history uses (VenueRestClient has them). */
export interface HistoryRestApi {
  klines(p: { symbol: string; interval: KlineEndpointInterval; endTime?: number; limit?: number }): Promise<readonly Kline[]>;
  trades(p: { symbol: string; limit?: number }): Promise<readonly PublicTrade[]>;
  contractTrades(p: { symbol: string; limit?: number }): Promise<readonly PublicTrade[]>;
}

/** Returns the history API over `rest`; a bad symbol, interval or count rejects with an error naming it. */
export function restHistory(rest: HistoryRestApi, instruments: ReadonlyMap<string, Instrument>, o: { page?: number } = {}): HistoryApi {
  const pageSize = o.page ?? PAGE;
  const known = (symbol: string): Instrument => {
    const inst = instruments.get(symbol);
    if (inst === undefined) throw new ConfigError('history.symbol', `unknown symbol ${symbol}`);
    return inst;
  };
  const count = (n: number, max: number): void => {
    if (!Number.isInteger(n) || n < 1 || n > max) throw new ConfigError('history.n', `must be an integer from 1 to ${max}, got ${n}`);
  };
  return {
    async klines(symbol, interval, n) {
      known(symbol);
      if (!isKlineEndpointInterval(interval)) throw new ConfigError('history.interval', `must be one of the klines endpoint's intervals (1m, 5m, 15m, 30m, 1h, 1d, 1w, 1M), got ${String(interval)}`);
      count(n, MAX_HISTORY_KLINES);
      // Newest page first, then pages ending just before the oldest candle so far, until n or the venue has no older ones.
      const byOpen = new Map<number, Kline>();
      let endTime: number | undefined;
      while (byOpen.size < n) {
        const page = await rest.klines({ symbol, interval, limit: Math.min(pageSize, n - byOpen.size), ...(endTime === undefined ? {} : { endTime }) });
        const before = byOpen.size;
        for (const k of page) byOpen.set(k.openTime, k);
        if (page.length === 0 || byOpen.size === before) break;
        endTime = Math.min(...page.map((k) => k.openTime)) - 1;
      }
      return [...byOpen.values()].sort((a, b) => a.openTime - b.openTime).slice(-n);
    },
    async trades(symbol, n) {
      const inst = known(symbol);
      count(n, MAX_HISTORY_TRADES);
      const list = await (inst.kind === 'spot' ? rest.trades({ symbol, limit: n }) : rest.contractTrades({ symbol, limit: n }));
      return list.map((t, i) => ({ t, i })).sort((a, b) => a.t.time - b.t.time || a.i - b.i).map((x) => x.t).slice(-n);
    },
  };
}
