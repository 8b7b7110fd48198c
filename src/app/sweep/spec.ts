/** `--sweep PATH=VALUES` texts: a config key and its values (a list `4,6,8` or a range `100..500:100`), and their cartesian combinations. */
import { ConfigError } from '../../core/errors.ts';
import { Decimal } from '../../core/fixed.ts';

/** One swept key: its path as written and the value texts it takes, in order. */
export interface SweepAxis {
  readonly path: string;
  readonly values: readonly string[];
}

/** One value per axis, in axis order; `text` when it is set as a string whatever YAML would read it as (a decimal a strategy takes as text). */
export type Combination = readonly { readonly path: string; readonly value: string; readonly text?: boolean }[];

/** Most combinations one sweep may have: a typo in a range (a step of 0.0001) should not start a million runs. */
export const MAX_COMBINATIONS = 10_000;

const PATH_RE = /^[A-Za-z0-9_$-]+(?:\[\d+\]|\.[A-Za-z0-9_$-]+)*$/;
const RANGE_RE = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/;
/** Two numbers with `..` between and no valid step: a range whose step was left out (or is not a number). */
const NO_STEP_RE = /^-?\d+(\.\d+)?\.\.-?\d+(\.\d+)?(:.*)?$/;

/** Returns the axis of one `--sweep` text; throws ConfigError (path `--sweep`) naming what is wrong. */
export function parseSweepArg(text: string): SweepAxis {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new ConfigError('--sweep', `must be PATH=VALUES (e.g. params.spreadTicks=4,6,8 or params.refreshMs=100..500:100), got ${JSON.stringify(text)}`);
  const path = text.slice(0, eq).trim();
  const spec = text.slice(eq + 1).trim();
  if (!PATH_RE.test(path)) throw new ConfigError(`--sweep ${path}`, 'a path is config keys joined by dots (strategies.0.params.spreadTicks, or params.spreadTicks with one strategy)');
  const range = RANGE_RE.exec(spec);
  if (range === null && NO_STEP_RE.test(spec)) throw new ConfigError(`--sweep ${path}`, `a range is FROM..TO:STEP with a number above 0 for STEP (e.g. 100..500:100), got ${JSON.stringify(spec)}`);
  return { path, values: range !== null ? rangeValues(path, range[1]!, range[2]!, range[3]!) : listValues(path, spec) };
}

function listValues(path: string, spec: string): string[] {
  const values = spec.split(',').map((v) => v.trim());
  if (spec === '' || values.some((v) => v === '')) throw new ConfigError(`--sweep ${path}`, `needs values: a list a,b,c or a range FROM..TO:STEP, got ${JSON.stringify(spec)}`);
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw new ConfigError(`--sweep ${path}`, `value ${v} is listed twice`);
    seen.add(v);
  }
  return values;
}

// Exact decimal steps: 0.1..0.3:0.1 gives 0.1, 0.2, 0.3 (binary floating point would miss 0.3).
function rangeValues(path: string, from: string, to: string, step: string): string[] {
  const a = new Decimal(from);
  const b = new Decimal(to);
  const s = new Decimal(step);
  if (s.lte(0)) throw new ConfigError(`--sweep ${path}`, `a range's step must be above 0, got ${step}`);
  if (b.lt(a)) throw new ConfigError(`--sweep ${path}`, `a range goes up: ${to} is below ${from}`);
  const n = b.minus(a).div(s).floor().plus(1);
  if (n.gt(MAX_COMBINATIONS)) throw new ConfigError(`--sweep ${path}`, `the range ${from}..${to}:${step} has ${n.toFixed()} values, more than ${MAX_COMBINATIONS}`);
  const out: string[] = [];
  for (let v = a; v.lte(b); v = v.plus(s)) out.push(v.toFixed());
  return out;
}

/** Returns every combination of the axes, the first axis varying slowest; throws when two axes name one key or there are too many. */
export function combinations(axes: readonly SweepAxis[]): Combination[] {
  const paths = new Set<string>();
  for (const a of axes) {
    if (paths.has(a.path)) throw new ConfigError(`--sweep ${a.path}`, 'is swept twice: give all its values in one --sweep');
    paths.add(a.path);
  }
  const total = axes.reduce((n, a) => n * a.values.length, 1);
  if (total > MAX_COMBINATIONS) throw new ConfigError('--sweep', `${total} combinations, more than ${MAX_COMBINATIONS}`);
  let out: Combination[] = [[]];
  for (const a of axes) out = out.flatMap((c) => a.values.map((value) => [...c, { path: a.path, value }]));
  return out;
}

/** Returns a combination as `a=1 b=2`, for tables and messages. */
export function comboLabel(c: Combination): string {
  return c.map((x) => `${x.path}=${x.value}`).join(' ');
}
