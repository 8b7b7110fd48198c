/** The market agents of a served venue, from the `agents` list of config/venue.yaml: books that move while nobody else trades. */
import type { AgentsConfig } from '../engine/config.ts';
import type { SimVenue } from '../engine/venue.ts';
import { MarketAgents } from '../agents/index.ts';
import type { VenueConfig } from './config.ts';

/** Agents that run on the venue's clock; `stop` cancels their timers (their resting orders stay). */
export interface RunningAgents {
  stop(): void;
}

/**
 * Returns the engine's agent settings for the spot makers and takers of the config, or undefined
 * when no spot symbol has a maker. One liquidity provider quotes every maker symbol around a
 * reference that starts at the symbol's initialPrice, with the first maker's cadence and levels;
 * noise takers act at the first taker's cadence.
 */
export function spotAgentsConfig(c: VenueConfig): AgentsConfig | undefined {
  const spot = new Map(c.instruments.spot.map((s) => [s.symbol, s]));
  const makers = c.agents.filter((a) => a.kind === 'maker' && spot.has(a.symbol));
  if (makers.length === 0) return undefined;
  const first = makers[0]!;
  const taker = c.agents.find((a) => a.kind !== 'maker' && spot.has(a.symbol));
  const referencePrice: Record<string, string> = {};
  const funds: Record<string, string> = {};
  for (const m of makers) {
    const s = spot.get(m.symbol)!;
    if (s.initialPrice === undefined) throw new Error(`agents: spot symbol ${m.symbol} has a maker but no initialPrice to quote around`);
    referencePrice[m.symbol] = s.initialPrice;
    // Enough of both assets to quote for days at any reference the walk reaches.
    funds[s.baseAsset] = '1000000';
    funds[s.quoteAsset] = '1000000000';
  }
  return {
    symbols: makers.map((m) => m.symbol),
    referencePrice,
    quoteEveryMs: first.everyMs,
    takerEveryMs: taker?.everyMs ?? 3000,
    levels: first.levels,
    // The engine's takers cross 10 ticks through the reference: the first level must sit inside that to be traded.
    spreadTicks: Math.min(first.spreadTicks, 5),
    levelGapTicks: 1,
    funds,
  };
}

/** Creates the agents of `c` on `venue` (funding their accounts) and starts them. */
export function startAgents(venue: SimVenue, c: VenueConfig, seed: number): RunningAgents {
  const stops: (() => void)[] = [];
  const spot = spotAgentsConfig(c);
  if (spot) {
    const agents = new MarketAgents(venue, spot, seed);
    agents.start();
    stops.push(() => agents.stop());
  }
  return { stop: () => stops.splice(0).forEach((s) => s()) };
}
