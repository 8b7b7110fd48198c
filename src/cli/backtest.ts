/** `bhtrade backtest CONFIG [--data CATALOG] [--from T] [--to T] [--out DIR]`: runs a run config's strategies on recorded data and writes its results. */
import { join } from 'node:path';
import { stderr, stdout } from 'node:process';
import { BhError } from '../core/errors.ts';
import { Decimal } from '../core/fixed.ts';
import { failureText, runBacktest, writeRun, type BacktestRun, type WrittenResults } from '../app/backtest.ts';
import { configCatalog } from '../app/config.ts';
import { defaultResultsDir, type BacktestResults } from '../backtest/index.ts';
import { metricRows } from '../backtest/report/html.ts';
import { argsAndConfig, checkCatalog, configAndOptions, outProblem, timeOption } from './load-config.ts';
import { Progress } from './progress.ts';
import { RunLog } from '../app/run-log.ts';
import { formatSummary } from '../app/summary.ts';
import { sweepCommand } from './sweep.ts';

const USAGE = 'Usage: npx bhtrade backtest CONFIG [--data CATALOG] [--from T] [--to T] [--out DIR] [--sweep PATH=VALUES]... [--workers N] [--rank METRIC]\n';

/** `npx bhtrade backtest --help`. */
export const BACKTEST_HELP = `${USAGE}
Backtests the strategies of CONFIG (the file \`bhtrade run\` takes; its \`backtest:\` section sets the
data, balances, fees, latency, queue model and seed: docs/config.md) on a Parquet catalog of recorded
market data: the same strategies, risk gate, executor and portfolio as a live run, on simulated time,
trading against the recorded book with queue position and latency (docs/backtest.md).
Writes summary.json, orders.csv, fills.csv, equity.csv, report.html and log.jsonl (what the strategies
and the bot logged, at log.level, stamped with simulated time), and prints the summary. Each traded
symbol is an account of its own: the first's results go to the results folder, each other's to a
folder named after it inside it.
Progress goes to stderr: a live line on a terminal, plain lines otherwise.

Options:
  --data CATALOG  the catalog folder (default: backtest.data of CONFIG, else the sample that ships with bhtrade)
  --from T        first local time replayed: ISO (2024-08-08T23:55:00Z) or epoch ms
  --to T          end of the replay, exclusive (same forms)
  --out DIR       results folder (default: backtest/results/<config>-<start time>/)
  --sweep PATH=VALUES
                  backtest every combination of the swept keys (repeat it for more keys):
                  VALUES a list 4,6,8 or a range 100..500:100; PATH a config key such as
                  strategies.0.params.spreadTicks (params.X with one strategy); each combination's
                  results go to its own folder under --out (default ...-sweep/), ranked in sweep.csv
  --workers N     sweep worker threads (default: one per core; 0 runs them in this process)
  --rank METRIC   the sweep's ranking metric (default netPnl; sharpe, return, maxDrawdown, ...)
  -h, --help      show this help

Exit codes: 0 done, 1 when the run (or a sweep's combination) failed or a strategy threw (unless the
config says onStrategyFailure: continue), 2 for bad usage or a bad config
(the message names the key).
`;

interface BacktestArgs {
  readonly config: string;
  readonly data?: string;
  readonly from?: string;
  readonly to?: string;
  readonly out?: string;
  readonly sweep?: readonly string[];
  readonly workers?: string;
  readonly rank?: string;
}

const OPTIONS = ['--data', '--from', '--to', '--out', '--sweep', '--workers', '--rank'] as const;

/** Returns the parsed arguments; throws a message naming the bad one. */
export function parseBacktestArgs(argv: readonly string[]): BacktestArgs {
  const { config, values } = configAndOptions(argv, OPTIONS);
  const last = (name: (typeof OPTIONS)[number]): string | undefined => values.get(name)?.at(-1);
  const opts: Record<string, string> = {};
  for (const name of OPTIONS) {
    const v = last(name);
    if (v === undefined || name === '--sweep') continue;
    opts[name.slice(2)] = name === '--from' || name === '--to' ? timeOption(name, v) : v;
  }
  const sweep = values.get('--sweep') ?? [];
  if (sweep.length === 0 && (opts['workers'] !== undefined || opts['rank'] !== undefined)) throw new Error('--workers and --rank go with --sweep');
  return { config, ...(sweep.length > 0 ? { sweep } : {}), ...opts };
}

