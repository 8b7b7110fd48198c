/** `bhtrade backtest CONFIG --sweep PATH=VALUES ...`: the sweep part of the backtest command (progress to stderr, the ranked table to stdout). */
import { dirname, resolve } from 'node:path';
import { stderr, stdout } from 'node:process';
import { BhError, ConfigError } from '../core/errors.ts';
import { defaultResultsDir } from '../backtest/index.ts';
import { metricRows } from '../backtest/report/html.ts';
import { prepareSweep, runSweep, type SweepResult } from '../app/sweep/run.ts';
import { comboLabel, parseSweepArg, type Combination, type SweepAxis } from '../app/sweep/spec.ts';
import { DEFAULT_RANK, rankMetric, sweepTable, type RankMetric } from '../app/sweep/table.ts';
import { catalogProblem } from './load-config.ts';

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
  /** The catalog folder the config names (configCatalog: absolute). */
  readonly configData: string;
}

/** Runs the sweep; returns the exit code: 0 all done, 1 when a combination failed, 2 for a bad --sweep, --workers or --rank. */
export async function sweepCommand(args: SweepArgs): Promise<number> {
  const startedAt = new Date();
  let prepared: { rank: RankMetric; workers: number | undefined; combos: Combination[] };
  try {
    const axes = args.sweep.map(parseSweepArg);
    flagOverrides(axes, args);
    catalogsOf(axes, args);
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
      // The net PnL as the table will show it: rounded to the money's decimals, with its currency.
      const what = row.outcome.ok ? `net PnL ${new Map(metricRows(row.outcome.metrics, row.outcome.moneyDecimals, row.outcome.currency)).get('Net PnL')}` : `FAILED: ${row.outcome.error}`;
      stderr.write(`sweep ${done}/${total}: ${comboLabel(row.combo)}: ${what}\n`);
    },
  });
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const where = result.workers === 0 ? 'in this process' : `on ${result.workers} worker threads`;
  stdout.write(`${sweepTable(result.rows, rank)}\n`);
  stdout.write(`${combos.length} combinations ${where} in ${secs} s, ranked by ${rank}${rankedOf(result.rows)}; ${result.failed} failed; table: ${result.csv}\n`);
  return result.failed > 0 ? 1 : 0;
}

/** The command line's --from, --to and --data set every combination's range and catalog: a swept backtest.from, .to or .data beside one would be ignored, each row showing a value it did not run with. */
function flagOverrides(axes: readonly SweepAxis[], args: SweepArgs): void {
  for (const key of ['from', 'to', 'data'] as const) {
    const axis = axes.find((a) => a.path === `backtest.${key}`);
    if (axis !== undefined && args[key] !== undefined) {
      throw new ConfigError(`--sweep ${axis.path}`, `--${key} ${args[key]} sets it for every combination, so the swept values would be ignored: give one or the other`);
    }
  }
}

/** Checks, before anything runs, that each catalog the combinations would replay is one: --data, else each swept backtest.data, else the config's. */
function catalogsOf(axes: readonly SweepAxis[], args: SweepArgs): void {
  const baseDir = dirname(resolve(args.config));
  const swept = axes.find((a) => a.path === 'backtest.data');
  const given = args.data !== undefined ? [{ key: '--data', dir: resolve(args.data) }]
    : swept !== undefined ? swept.values.map((v) => ({ key: `--sweep backtest.data=${v}`, dir: resolve(baseDir, v) }))
      : [{ key: 'backtest.data', dir: args.configData }];
  for (const { key, dir } of given) {
    const problem = catalogProblem(dir);
    if (problem !== undefined) throw new ConfigError(key, `${dir}: ${problem}`);
  }
}

function workerCount(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 256) throw new ConfigError('--workers', `must be a whole number from 0 (in this process) to 256, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Names the symbol a sweep that trades several ranks by (the first traded), and where the others' results are. */
function rankedOf(rows: SweepResult['rows']): string {
  const ok = rows.find((r) => r.outcome.ok)?.outcome;
  if (ok === undefined || !ok.ok || ok.others.length === 0) return '';
  return ` of ${ok.symbol}, the first traded symbol (the results of ${ok.others.join(', ')} are in each combination's ${ok.others.map((x) => `${x}/`).join(', ')})`;
}
