/** One combination of a sweep: the config with its values set, backtested and written to its own results folder. The same code runs in a worker thread and in-process. */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readYamlFile } from '../../core/config.ts';
import { stableJson } from '../../backtest/report/hash.ts';
import type { Metrics } from '../../backtest/index.ts';
import { failureText, runBacktest, writeRun } from '../backtest.ts';
import { RunLog } from '../run-log.ts';
import { parseRunConfig, type LoadedConfig } from '../config.ts';
import { withValues } from './apply.ts';
import type { Combination } from './spec.ts';

/** What a worker is handed: plain data, cloned across the thread boundary. */
export interface ComboTask {
  readonly index: number;
  readonly configPath: string;
  readonly combo: Combination;
  /** The combination's results folder. */
  readonly dir: string;
  readonly data?: string;
  readonly from?: string;
  readonly to?: string;
}

/** A combination's outcome: its metrics and result hash, or the error that ended it. */
export type ComboOutcome =
  | {
    readonly index: number; readonly ok: true; readonly metrics: Metrics; readonly resultHash: string; readonly events: number; readonly moneyDecimals: number; readonly currency: string;
    /** The traded symbol the metrics are of (the first by name), and the others with results, which are only in the combination's folder. */
    readonly symbol: string; readonly others: readonly string[];
  }
  | { readonly index: number; readonly ok: false; readonly error: string };

/** Returns the config file with the combination's values set, validated; throws ConfigError naming the bad key. */
export function loadCombination(configPath: string, combo: Combination, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  return { config: parseRunConfig(withValues(readYamlFile(configPath), combo), env), baseDir: dirname(resolve(configPath)) };
}

/** Runs one combination; never throws: a failure is its outcome. */
export async function runCombination(t: ComboTask): Promise<ComboOutcome> {
  const log = new RunLog(join(t.dir, 'log.jsonl'));
  try {
    const loaded = loadCombination(t.configPath, t.combo);
    const run = await runBacktest(loaded, {
      configPath: t.configPath,
      logTo: log,
      // The swept values are part of the config: without them every combination's file would hash the same.
      hashWith: stableJson(t.combo),
      ...(t.data === undefined ? {} : { data: t.data }),
      ...(t.from === undefined ? {} : { from: t.from }),
      ...(t.to === undefined ? {} : { to: t.to }),
    });
    const results = run.results;
    const written = writeRun(t.dir, run)[0]!.files;
    const summary = JSON.parse(readFileSync(written['summary.json'], 'utf8')) as { resultHash: string };
    if (run.failed.length > 0 && loaded.config.onStrategyFailure !== 'continue') return { index: t.index, ok: false, error: run.failed.map(failureText).join('; ') };
    return {
      index: t.index, ok: true, metrics: results.metrics, resultHash: summary.resultHash, events: run.events, moneyDecimals: results.moneyDecimals, currency: results.currency,
      symbol: results.symbol, others: run.others.map((r) => r.symbol),
    };
  } catch (e) {
    return { index: t.index, ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    log.close();
  }
}

export default runCombination;
