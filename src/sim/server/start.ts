/** Starts a whole simulated venue (engine, server, streams) from a config, and stops it cleanly. */
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { EngineBackend } from './backend.ts';
import type { VenueConfig } from './config.ts';
import type { MarketFeedFactory } from './market-feed.ts';
import { VenueServer } from './server.ts';

export interface StartOptions {
  readonly config: VenueConfig;
  readonly clock: Clock;
  readonly log?: Logger;
  readonly host?: string;
  readonly port?: number;
  readonly seed?: number;
  /** An outside market (a replayed recording) that replaces the agents. */
  readonly feed?: MarketFeedFactory;
}

/** A running venue. */
export interface RunningVenue {
  readonly server: VenueServer;
  readonly backend: EngineBackend;
  stop(): Promise<void>;
}

/** Returns a venue listening on host:port (port 0 picks a free one). */
export async function startVenue(o: StartOptions): Promise<RunningVenue> {
  const seed = o.seed ?? o.config.server.seed;
  const server = new VenueServer({
    config: o.config, clock: o.clock, seed, ...(o.log ? { log: o.log } : {}),
    backend: (faults) => new EngineBackend(o.config, o.clock, faults, seed, o.log, o.feed),
  });
  await server.listen(o.host ?? o.config.server.host, o.port ?? o.config.server.port);
  return { server, backend: server.backend as EngineBackend, stop: () => server.stop() };
}
