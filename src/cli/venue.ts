/** `bhtrade venue`: serves the simulated venue on loopback and prints its REST and WebSocket base URLs. */
import { existsSync } from 'node:fs';
import { stderr, stdout } from 'node:process';
import { LiveClock, type Clock, type TimerHandle } from '../core/clock.ts';
import { ReplayMarket } from '../app/replay-market.ts';
import { BhError } from '../core/errors.ts';
import { createLogger } from '../core/logger.ts';
import { loadVenueConfig, type VenueConfig } from '../sim/server/config.ts';
import { startVenue } from '../sim/server/start.ts';
import { requireValue } from './load-config.ts';
import { PACKAGE_VENUE_CONFIG } from './record-config.ts';

const USAGE = 'Usage: npx bhtrade venue [--config FILE] [--host 127.0.0.1] [--port N] [--seed N] [--start-time MS]\n';

/** The config a project folder keeps; outside one (a bot folder made by new-strategy --dir) the package's serves. */
const LOCAL_VENUE_CONFIG = 'config/venue.yaml';

/** `npx bhtrade venue --help`. */
export const VENUE_HELP = `${USAGE}
Serves the simulated venue (REST, market WebSocket, user data stream) until Ctrl-C or SIGTERM, and
prints its REST and WebSocket base URLs. With a \`market:\` section in the config (see
config/paper-venue.yaml) its market is a recording replayed from a catalog instead of market agents.

Options:
  --config FILE     the venue's config (default config/venue.yaml here, else the package's)
  --host H          address to listen on (default 127.0.0.1)
  --port N          port (0 picks a free one; default the config's)
  --seed N          seed of the market agents (default the config's)
  --start-time MS   start the venue's clock at this epoch time in ms (it then runs at wall speed)
  -h, --help        show this help

Exit codes: 0 after Ctrl-C or SIGTERM, 2 for a bad option or config (named with its file), 1 when the venue failed.
`;

interface Args {
  config: string;
  host?: string;
  port?: number;
  seed?: number;
  startTime?: number;
}

/** Returns the parsed options; throws a message naming the bad option. */
export function parseVenueArgs(argv: readonly string[]): Args {
  const out: Args = { config: existsSync(LOCAL_VENUE_CONFIG) ? LOCAL_VENUE_CONFIG : PACKAGE_VENUE_CONFIG };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => requireValue(flag, inline ?? argv[++i], inline !== undefined);
    const int = (name: string, v: string, min: number, max: number): number => {
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${v}`);
      return Number(v);
    };
    switch (flag) {
      case '--config': out.config = value(); break;
      case '--host': out.host = value(); break;
      case '--port': out.port = int('--port', value(), 0, 65535); break;
      case '--seed': out.seed = int('--seed', value(), 0, 2 ** 31 - 1); break;
      case '--start-time': out.startTime = int('--start-time', value(), 0, 8.64e15); break;
      default: throw new Error(`unknown option ${a}`);
    }
  }
  return out;
}

/** A live clock that starts at `start` and runs at wall speed, so dated examples (timestamp 1538323200000) pass the timing rule. */
function shiftedClock(start: number): Clock {
  const live = new LiveClock();
  const offset = start - Date.now();
  return {
    now: () => Date.now() + offset,
    setTimeout: (fn: () => void, ms: number): TimerHandle => live.setTimeout(fn, ms),
    setInterval: (fn: () => void, ms: number): TimerHandle => live.setInterval(fn, ms),
    sleep: (ms: number) => live.sleep(ms),
  };
}

/** Runs the venue until SIGINT or SIGTERM; returns the exit code. */
export async function venueCommand(argv: readonly string[]): Promise<number> {
  let args: Args;
  try {
    args = parseVenueArgs(argv);
  } catch (e) {
    stderr.write(`bhtrade venue: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  let config: VenueConfig;
  try {
    config = loadVenueConfig(args.config, process.env);
  } catch (e) {
    // A bad config is the user's to fix, as a bad option is: named with its file, exit 2.
    const m = (e as Error).message;
    stderr.write(`bhtrade venue: ${m.startsWith(args.config) ? m : `${args.config}: ${m}`}\n`);
    return e instanceof BhError && e.retry === 'config' ? 2 : 1;
  }
  const log = createLogger({ name: 'venue', pretty: false, destination: process.stderr });
  try {
    const clock = args.startTime === undefined ? new LiveClock() : shiftedClock(args.startTime);
    const replay = config.market === undefined ? undefined : new ReplayMarket(config.market, clock, log);
    const venue = await startVenue({ config, clock, log, host: args.host, port: args.port, seed: args.seed, ...(replay ? { feed: (v) => replay.attach(v) } : {}) });
    stdout.write(`${venue.server.restUrl}\n${venue.server.wsUrl}\n`);
    // For the operator's terminal only (not the log): it opens /admin from a Host that is not loopback.
    stderr.write(`bhtrade venue: admin token ${venue.server.adminToken} (send as X-Admin-Token to reach /admin/faults from another Host)\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await venue.stop();
    log.info('venue stopped');
    return 0;
  } catch (e) {
    stderr.write(`bhtrade venue: ${e instanceof BhError ? e.message : String((e as Error).message ?? e)}\n`);
    return 1;
  }
}
