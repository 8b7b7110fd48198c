// A sweep of 16 combinations (the market maker's spreadTicks × refreshMs on the committed Binance sample, config/backtest.yaml) on 2 worker threads, beside the same 16 run one after another in this process, in the same run; the two must give the same results.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareSweep, runSweep, type SweepResult } from '../src/app/sweep/run.ts';
import { parseSweepArg } from '../src/app/sweep/spec.ts';

const CONFIG = resolve(import.meta.dirname, '../config/backtest.yaml');
const AXES = ['params.spreadTicks=2,4,6,8', 'params.refreshMs=100..400:100'].map(parseSweepArg);
/** Worker threads of the parallel sweep: 2 by default; BENCH_SWEEP_WORKERS sets another count. */
const WORKERS = Number(process.env['BENCH_SWEEP_WORKERS'] ?? 2);

function load(): string {
  return loadavg().map((x) => x.toFixed(1)).join(' ');
}

/** Returns the summary.json and fills.csv texts of every combination, in combination order. */
function outputs(r: SweepResult): string[] {
  return [...r.rows].sort((a, b) => a.outcome.index - b.outcome.index)
    .flatMap((row) => ['summary.json', 'fills.csv', 'orders.csv'].map((f) => readFileSync(join(row.dir, f), 'utf8')));
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-sweep-bench-'));
  try {
    const combos = await prepareSweep(CONFIG, AXES);
    const timed = async (workers: number, out: string): Promise<[SweepResult, number]> => {
      const t0 = process.hrtime.bigint();
      const r = await runSweep(combos, { configPath: CONFIG, axes: AXES, out: join(dir, out), rank: 'netPnl', workers });
      return [r, Number(process.hrtime.bigint() - t0) / 1e9];
    };
    console.log(`sweep: ${combos.length} combinations of ${CONFIG}; load average ${load()} (1, 5, 15 min)`);
    const [serial, sSecs] = await timed(0, 'serial');
    console.log(`sweep: serial (in this process, one after another) ${sSecs.toFixed(1)} s, ${serial.failed} failed; load average ${load()}`);
    const [parallel, pSecs] = await timed(WORKERS, 'parallel');
    console.log(`sweep: ${WORKERS} worker threads ${pSecs.toFixed(1)} s, ${parallel.failed} failed; load average ${load()}`);
    const a = outputs(serial);
    const b = outputs(parallel);
    const same = a.length === b.length && a.every((x, i) => x === b[i]);
    console.log(`sweep: parallel results ${same ? 'equal' : 'DIFFER FROM'} the serial ones (summary.json, orders.csv, fills.csv of each combination)`);
    console.log(`bench sweep: ${pSecs.toFixed(1)} s vs serial ${sSecs.toFixed(1)} s, ratio ${(pSecs / sSecs).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
