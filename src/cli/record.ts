/** `bhtrade record`: records a venue's market WebSocket (the embedded simulated venue, or a real one) to gzip line files until SIGINT/SIGTERM or --duration. */
import { stderr, stdout } from 'node:process';
import { LiveClock } from '../core/clock.ts';
import { BhError, ConfigError } from '../core/errors.ts';
import { createLogger } from '../core/logger.ts';
import { MarketRecorder } from '../data/capture/recorder.ts';
import { loadVenueConfig } from '../sim/server/config.ts';
import { startVenue, type RunningVenue } from '../sim/server/start.ts';
import { listedSymbols, planRecord, RECORD_USAGE, type RecordPlan } from './record-config.ts';

export { RECORD_HELP } from './record-config.ts';

/** Records until stopped; returns the exit code: 0 after a clean stop, 2 for bad usage or config, 1 for a failure. */
export async function recordCommand(argv: readonly string[]): Promise<number> {
  let plan: RecordPlan;
  try {
    plan = planRecord(argv);
  } catch (e) {
    stderr.write(`bhtrade record: ${(e as Error).message}\n${RECORD_USAGE}`);
    return 2;
  }
  const log = createLogger({ name: 'record', pretty: false, destination: process.stderr });
  const clock = new LiveClock();
  const cfg = plan.config;
  let venue: RunningVenue | undefined;
  let recorder: MarketRecorder | undefined;
  try {
    let rest: string;
    let ws: string;
    if (cfg.venue === 'embedded') {
      const vc = loadVenueConfig(plan.venueConfig!, process.env);
      const listed = listedSymbols(vc);
      const unknown = cfg.symbols.filter((sym) => !listed.includes(sym));
      // Checked before the venue starts, so the refusal is the only thing printed.
      if (unknown.length > 0) throw new ConfigError(plan.symbolsKey, `the embedded venue lists no ${unknown.join(', ')} (it has ${listed.join(', ')}; names are case-sensitive)`);
      venue = await startVenue({ config: vc, clock, log: log.child({ component: 'venue' }), host: '127.0.0.1', port: 0, seed: cfg.embedded.seed ?? vc.server.seed });
      rest = venue.server.restUrl;
      ws = venue.server.wsUrl;
    } else {
      rest = cfg.venue.rest;
      ws = cfg.venue.ws;
    }
    recorder = new MarketRecorder({ ...cfg, restUrl: rest, wsUrl: ws, dir: plan.out, clock, log, symbolsKey: plan.symbolsKey });
    await recorder.start();
    const indexes = recorder.indexSymbols();
    const withIndex = indexes.length === 0 ? '' : ` and the index of ${indexes.join(',')}`;
    stdout.write(`recording ${cfg.symbols.join(',')} [${cfg.topics.filter((t) => t !== 'index').join(',')}]${withIndex} from ${rest} to ${plan.out}\n`);
  } catch (e) {
    await recorder?.stop().catch(() => undefined);
    await venue?.stop();
    const config = e instanceof BhError && e.retry === 'config';
    stderr.write(`bhtrade record: ${(e as Error).message}\n`);
    return config ? 2 : 1;
  }
  // The clock's timers are unref'd: while the socket is down between redials nothing else would keep the process alive.
  const alive = setInterval(() => undefined, 60_000);
  const reason = await new Promise<string>((resolve) => {
    const timer = plan.durationMs === undefined ? undefined : setTimeout(() => resolve('duration elapsed'), plan.durationMs);
    const onSignal = (sig: string) => () => {
      if (timer) clearTimeout(timer);
      resolve(sig);
    };
    process.once('SIGINT', onSignal('SIGINT'));
    process.once('SIGTERM', onSignal('SIGTERM'));
  });
  try {
    await recorder.stop();
    await venue?.stop();
  } catch (e) {
    stderr.write(`bhtrade record: stopping failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    clearInterval(alive);
  }
  const s = recorder.stats();
  stdout.write(`stopped (${reason}): ${s.frames} frames, ${s.gaps} gaps, ${s.reconnects} reconnects, ${s.snapshots} snapshots in ${s.files} files (${s.bytes} bytes)\n`);
  for (const f of recorder.files()) stdout.write(`${f}\n`);
  return 0;
}
