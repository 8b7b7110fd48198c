/** `bhtrade lookahead CONFIG [--points N]`: re-runs a config's backtest with the data cut just after N of its decision points and reports any emission that changes (lookahead). */
import { stderr, stdout } from 'node:process';
import { BhError } from '../core/errors.ts';
import { failureText } from '../app/backtest.ts';
import { DEFAULT_POINTS, runLookahead, type LookaheadFinding, type LookaheadReport } from '../app/lookahead/run.ts';
import { argsAndConfig, checkCatalog, configAndOptions, timeOption } from './load-config.ts';

const USAGE = 'Usage: npx bhtrade lookahead CONFIG [--points N] [--data CATALOG] [--from T] [--to T]\n';

/** `npx bhtrade lookahead --help`. */
export const LOOKAHEAD_HELP = `${USAGE}
Checks a config's strategies for lookahead: backtests CONFIG once, picks N moments its strategies
emitted orders (spread over the run), and re-runs the backtest with the data ending just after each.
A strategy that decides only on what it has seen emits the same orders up to that moment; a
difference is lookahead, reported with the handler it came from (onDepthUpdate, onTrade, onTimer...).
Runs in this process, one run after another (docs/backtest.md).

Options:
  --points N      decision points to re-run (default ${DEFAULT_POINTS})
  --data CATALOG  the catalog folder (default: backtest.data of CONFIG, else the sample that ships with bhtrade)
  --from T        first local time replayed: ISO or epoch ms
  --to T          end of the full run, exclusive
  -h, --help      show this help

Exit codes: 0 no lookahead found, 1 lookahead found, a run failed or a strategy threw (unless the config says
onStrategyFailure: continue), 2 for bad usage or a bad config.
`;

interface LookaheadArgs {
  readonly config: string;
  readonly points?: number;
  readonly data?: string;
  readonly from?: string;
  readonly to?: string;
}

/** Returns the parsed arguments; throws a message naming the bad one. */
export function parseLookaheadArgs(argv: readonly string[]): LookaheadArgs {
  const { config, values } = configAndOptions(argv, ['--points', '--data', '--from', '--to'] as const);
  const opts: { points?: number; data?: string; from?: string; to?: string } = {};
  const points = values.get('--points')?.at(-1);
  if (points !== undefined) {
    if (!/^\d+$/.test(points) || Number(points) < 1 || Number(points) > 1000) throw new Error(`--points must be a whole number from 1 to 1000, got ${JSON.stringify(points)}`);
    opts.points = Number(points);
  }
  const data = values.get('--data')?.at(-1);
  if (data !== undefined) opts.data = data;
  for (const name of ['--from', '--to'] as const) {
    const v = values.get(name)?.at(-1);
    if (v !== undefined) opts[name === '--from' ? 'from' : 'to'] = timeOption(name, v);
  }
  return { config, ...opts };
}

/** Runs the check; returns the exit code. */
export async function lookaheadCommand(argv: readonly string[]): Promise<number> {
  const start = argsAndConfig('lookahead', argv, parseLookaheadArgs, USAGE);
  if (start === 2) return 2;
  const { args, loaded } = start;
  if (checkCatalog('lookahead', loaded, args.data, args.config) === 2) return 2;
  let report: LookaheadReport;
  try {
    report = await runLookahead(loaded, {
      configPath: args.config,
      ...(args.points === undefined ? {} : { points: args.points }),
      ...(args.data === undefined ? {} : { data: args.data }),
      ...(args.from === undefined ? {} : { from: args.from }),
      ...(args.to === undefined ? {} : { to: args.to }),
      onPoint: (k, n, t) => stderr.write(`lookahead: run ${k}/${n}, data cut after ${iso(t)}\n`),
    });
  } catch (e) {
    const config = e instanceof BhError && e.retry === 'config';
    stderr.write(`bhtrade lookahead: ${config ? `${args.config}: ` : ''}${(e as Error).message}\n`);
    return config ? 2 : 1;
  }
  stdout.write(`${reportLines(report).join('\n')}\n`);
  // A strategy that threw was stopped: the check covered its decisions up to there only, and the run failed, as in bhtrade backtest.
  for (const f of report.failed) stderr.write(`bhtrade lookahead: in the full run, ${failureText(f)}\n`);
  const failed = report.failed.length > 0 && loaded.config.onStrategyFailure !== 'continue';
  return report.findings.length > 0 || failed ? 1 : 0;
}

/** Returns the report as printed lines. */
export function reportLines(r: LookaheadReport): string[] {
  const found = new Map(r.findings.map((f) => [f.point, f]));
  const lines = [
    `full run ${iso(r.range.from)} to ${iso(r.range.to)}: ${r.emissions} order calls at ${r.decisions} decision points${r.atStop > 0 ? ` (and ${r.atStop} from stop at the end, not compared)` : ''}; ${r.points.length} re-run with the data cut 1 ms after them`,
    ...r.points.map((p, i) => `  ${String(i + 1).padStart(String(r.points.length).length)}. ${iso(p)}  ${found.has(p) ? findingText(found.get(p)!) : 'same orders'}`),
  ];
  if (r.points.length === 0) lines.push(`no strategy emitted an order${r.atStop > 0 ? ' before its stop' : ''}: nothing to check`);
  else if (r.findings.length === 0) lines.push(`no lookahead: the orders up to each of the ${r.points.length} points are the same without the data after it`);
  else lines.push(`LOOKAHEAD at ${r.findings.length} of ${r.points.length} points, in ${[...new Set(r.findings.map((f) => `${f.strategy}.${f.handler}`))].join(', ')}`);
  return lines;
}

function findingText(f: LookaheadFinding): string {
  const at = (f.full ?? f.cut)!.time;
  return `LOOKAHEAD: ${f.strategy}.${f.handler} at ${iso(at)} emitted ${f.full?.call ?? 'nothing'} in the full run, ${f.cut?.call ?? 'nothing'} without the data after the point`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
