/** Writes a run's results into a folder: summary.json, orders.csv, fills.csv, equity.csv and report.html. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { resultFiles, type ResultFiles } from './files.ts';
import { reportHtml } from './html.ts';
import type { BacktestResults } from './results.ts';

/** Returns the default results folder of a run: backtest/results/<config name>-<start time, UTC, to the second>/. */
export function defaultResultsDir(configPath: string, startedAt: Date): string {
  const name = basename(configPath, extname(configPath));
  const stamp = startedAt.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return join('backtest', 'results', `${name}-${stamp}`);
}

/** The files of a run's results folder. */
export type ResultFileName = keyof ResultFiles | 'report.html';

/** Writes the results into `dir` (made when missing); returns the written file paths by name. */
export function writeResults(dir: string, r: BacktestResults): Record<ResultFileName, string> {
  mkdirSync(dir, { recursive: true });
  const files: Record<ResultFileName, string> = { ...resultFiles(r), 'report.html': reportHtml(r) };
  const out = {} as Record<ResultFileName, string>;
  for (const name of Object.keys(files) as ResultFileName[]) {
    const path = join(dir, name);
    writeFileSync(path, files[name]);
    out[name] = path;
  }
  return out;
}
