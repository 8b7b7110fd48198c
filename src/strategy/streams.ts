/** The market streams a strategy declares (manifest `streams`, or its config entry's), their defaults, and which bus events reach it. */
import { z } from 'zod';
import { KLINE_INTERVALS, type KlineInterval, type KlineEndpointInterval } from '../model/enums.ts';
import type { Instrument, Kline, PublicTrade, SymbolEventKind } from '../model/index.ts';

/** The schema of a stream request; the config's `strategies[i].streams` and a manifest's `streams` are checked with it. */
export const streamRequestSchema = z.strictObject({
  depth: z.enum(['snapshot', 'diff', 'none']).optional()
    .describe('the book: `snapshot` (the top of book on every push), `diff` (level changes, after a snapshot of the whole book) or `none`; default snapshot'),
  trades: z.boolean().optional().describe('public trades; default true'),
  klines: z.array(z.enum(KLINE_INTERVALS)).optional().describe('candle intervals, e.g. [1m, 5m]; default none'),
  ticker: z.boolean().optional().describe('the rolling 24-hour ticker; default false'),
  index: z.boolean().optional().describe('contracts: the index price (and estimated delivery price) of the contract\'s index; default true'),
  funding: z.boolean().optional().describe('contracts: the current interval\'s funding rate, when it changes; default false'),
});

/** What a strategy asks to receive; every field is optional (see the defaults in {@link resolveStreams}). */
export type StreamRequest = z.input<typeof streamRequestSchema>;

/** A stream request with every default applied. */
export interface Streams {
  readonly depth: 'snapshot' | 'diff' | 'none';
  readonly trades: boolean;
  readonly klines: readonly KlineInterval[];
  readonly ticker: boolean;
  readonly index: boolean;
  readonly funding: boolean;
}

/** Returns the streams of a strategy: its config entry's fields over its manifest's, over the defaults (today's: snapshots, trades, index). */
export function resolveStreams(manifest: StreamRequest | undefined, config: StreamRequest | undefined): Streams {
  const pick = <K extends keyof StreamRequest>(k: K): StreamRequest[K] => config?.[k] ?? manifest?.[k];
  return {
    depth: pick('depth') ?? 'snapshot',
    trades: pick('trades') ?? true,
    klines: [...new Set(pick('klines') ?? [])],
    ticker: pick('ticker') ?? false,
    index: pick('index') ?? true,
    funding: pick('funding') ?? false,
  };
}

/** One bus subscription that feeds a strategy: events of `kind` about `symbol` (an index symbol for `index`). */
export interface MarketRoute {
  readonly kind: SymbolEventKind;
  readonly symbol: string;
}

/**
 * Returns the market events a strategy receives for its symbols and streams. Index events carry the
 * index's symbol (e.g. BTCUSDT), so a contract's strategy is routed its index's; a spot symbol has no
 * index or funding.
 */
export function marketRoutes(symbols: readonly string[], s: Streams, instruments: ReadonlyMap<string, Instrument>): MarketRoute[] {
  const out = new Map<string, MarketRoute>();
  const add = (kind: SymbolEventKind, symbol: string): void => {
    out.set(`${kind}|${symbol}`, { kind, symbol });
  };
  for (const symbol of symbols) {
    const inst = instruments.get(symbol);
    if (s.depth !== 'none') add('depthSnapshot', symbol);
    if (s.depth === 'diff') add('depthUpdate', symbol);
    if (s.trades) add('trade', symbol);
    if (s.klines.length > 0) add('kline', symbol);
    if (s.ticker) add('ticker', symbol);
    if (inst?.kind === 'spot') continue;
    if (s.index && inst?.index !== undefined) add('index', inst.index);
    if (s.funding) add('funding', symbol);
  }
  return [...out.values()];
}

/**
 * Recent market history through the REST client, for warming up indicators; requests wait for the
 * client's request-weight budget, so a large warm-up slows down rather than getting the key banned.
 */
export interface HistoryApi {
  /** Returns the last `n` candles (1 to 5000, oldest first; the newest may still be open). Intervals: 1m, 5m, 15m, 30m, 1h, 1d, 1w, 1M. */
  klines(symbol: string, interval: KlineEndpointInterval, n: number): Promise<readonly Kline[]>;
  /** Returns the last `n` public trades (1 to 1000, oldest first). */
  trades(symbol: string, n: number): Promise<readonly PublicTrade[]>;
}
