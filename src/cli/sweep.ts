/** `bhtrade backtest CONFIG --sweep PATH=VALUES ...`: the sweep part of the backtest command (progress to stderr, the ranked table to stdout). */
import { stderr, stdout } from 'node:process';
import { BhError, ConfigError } from '../core/errors.ts';
import { defaultResultsDir } from '../backtest/index.ts';
import { prepareSweep, runSweep } from '../app/sweep/run.ts';
import { comboLabel, parseSweepArg, type Combination } from '../app/sweep/spec.ts';
import { DEFAULT_RANK, rankMetric, sweepTable, type RankMetric } from '../app/sweep/table.ts';

/** The backtest command's arguments a sweep reads. */
export interface SweepArgs {
  readonly config: string;
  readonly sweep: readonly string[];
  readonly workers?: string;
  readonly rank?: string;
  readonly data?: string;
  readonly from?: string;
  readonly to?: string;
  readonly out?: string;
}

/** Runs the sweep; returns the exit code: 0 all done, 1 when a combination failed, 2 for a bad --sweep, --workers or --rank. */
export async function sweepCommand(args: SweepArgs): Promise<number> {
  const startedAt = new Date();
  let prepared: { rank: RankMetric; workers: number | undefined; combos: Combination[] };
  try {
    const axes = args.sweep.map(parseSweepArg);
    const rank = rankMetric(args.rank ?? DEFAULT_RANK);
    const workers = args.workers === undefined ? undefined : workerCount(args.workers);
    prepared = { rank, workers, combos: await prepareSweep(args.config, axes) };
  } catch (e) {
    stderr.write(`bhtrade backtest: ${args.config}: ${(e as Error).message}\n`);
    return e instanceof BhError && e.retry === 'config' ? 2 : 1;
  }
  const { rank, workers, combos } = prepared;
  const out = args.out ?? `${defaultResultsDir(args.config, startedAt)}-sweep`;
  const t0 = performance.now();
  const result = await runSweep(combos, {
    configPath: args.config, out, rank,
    ...(workers === undefined ? {} : { workers }),
    ...(args.data === undefined ? {} : { data: args.data }),
    ...(args.from === undefined ? {} : { from: args.from }),
    ...(args.to === undefined ? {} : { to: args.to }),
    onDone: (row, done, total) => {
      const what = row.outcome.ok ? `net PnL ${row.outcome.metrics.netPnl}` : `FAILED: ${row.outcome.error}`;
      stderr.write(`sweep ${done}/${total}: ${comboLabel(row.combo)}: ${what}\n`);
    },
  });
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const where = result.workers === 0 ? 'in this process' : `on ${result.workers} worker threads`;
  stdout.write(`${sweepTable(result.rows, rank)}\n`);
  stdout.write(`${combos.length} combinations ${where} in ${secs} s, ranked by ${rank}; ${result.failed} failed; table: ${result.csv}\n`);
  return result.failed > 0 ? 1 : 0;
}

function workerCount(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 256) throw new ConfigError('--workers', `must be a whole number from 0 (in this process) to 256, got ${JSON.stringify(text)}`);
  return Number(text);
}
