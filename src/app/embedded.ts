/** `venue: embedded`: the simulated venue started in-process on 127.0.0.1 port 0, spoken to over loopback by the same REST and stream clients as a real venue. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { loadVenueConfig, type VenueConfig } from '../sim/server/config.ts';
import { startVenue, type RunningVenue } from '../sim/server/start.ts';
import type { RunConfig } from './config.ts';
import { ReplayMarket } from './replay-market.ts';

/** Where the bot connects and with which key. */
export interface VenueEndpoint {
  readonly rest: string;
  readonly ws: string;
  readonly apiKey: string;
  readonly secret: string;
}

/** An embedded venue and the endpoint of its trading account. */
export interface EmbeddedVenue {
  readonly venue: RunningVenue;
  readonly endpoint: VenueEndpoint;
  /** The venue's fee rates, as its config sets them. */
  readonly fees: VenueConfig['fees'];
  /** The replayed recording that makes the market when the venue config has `market:` (its `ended` resolves at the end with atEnd: stop). */
  readonly replay: ReplayMarket | undefined;
}

/** The venue config shipped with bhtrade: what `embedded.config` (default venue.yaml) means when the config's folder has none. */
export const BUNDLED_VENUE_CONFIG = fileURLToPath(new URL('../../config/venue.yaml', import.meta.url));

/** Returns the venue config file of `embedded.config`: next to the run config, else, for the default name only, the bundled one. */
export function venueConfigPath(file: string, baseDir: string): string {
  const own = resolve(baseDir, file);
  return existsSync(own) || file !== 'venue.yaml' ? own : BUNDLED_VENUE_CONFIG;
}

/**
 * Returns a running simulated venue built from `embedded.config` (resolved against `baseDir`), or from
 * `override` when a caller (a test) supplies the config itself; the bot trades with the first key of
 * `embedded.account`.
 */
export async function startEmbeddedVenue(
  opts: RunConfig['embedded'], baseDir: string, clock: Clock, log: Logger, override?: VenueConfig,
): Promise<EmbeddedVenue> {
  const file = venueConfigPath(opts.config, baseDir);
  let config: VenueConfig;
  try {
    config = override ?? loadVenueConfig(file, process.env);
  } catch (e) {
    throw inVenueConfig(e, opts.config, file);
  }
  const account = config.accounts.find((a) => a.name === opts.account);
  if (account === undefined) {
    throw new ConfigError('embedded.account', `no account ${JSON.stringify(opts.account)} in the venue config (it has ${config.accounts.map((a) => a.name).join(', ') || 'none'})`);
  }
  const key = account.keys[0]!;
  const seed = opts.seed ?? config.server.seed;
  // The venue runs its own market agents (config `agents`), so paper trading has books that move, or replays a recording (`market`).
  const replay = config.market === undefined ? undefined : new ReplayMarket(config.market, clock, log);
  const venue = await startVenue({ config, clock, log, host: '127.0.0.1', port: 0, seed, ...(replay ? { feed: (v) => replay.attach(v) } : {}) })
    .catch((e: unknown) => { throw override === undefined ? inVenueConfig(e, opts.config, file) : e; });
  return {
    venue, endpoint: { rest: venue.server.restUrl, ws: venue.server.wsUrl, apiKey: key.apiKey, secret: key.secret },
    fees: { ...config.fees, spot: account.spotFees ?? config.fees.spot }, replay,
  };
}

/**
 * Returns a venue config key's error with the venue config file named: its keys (market.from, server.port) are not the run
 * config's, where the command's message would otherwise send the reader. An error about the file itself already names it.
 */
function inVenueConfig(e: unknown, name: string, file: string): unknown {
  if (!(e instanceof ConfigError) || e.path === file) return e;
  return new ConfigError(`embedded.config ${name}`, e.message, { cause: e });
}
