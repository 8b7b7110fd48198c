/** `bhtrade run CONFIG [--duration 30s]`: validates the config (exit 2 naming the bad key), runs its strategies until SIGINT/SIGTERM or the duration, then stops gracefully. */
import { stderr } from 'node:process';
import { BhError } from '../core/errors.ts';
import { startApp } from '../app/run.ts';
import { durationFlag } from './duration.ts';
import { argsAndConfig, configAndOptions } from './load-config.ts';

const USAGE = 'Usage: npx bhtrade run CONFIG [--duration 30s]   (duration: 500ms, 30s, 5m, 1h)\n';

/** `npx bhtrade run --help`. */
export const RUN_HELP = `${USAGE}
Runs the strategies of CONFIG (a YAML file; every key: docs/config.md) until Ctrl-C, SIGTERM or the
end of --duration, then stops gracefully (cancelling open orders unless stop.cancelAll is false) and
logs a summary per strategy: orders, fills, volume, fees, PnL and the positions left open.

Options:
  --duration D   stop by itself after D (500ms, 30s, 5m, 1h)
  -h, --help     show this help

Exit codes: 0 after a clean stop, 1 when running or stopping failed, 2 for bad usage or a bad config
(the message names the key).
`;

interface RunArgs {
  readonly config: string;
  readonly durationMs?: number;
}

/** Returns the parsed arguments; throws a message naming the bad one. */
export function parseRunArgs(argv: readonly string[]): RunArgs {
  const { config, values } = configAndOptions(argv, ['--duration'] as const);
  const v = values.get('--duration')?.at(-1);
  if (v === undefined) return { config };
  return { config, durationMs: durationFlag(v, 'run') };
}

/** Runs the bot; returns the exit code: 0 after a clean stop, 2 for bad usage or config, 1 for a failure while running or a strategy that failed. */
export async function runCommand(argv: readonly string[]): Promise<number> {
  const start = argsAndConfig('run', argv, parseRunArgs, USAGE);
  if (start === 2) return 2;
  const { args, loaded } = start;
  let app: Awaited<ReturnType<typeof startApp>>;
  try {
    app = await startApp(loaded, {});
  } catch (e) {
    const config = e instanceof BhError && e.retry === 'config';
    stderr.write(`bhtrade run: ${config ? `${args.config}: ` : ''}${(e as Error).message}\n`);
    return config ? 2 : 1;
  }
  // The clock's timers are unref'd: while every socket is down (a venue restart) nothing else would keep Node from exiting mid-run or mid-stop.
  const alive = setInterval(() => undefined, 60_000);
  const reason = await new Promise<string>((resolve) => {
    const timer = args.durationMs === undefined ? undefined : setTimeout(() => resolve(`--duration ${args.durationMs} ms elapsed`), args.durationMs);
    const onSignal = (sig: string) => () => {
      if (timer) clearTimeout(timer);
      resolve(sig);
    };
    process.once('SIGINT', onSignal('SIGINT'));
    process.once('SIGTERM', onSignal('SIGTERM'));
    void app.done.then(() => resolve('stopped'));
    void app.embedded?.replay?.ended.then(() => resolve('the replayed recording ended'));
  });
  try {
    await app.stop(reason);
    const code = app.exitCode();
    if (code !== 0) stderr.write('bhtrade run: a strategy failed (set onStrategyFailure: continue to exit 0 all the same)\n');
    return code;
  } catch (e) {
    stderr.write(`bhtrade run: stopping failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    clearInterval(alive);
  }
}
