/**
 * The lookahead check: the backtest run once in full, then again with the data cut just after each of
 * N of its decision points (moments a strategy emitted order intents), comparing what the strategies
 * emitted up to that moment. Without lookahead the two agree: nothing after the cut could have
 * mattered. A difference names the first emission that differs and the handler it came from.
 */
import { BhError, ConfigError } from '../../core/errors.ts';
import { runBacktest, type BacktestOptions, type StrategyFailure } from '../backtest.ts';
import type { LoadedConfig } from '../config.ts';
import { EmissionLog, type Emission } from './emissions.ts';

export interface LookaheadOptions extends Pick<BacktestOptions, 'configPath' | 'data' | 'from' | 'to' | 'log'> {
  /** Decision points re-run with the data cut after them (default 10), spread over the run. */
  readonly points?: number;
  /** Order API calls kept from a run (default MAX_EMISSIONS); a run that makes more is refused: check a shorter range. */
  readonly maxEmissions?: number;
  /** Called before each cut run: its number (from 1), how many, and the cut time (ms). */
  readonly onPoint?: (k: number, n: number, time: number) => void;
}

/** A decision point whose emissions differ when the data ends just after it. */
export interface LookaheadFinding {
  /** The decision point (ms): the data of the cut run ends 1 ms after it. */
  readonly point: number;
  /** The first emission that differs, as the full run made it and as the cut run did (undefined: that run made none there). */
  readonly full?: Emission;
  readonly cut?: Emission;
  /** The handler of the differing emission (the full run's, else the cut run's). */
  readonly handler: string;
  readonly strategy: string;
}

/** What the check found. */
export interface LookaheadReport {
  readonly range: { readonly from: number; readonly to: number };
  /** Order API calls of the full run that are compared (all but those its strategies' `stop` made), and the distinct times they were made at. */
  readonly emissions: number;
  readonly decisions: number;
  /** Order API calls the strategies' `stop` made at the data's end: not compared. */
  readonly atStop: number;
  /** Strategies that threw in the full run and were stopped (their decisions after it were never made, so never checked). */
  readonly failed: readonly StrategyFailure[];
  /** The decision points re-run, in time order. */
  readonly points: readonly number[];
  readonly findings: readonly LookaheadFinding[];
}

/** Default number of decision points. */
export const DEFAULT_POINTS = 10;

/** Runs the check; throws ConfigError (exit 2) for a bad setting, as the backtest does. */
export async function runLookahead(loaded: LoadedConfig, o: LookaheadOptions = {}): Promise<LookaheadReport> {
  const n = o.points ?? DEFAULT_POINTS;
  if (!Number.isInteger(n) || n < 1) throw new ConfigError('--points', `must be a whole number above 0, got ${n}`);
  const base: BacktestOptions = {
    ...(o.configPath === undefined ? {} : { configPath: o.configPath }),
    ...(o.data === undefined ? {} : { data: o.data }),
    ...(o.log === undefined ? {} : { log: o.log }),
  };
  const full = new EmissionLog(o.maxEmissions);
  const run = await runBacktest(loaded, { ...base, ...(o.from === undefined ? {} : { from: o.from }), ...(o.to === undefined ? {} : { to: o.to }), wrapStrategy: full.wrap });
  if (full.dropped > 0) {
    throw new BhError('LOOKAHEAD_TOO_LONG', `the strategies made ${full.emissions.length + full.dropped} order calls, more than the ${full.emissions.length} the check keeps: check a shorter range (--from, --to)`, 'definite');
  }
  const decisive = full.emissions.filter(counts);
  const times = [...new Set(decisive.map((e) => e.time))];
  const points = spread(times, n);
  const findings: LookaheadFinding[] = [];
  for (const [k, point] of points.entries()) {
    o.onPoint?.(k + 1, points.length, point);
    const cut = new EmissionLog(o.maxEmissions);
    await runBacktest(loaded, { ...base, from: String(run.range.from), to: String(point + 1), timeToEnd: true, wrapStrategy: cut.wrap });
    const a = decisive.filter((e) => e.time <= point);
    const b = cut.emissions.filter((e) => counts(e) && e.time <= point);
    const i = firstDifference(a, b);
    if (i === undefined) continue;
    const differing = a[i] ?? b[i]!;
    findings.push({ point, ...(a[i] === undefined ? {} : { full: a[i] }), ...(b[i] === undefined ? {} : { cut: b[i] }), handler: differing.handler, strategy: differing.strategy });
  }
  return { range: run.range, emissions: decisive.length, decisions: times.length, atStop: full.emissions.length - decisive.length, failed: run.failed, points, findings };
}

// A strategy's `stop` runs when the data ends: in a cut run that is at the cut, so what it emits is no decision on the data.
function counts(e: Emission): boolean {
  return e.handler !== 'stop';
}

/** Returns `n` of the times spread evenly over them (all when there are no more than `n`). */
function spread(times: readonly number[], n: number): number[] {
  if (times.length <= n) return [...times];
  return Array.from({ length: n }, (_, k) => times[Math.floor(((k + 0.5) * times.length) / n)]!);
}

function firstDifference(a: readonly Emission[], b: readonly Emission[]): number | undefined {
  const same = (x: Emission, y: Emission): boolean => x.time === y.time && x.strategy === y.strategy && x.handler === y.handler && x.call === y.call;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === undefined || b[i] === undefined || !same(a[i]!, b[i]!)) return i;
  }
  return undefined;
}
