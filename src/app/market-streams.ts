/** Subscribes what the strategies declared: books, trades, klines and tickers on the market socket, a contract's index, and funding rates by REST polling (the socket has no funding topic). */
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { Instrument } from '../model/index.ts';
import type { StrategyStreams } from '../strategy/index.ts';
import type { MarketTopic, MarketWsClient } from '../venue/market-ws.ts';
import { RestPoller, type MarketRestApi } from '../venue/rest-poller.ts';
import type { EventSink } from '../venue/ws-connection.ts';

/** How often a contract's current funding rate is read (its endpoint costs no request weight); the first read is at start. */
export const FUNDING_POLL_MS = 60_000;

/** The levels a side of the venue's book snapshot topics carries: `depth` (spot) and `mergedDepth` (contracts), at their default and largest limit. */
export const SNAPSHOT_LEVELS = { spot: 100, contract: 40 } as const;

/**
 * Returns the most levels a side of `symbol`'s book snapshots shows the strategies: what the snapshot
 * topic carries when every strategy on it reads snapshots, the whole book (Infinity) when one keeps a
 * book from diffs (the live client's local book) or the symbol is not traded.
 */
export function snapshotLevels(all: readonly StrategyStreams[], instruments: ReadonlyMap<string, Instrument>, symbol: string): number {
  const inst = instruments.get(symbol);
  const on = all.filter((s) => s.symbols.includes(symbol));
  if (inst === undefined || on.length === 0 || on.some((s) => s.streams.depth === 'diff')) return Infinity;
  return inst.kind === 'spot' ? SNAPSHOT_LEVELS.spot : SNAPSHOT_LEVELS.contract;
}

/**
 * Returns the socket topics each symbol needs: a book snapshot topic (`depth` for spot, the faster
 * `mergedDepth` for contracts) or `diffDepth` for diffs, `kline_<interval>` and `realtimes` as the
 * strategies declared them; `trade` on every traded symbol and `index` on the index symbol of every
 * traded contract whether declared or not. The bot itself needs those two (the last price of the risk
 * gate's price band and notional checks and of a spot closePosition, the mark of contract PnL), and a
 * fresh venue has no last price to read at start; the host still delivers them only to strategies that asked.
 */
export function marketTopics(all: readonly StrategyStreams[], instruments: ReadonlyMap<string, Instrument>): Map<MarketTopic, Set<string>> {
  const out = new Map<MarketTopic, Set<string>>();
  const add = (topic: MarketTopic, symbol: string): void => {
    let set = out.get(topic);
    if (!set) out.set(topic, (set = new Set()));
    set.add(symbol);
  };
  for (const { symbols, streams: s } of all) {
    for (const symbol of symbols) {
      const inst = instruments.get(symbol);
      const contract = inst !== undefined && inst.kind !== 'spot';
      if (s.depth === 'snapshot') add(contract ? 'mergedDepth' : 'depth', symbol);
      if (s.depth === 'diff') add('diffDepth', symbol);
      add('trade', symbol);
      for (const iv of s.klines) add(`kline_${iv}`, symbol);
      if (s.ticker) add('realtimes', symbol);
      if (contract && inst.index !== undefined) add('index', inst.index);
    }
  }
  return out;
}

/** Returns the contracts whose funding rate some strategy wants. */
export function fundingSymbols(all: readonly StrategyStreams[], instruments: ReadonlyMap<string, Instrument>): string[] {
  const out = new Set<string>();
  for (const { symbols, streams } of all) {
    if (!streams.funding) continue;
    for (const s of symbols) if (instruments.get(s)?.kind !== 'spot' && instruments.has(s)) out.add(s);
  }
  return [...out];
}

/** Subscribes every topic on the socket; returns the funding poller (started), or undefined when no strategy asked for funding. */
export function subscribeStreams(
  o: { market: MarketWsClient; rest: MarketRestApi; clock: Clock; sink: EventSink; log: Logger; instruments: ReadonlyMap<string, Instrument> },
  all: readonly StrategyStreams[],
): RestPoller | undefined {
  for (const [topic, symbols] of marketTopics(all, o.instruments)) o.market.subscribe([...symbols], topic);
  const funding = fundingSymbols(all, o.instruments);
  if (funding.length === 0) return undefined;
  const poller = new RestPoller({
    rest: o.rest, clock: o.clock, sink: o.sink, log: o.log,
    plans: funding.map((symbol) => ({ symbol, market: 'contract' as const, funding: { everyMs: FUNDING_POLL_MS } })),
  });
  poller.start();
  return poller;
}
