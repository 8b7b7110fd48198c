/** A market the served venue takes from outside instead of its agents (a replayed recording): built above the sim layer and injected at start. */
import type { SimVenue } from '../engine/venue.ts';

/** A running outside market. */
export interface MarketFeed {
  /**
   * Applies everything due by the venue's clock now. The server calls it before each request and
   * each market push, so no reader sees the market behind its clock, whatever the timers' order.
   */
  catchUp(): void;
  /** Stops the feed's timers and reading. */
  stop(): void;
}

/** Builds the feed on the venue's engine, once the engine and its accounts are ready. */
export type MarketFeedFactory = (venue: SimVenue) => MarketFeed;