/** Runs the backtest; returns the exit code. */
export async function backtestCommand(argv: readonly string[]): Promise<number> {
  const start = argsAndConfig('backtest', argv, parseBacktestArgs, USAGE);
  if (start === 2) return 2;
  const { args, loaded } = start;
  const outBad = args.out === undefined ? undefined : outProblem(args.out);
  if (outBad !== undefined) {
    stderr.write(`bhtrade backtest: --out ${args.out}: ${outBad}\n`);
    return 2;
  }
  // A --data folder (or backtest.data) that is not a catalog is bad usage (exit 2), found before any run starts
  // (without --data a sweep checks its own: its combinations may set backtest.data themselves).
  if ((args.data !== undefined || args.sweep === undefined) && checkCatalog('backtest', loaded, args.data, args.config) === 2) return 2;
  if (args.sweep !== undefined) return sweepCommand({ ...args, sweep: args.sweep, configData: configCatalog(loaded) });
  const dir = args.out ?? defaultResultsDir(args.config, new Date());
  const progress = new Progress(stderr);
  const log = new RunLog(join(dir, 'log.jsonl'));
  let run: BacktestRun;
  try {
    run = await runBacktest(loaded, {
      configPath: args.config,
      logTo: log,
      ...(args.data === undefined ? {} : { data: args.data }),
      ...(args.from === undefined ? {} : { from: args.from }),
      ...(args.to === undefined ? {} : { to: args.to }),
      onStart: (range) => progress.start(range.from, range.to),
      onProgress: (events, time) => progress.update(events, time),
    });
  } catch (e) {
    progress.end();
    log.close();
    const config = e instanceof BhError && e.retry === 'config';
    stderr.write(`bhtrade backtest: ${config ? `${args.config}: ` : ''}${(e as Error).message}\n`);
    return config ? 2 : 1;
  }
  progress.end();
  log.close();
  const [first, ...more] = writeRun(dir, run);
  const r = run.results;
  const lines = [
    `${r.name}: ${r.symbol}, ${new Date(run.range.from).toISOString()} to ${new Date(run.range.to).toISOString()}, ${run.events} events, seed ${r.seed}`,
    ...summaryRows(r),
    ...shortRunNote(run.range.to - run.range.from),
    resultsLine(first!),
  ];
  // Each other traded symbol is an account of its own, in its own currency: its results are written and shown apart.
  for (const w of more) lines.push(`${w.results.symbol} (also traded, an account of its own):`, ...summaryRows(w.results), resultsLine(w));
  for (const s of run.unpriced) lines.push(`${s} (also traded): no results, no book or trade of ${s} in the range gave a price to mark its equity at`);
  // Several strategies share the accounts above: each one's own part, as a live run ends.
  if (run.strategies.length > 1) lines.push('per strategy (its own orders and fills, and its PnL from its own book at the last marks; Net PnL above is the account\'s, the starting balances\' move included):', ...formatSummary(run.strategies).map((l) => `  ${l}`));
  lines.push(log.describe());
  stdout.write(`${lines.join('\n')}\n`);
  for (const f of run.failed) stderr.write(`bhtrade backtest: ${failureText(f)}\n`);
  for (const u of run.unservedKlines) stderr.write(`bhtrade backtest: strategy ${u.strategy} asked for ${u.interval} klines of ${u.symbol} and got none: the data held none in the range${run.mode === 'bars' ? ' (bar mode runs on the catalog\'s own klines)' : ''}\n`);
  return run.failed.length > 0 && loaded.config.onStrategyFailure !== 'continue' ? 1 : 0;
}


/** The net position a run left open, in its unit and to its lot's decimals (a spot buy's fee in the base leaves finer digits), with where its value went. */
function endPosition(net: string, unit: string | undefined, decimals: number | undefined): string {
  const n = new Decimal(net);
  if (n.isZero()) return '0 (flat)';
  const rounded = decimals === undefined ? n : n.toDecimalPlaces(decimals);
  // A residue finer than a lot (the fee taken from a spot buy, then the lot sold) still shows: rounded away it would read as flat.
  const shown = rounded.isZero() ? n.toFixed() : rounded.toFixed();
  return `${shown}${unit === undefined ? '' : ` ${unit}`} (open: its unrealized PnL at the last mark is in Net PnL)`;
}

/** Where one traded symbol's results were written. */
function resultsLine(w: WrittenResults): string {
  return `results: ${w.files['report.html']} (and summary.json, orders.csv, fills.csv, equity.csv in ${w.dir})`;
}

/** The printed metrics of one traded symbol's results, and the position it left open. */
function summaryRows(r: BacktestResults): string[] {
  return [
    ...metricRows(r.metrics, r.moneyDecimals, r.currency).map(([k, v]) => `  ${k.padEnd(24)} ${v}`),
    `  ${'Position at end'.padEnd(24)} ${endPosition(r.positions.at(-1)?.position ?? '0', r.positionUnit, r.positionDecimals)}`,
  ];
}

/** A note under the metrics of a run shorter than two days, whose annualised and daily figures say little. */
function shortRunNote(ms: number): string[] {
  if (ms >= 2 * 86_400_000) return [];
  const span = ms < 3_600_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`;
  return [`  (a ${span} run: CAGR and Calmar annualise it; Sharpe and Sortino need daily returns of at least 2 days)`];
}
