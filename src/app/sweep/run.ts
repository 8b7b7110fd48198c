/**
 * A parameter sweep: every combination of the swept values backtested on the same data, in worker
 * threads (one per core by default) or in this process one after another, each written to its own
 * results folder, then ranked into sweep.csv.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Piscina } from 'piscina';
import { readYamlFile } from '../../core/config.ts';
import { ConfigError } from '../../core/errors.ts';
import { loadStrategy, parseParams, type StrategyDefinition } from '../../strategy/index.ts';
import { parseRunConfig } from '../config.ts';
import { withValues } from './apply.ts';
import { combinations, comboLabel, type Combination, type SweepAxis } from './spec.ts';
import { runCombination, type ComboOutcome, type ComboTask } from './task.ts';
import { rankRows, sweepCsv, type RankMetric, type SweepRow } from './table.ts';

export interface SweepOptions {
  readonly configPath: string;
  /** The sweep's folder: sweep.csv and one results folder per combination. */
  readonly out: string;
  /** Worker threads; 0 runs the combinations in this process, one after another. Default: one per core. */
  readonly workers?: number;
  readonly rank: RankMetric;
  readonly data?: string;
  readonly from?: string;
  readonly to?: string;
  /** Called as each combination ends (in the order they end). */
  readonly onDone?: (row: Omit<SweepRow, 'rank'>, done: number, total: number) => void;
}

/** A finished sweep: its rows ranked (failed ones last) and where sweep.csv is. */
export interface SweepResult {
  readonly rows: readonly SweepRow[];
  readonly failed: number;
  readonly csv: string;
  readonly workers: number;
}

/** The worker entry: registers tsx in the thread (module hooks are per thread), then serves runCombination. */
const WORKER = new URL('../../../bin/sweep-worker.mjs', import.meta.url).href;

/**
 * Checks every swept value on its own, then every combination, against the config (its keys and the
 * strategies' params) and returns the combinations; throws ConfigError naming the value (or the
 * combination, when only values together do not fit: fast above slow) before anything runs.
 */
export async function prepareSweep(configPath: string, axes: readonly SweepAxis[], env: NodeJS.ProcessEnv = process.env): Promise<Combination[]> {
  if (axes.length === 0) throw new ConfigError('--sweep', 'nothing to sweep');
  const all = combinations(axes);
  const doc = readYamlFile(configPath);
  const baseDir = dirname(resolve(configPath));
  const defs = new Map<string, StrategyDefinition>();
  const check = async (combo: Combination): Promise<void> => {
    try {
      const config = parseRunConfig(withValues(doc, combo), env);
      for (const [i, s] of config.strategies.entries()) {
        const key = resolve(baseDir, s.use);
        if (!defs.has(key)) defs.set(key, await loadStrategy(s.use, baseDir, `strategies[${i}].use`));
        parseParams(defs.get(key)!, s.params, `strategies[${i}].params`);
      }
    } catch (e) {
      if (e instanceof ConfigError && e.path.startsWith('--sweep')) throw e;
      throw new ConfigError(`--sweep ${comboLabel(combo)}`, (e as Error).message, { cause: e });
    }
  };
  // A key the file leaves out takes a value as YAML reads it: 0.002 a number, where a strategy's amount is a decimal
  // string. Such an axis is set as text when its values fit as text only, as they would written in the file.
  const asText = new Set<string>();
  for (const axis of axes) {
    for (const value of axis.values) {
      const err = await check([{ path: axis.path, value }]).then(() => undefined, (e: unknown) => e);
      if (err === undefined) continue;
      if (!(await check([{ path: axis.path, value, text: true }]).then(() => true, () => false))) throw err;
      asText.add(axis.path);
    }
  }
  const typed = all.map((combo) => combo.map((c) => (asText.has(c.path) ? { ...c, text: true } : c)));
  for (const axis of axes) if (asText.has(axis.path)) for (const value of axis.values) await check([{ path: axis.path, value, text: true }]);
  if (axes.length > 1) for (const combo of typed) await check(combo);
  return typed;
}

/** Returns a combination's folder name: its number, then its values (`03-spreadTicks-6-refreshMs-200`). */
export function comboDir(index: number, total: number, combo: Combination): string {
  const n = String(index + 1).padStart(String(total).length, '0');
  const parts = combo.map((c) => `${c.path.slice(Math.max(c.path.lastIndexOf('.'), c.path.lastIndexOf(']')) + 1)}-${c.value}`);
  return `${n}-${parts.join('-')}`.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** Runs a prepared sweep to the end: a combination that fails is a row with its error, the others go on. */
export async function runSweep(combos: readonly Combination[], o: SweepOptions): Promise<SweepResult> {
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  const tasks: ComboTask[] = combos.map((combo, index) => ({
    index, combo, configPath: resolve(o.configPath), dir: join(out, comboDir(index, combos.length, combo)),
    ...(o.data === undefined ? {} : { data: resolve(o.data) }),
    ...(o.from === undefined ? {} : { from: o.from }),
    ...(o.to === undefined ? {} : { to: o.to }),
  }));
  const workers = Math.min(o.workers ?? availableParallelism(), tasks.length);
  const rows: Omit<SweepRow, 'rank'>[] = [];
  let finished = 0;
  const done = (t: ComboTask, outcome: ComboOutcome): void => {
    const row = { combo: t.combo, dir: t.dir, outcome };
    rows[t.index] = row;
    o.onDone?.(row, ++finished, tasks.length);
  };
  if (workers <= 0) {
    for (const t of tasks) done(t, await runCombination(t));
  } else {
    const pool = new Piscina<ComboTask, ComboOutcome>({ filename: WORKER, minThreads: workers, maxThreads: workers, idleTimeout: 1_000, maxQueue: tasks.length });
    try {
      // A worker that dies (a strategy calling process.exit, out of memory) fails its combination only.
      await Promise.all(tasks.map((t) => pool.run(t).then(
        (outcome) => done(t, outcome),
        (e: unknown) => done(t, { index: t.index, ok: false, error: `worker failed: ${e instanceof Error ? e.message : String(e)}` }),
      )));
    } finally {
      await pool.destroy();
    }
  }
  const ranked = rankRows(rows, o.rank);
  const csv = join(out, 'sweep.csv');
  writeFileSync(csv, sweepCsv(ranked));
  return { rows: ranked, failed: ranked.filter((r) => !r.outcome.ok).length, csv, workers: Math.max(workers, 0) };
}
