/** The market agents of a served venue, from the `agents` list of config/venue.yaml: spot and contract books that move while nobody else trades. */
import type { AgentsConfig } from '../engine/config.ts';
import type { SimVenue } from '../engine/venue.ts';
import { MarketAgents } from '../agents/index.ts';
import type { VenueConfig } from './config.ts';

/** Agents that run on the venue's clock; `stop` cancels their timers (their resting orders stay). */
export interface RunningAgents {
  stop(): void;
}

/**
 * Returns the engine's agent settings for the makers and takers of the config, or undefined when
 * no symbol has a maker. One spot liquidity provider quotes every spot maker symbol around a
 * reference that starts at the symbol's initialPrice, with the first maker's cadence and levels,
 * and noise takers act at the first taker's cadence. Contracts with a maker get the contract agents:
 * a reference per index (starting at the index's spot initialPrice, else the contract's) that drives
 * the venue's index, a provider quoting around it and a noise taker, on funded contract accounts.
 */
export function agentsConfig(c: VenueConfig): AgentsConfig | undefined {
  const spot = new Map(c.instruments.spot.map((s) => [s.symbol, s]));
  const contracts = new Map(c.instruments.contracts.map((k) => [k.symbol, k]));
  const makers = c.agents.filter((a) => a.kind === 'maker');
  if (makers.length === 0) return undefined;
  const spotMakers = makers.filter((m) => spot.has(m.symbol));
  const contractMakers = makers.filter((m) => contracts.has(m.symbol));
  const first = spotMakers[0] ?? makers[0]!;
  const taker = c.agents.find((a) => a.kind !== 'maker');
  const referencePrice: Record<string, string> = {};
  const funds: Record<string, string> = {};
  for (const m of spotMakers) {
    const s = spot.get(m.symbol)!;
    if (s.initialPrice === undefined) throw new Error(`agents: spot symbol ${m.symbol} has a maker but no initialPrice to quote around`);
    referencePrice[m.symbol] = s.initialPrice;
    // Enough of both assets to quote for days at any reference the walk reaches.
    funds[s.baseAsset] = '1000000';
    funds[s.quoteAsset] = '1000000000';
  }
  const contractFunds: Record<string, string> = {};
  for (const m of contractMakers) {
    const k = contracts.get(m.symbol)!;
    const start = spot.get(k.index)?.initialPrice ?? k.initialPrice;
    if (start === undefined) throw new Error(`agents: contract ${m.symbol} has a maker but neither its index ${k.index} nor it has an initialPrice`);
    referencePrice[k.index] ??= start;
    contractFunds[k.marginToken] = k.inverse ? '100000' : '1000000000';
  }
  return {
    symbols: spotMakers.map((m) => m.symbol),
    referencePrice,
    quoteEveryMs: first.everyMs,
    takerEveryMs: taker?.everyMs ?? 3000,
    levels: first.levels,
    // The engine's takers cross 10 ticks through the reference: the first level must sit inside that to be traded.
    spreadTicks: Math.min(first.spreadTicks, 5),
    levelGapTicks: 1,
    funds,
    ...(contractMakers.length > 0 ? { contracts: contractMakers.map((m) => m.symbol), contractFunds } : {}),
  };
}

/** Creates the agents of `c` on `venue` (funding their accounts) and starts them. */
export function startAgents(venue: SimVenue, c: VenueConfig, seed: number): RunningAgents {
  const cfg = agentsConfig(c);
  if (!cfg) return { stop: () => undefined };
  const agents = new MarketAgents(venue, cfg, seed);
  agents.start();
  return { stop: () => agents.stop() };
}
