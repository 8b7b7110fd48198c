// A sweep of 16 combinations (the market maker's spreadTicks × refreshMs of config/backtest.yaml on the committed Binance sample) on 2 worker threads, beside the same 16 run one after another in this process, in the same run; the two must give the same results.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { readYamlFile } from '../src/core/config.ts';
import { prepareSweep, runSweep, type SweepResult } from '../src/app/sweep/run.ts';
import { parseSweepArg } from '../src/app/sweep/spec.ts';

const EXAMPLE = resolve(import.meta.dirname, '../config/backtest.yaml');
/**
 * Symbols each run replays (it trades BTCUSDT): all three of the sample by default, so that a run
 * (about 240 000 recorded rows, a few seconds) is long beside a worker's start-up, as real sweeps
 * are; BENCH_SWEEP_SYMBOLS=BTCUSDT runs config/backtest.yaml as it is (40 000 rows, about 0.5 s).
 */
const SYMBOLS = (process.env['BENCH_SWEEP_SYMBOLS'] ?? 'BTCUSDT,BTCUSDT-PERP,BTCUSD-PERP').split(',');
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
    // The example with its paths made absolute and the replayed symbols set, written beside the results.
    const doc = readYamlFile(EXAMPLE) as { strategies: { use: string }[]; backtest: { data: string; symbols?: string[] } };
    for (const s of doc.strategies) s.use = resolve(dirname(EXAMPLE), s.use);
    doc.backtest.data = resolve(dirname(EXAMPLE), doc.backtest.data);
    doc.backtest.symbols = SYMBOLS;
    const CONFIG = join(dir, 'backtest.yaml');
    writeFileSync(CONFIG, stringify(doc));
    const combos = await prepareSweep(CONFIG, AXES);
    // Wall time, and the CPU time of the whole process (its worker threads included): on a loaded machine the two part.
    const timed = async (workers: number, out: string): Promise<[SweepResult, number, number]> => {
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      const r = await runSweep(combos, { configPath: CONFIG, out: join(dir, out), rank: 'netPnl', workers });
      const c = process.cpuUsage(c0);
      return [r, Number(process.hrtime.bigint() - t0) / 1e9, (c.user + c.system) / 1e6];
    };
    console.log(`sweep: ${combos.length} combinations of config/backtest.yaml (${AXES.map((a) => `${a.path} ${a.values.join(',')}`).join(' × ')}), replaying ${SYMBOLS.join(', ')}; load average ${load()} (1, 5, 15 min)`);
    const [serial, sSecs, sCpu] = await timed(0, 'serial');
    console.log(`sweep: serial (in this process, one after another) ${sSecs.toFixed(1)} s (CPU ${sCpu.toFixed(1)} s), ${serial.failed} failed; load average ${load()}`);
    const [parallel, pSecs, pCpu] = await timed(WORKERS, 'parallel');
    console.log(`sweep: ${WORKERS} worker threads ${pSecs.toFixed(1)} s (CPU ${pCpu.toFixed(1)} s), ${parallel.failed} failed; load average ${load()}`);
    const a = outputs(serial);
    const b = outputs(parallel);
    const same = a.length === b.length && a.every((x, i) => x === b[i]);
    console.log(`sweep: parallel results ${same ? 'equal' : 'DIFFER FROM'} the serial ones (summary.json, orders.csv, fills.csv of each combination)`);
    console.log(`bench sweep: ${pSecs.toFixed(1)} s vs serial ${sSecs.toFixed(1)} s, ratio ${(pSecs / sSecs).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
