/** `bhtrade parity CONFIG [--duration D] [--out DIR]`: runs a config live on the embedded venue with recording on, backtests it on that recording, and prints the two side by side. */
import { stderr, stdout } from 'node:process';
import { basename, extname, join } from 'node:path';
import { BhError } from '../core/errors.ts';
import { createLogger } from '../core/logger.ts';
import { parseDuration } from '../app/config.ts';
import { runParity } from '../app/parity/run.ts';
import { parityLines, writeParity } from '../app/parity/report.ts';
import { durationFlag } from './duration.ts';
import { argsAndConfig, configAndOptions, outProblem } from './load-config.ts';

const USAGE = 'Usage: npx bhtrade parity CONFIG [--duration 10m] [--depth-push 50ms] [--out DIR] [--recording DIR]\n';

/** `npx bhtrade parity --help`. */
export const PARITY_HELP = `${USAGE}
Measures how far the backtest of CONFIG is from live trading. Runs CONFIG on the embedded simulated
venue for --duration with its market data and its own orders recorded (requests, answers with their
times, fills), takes the bot's own orders out of the recorded book, converts the recording into a
catalog, backtests the same config on it with the recorded order latencies, the venue's fees and the
account's balances, and prints side by side: orders placed, fills and how many match (same order of
the strategy's sequence or same price, same side and quantity, within 1 s), price differences of
matched fills, fees and PnL, and the cause of each fill without a counterpart (docs/parity.md).
Writes parity.json, matched.csv, unmatched.csv and orders.csv, with the recording and the catalog,
into --out.

Options:
  --duration D    how long the live run lasts (default 10m, at most 24h): 30s, 5m, 1h
  --depth-push D  how often the venue pushes book changes in the live run (default 50ms; the venue
                  config's own cadence is 300ms): the recording, and so the backtest, sees a change
                  of the book at most this long after it happened
  --out DIR       the folder of the files (default: parity/<config name>)
  --recording R   compare on the recording of an earlier check (its folder DIR/recording) instead of
                  running live again: the backtest half alone, e.g. after changing the backtester
  -h, --help      show this help

Exit codes: 0 done, 1 when a run failed, 2 for bad usage or a bad config (the message names the key).
`;

/** The live run's diffDepth cadence: book changes reach the recording within 50 ms of happening, as on a real venue's fast depth stream. */
const DEFAULT_DEPTH_PUSH_MS = 50;

/** The longest live run: a day of recording is already far more than a check needs (and a timer cannot wait 25 days). */
const MAX_DURATION_MS = 86_400_000;

interface ParityArgs {
  readonly config: string;
  readonly durationMs: number;
  readonly out?: string;
  readonly recording?: string;
  readonly depthPushMs: number;
}

/** Returns the parsed arguments; throws a message naming the bad one. */
export function parseParityArgs(argv: readonly string[]): ParityArgs {
  const { config, values } = configAndOptions(argv, ['--duration', '--out', '--recording', '--depth-push'] as const);
  let durationMs = 600_000;
  let depthPushMs = DEFAULT_DEPTH_PUSH_MS;
  const duration = values.get('--duration')?.at(-1);
  if (duration !== undefined) {
    durationMs = durationFlag(duration, 'record', { ms: MAX_DURATION_MS, text: '24h (the live run records all of it before the backtest starts)' });
  }
  const push = values.get('--depth-push')?.at(-1);
  if (push !== undefined) {
    const ms = parseDuration(push);
    if (ms === undefined || ms < 10) throw new Error(`--depth-push must be a duration of at least 10ms such as 50ms, got ${JSON.stringify(push)}`);
    depthPushMs = ms;
  }
  const out = values.get('--out')?.at(-1);
  const recording = values.get('--recording')?.at(-1);
  return { config, durationMs, depthPushMs, ...(out === undefined ? {} : { out }), ...(recording === undefined ? {} : { recording }) };
}

/** Runs the parity check; returns the exit code. */
export async function parityCommand(argv: readonly string[]): Promise<number> {
  const start = argsAndConfig('parity', argv, parseParityArgs, USAGE);
  if (start === 2) return 2;
  const { args, loaded } = start;
  const out = args.out ?? join('parity', basename(args.config, extname(args.config)));
  const outBad = outProblem(out);
  if (outBad !== undefined) {
    stderr.write(`bhtrade parity: --out ${out}: ${outBad}\n`);
    return 2;
  }
  // The live run logs warnings and errors only: the report is the output.
  const log = createLogger({ level: 'warn' });
  // The clock's timers are unref'd: a ref'd handle keeps Node alive through the live run.
  const alive = setInterval(() => undefined, 60_000);
  try {
    const result = await runParity(loaded, { out, durationMs: args.durationMs, depthPushMs: args.depthPushMs, log, ...(args.recording === undefined ? {} : { recording: args.recording }), onStage: (s) => stderr.write(`parity: ${s}\n`) });
    const decimals = Math.max(2, (result.backtest.results.moneyDecimals));
    const lines = parityLines(result, decimals);
    const files = writeParity(out, result, lines);
    stdout.write(`${lines.join('\n')}\nfiles: ${files.join(', ')}\n`);
    return 0;
  } catch (e) {
    const config = e instanceof BhError && e.retry === 'config';
    stderr.write(`bhtrade parity: ${config ? `${args.config}: ` : ''}${(e as Error).message}\n`);
    return config ? 2 : 1;
  } finally {
    clearInterval(alive);
  }
}
