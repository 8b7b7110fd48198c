// A sweep of 16 combinations (the market maker's spreadTicks × refreshMs of config/backtest.yaml) on 2 worker threads, beside the same 16 run one after another in this process, in the same run; the two must give the same results.
// The serial run is timed in two halves, one before and one after the parallel run: the machine's speed drifts within minutes, and this way a drift weighs on both sides alike.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { readYamlFile } from '../src/core/config.ts';
import { prepareSweep, runSweep, type SweepResult } from '../src/app/sweep/run.ts';
import { parseSweepArg } from '../src/app/sweep/spec.ts';
import { generate } from './replay-catalog.ts';

const EXAMPLE = resolve(import.meta.dirname, '../config/backtest.yaml');
/**
 * The data all combinations run on: by default a seeded catalog of BENCH_SWEEP_EVENTS (4 M) BTCUSDT
 * level changes and trades with the real sample's shape (about 2.4 hours of the market), so that a run
 * (10 to 15 s) is long beside what each thread pays once (its start-up and its JIT's warm-up, 10 to 15 s
 * of CPU), as in real sweeps; BENCH_SWEEP_EVENTS=1000000 shows how much that once-per-thread cost weighs
 * on runs of 2 to 4 s, and BENCH_SWEEP_EVENTS=sample runs config/backtest.yaml on the committed 2-minute
 * sample as it is (about 0.5 s a run).
 */
const EVENTS = process.env['BENCH_SWEEP_EVENTS'] ?? '4000000';
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
    // The example with its paths made absolute (and its data the generated catalog), written beside the results.
    const doc = readYamlFile(EXAMPLE) as { strategies: { use: string }[]; backtest: { data: string; symbols?: string[] } };
    for (const s of doc.strategies) s.use = resolve(dirname(EXAMPLE), s.use);
    doc.backtest.data = resolve(dirname(EXAMPLE), doc.backtest.data);
    let data = 'the committed sample';
    if (EVENTS !== 'sample') {
      const catalog = join(dir, 'catalog');
      const n = generate(catalog, Number(EVENTS));
      doc.backtest.data = catalog;
      data = `a seeded catalog of ${n.toLocaleString('en-US')} BTCUSDT events`;
    }
    const CONFIG = join(dir, 'backtest.yaml');
    writeFileSync(CONFIG, stringify(doc));
    const combos = await prepareSweep(CONFIG, AXES);
    // Wall time, and the CPU time of the whole process (its worker threads included): on a loaded machine the two part.
    const timed = async (list: typeof combos, workers: number, out: string): Promise<[SweepResult, number, number]> => {
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      const r = await runSweep(list, { configPath: CONFIG, out: join(dir, out), rank: 'netPnl', workers });
      const c = process.cpuUsage(c0);
      return [r, Number(process.hrtime.bigint() - t0) / 1e9, (c.user + c.system) / 1e6];
    };
    console.log(`sweep: ${combos.length} combinations of config/backtest.yaml (${AXES.map((a) => `${a.path} ${a.values.join(',')}`).join(' × ')}), on ${data}; load average ${load()} (1, 5, 15 min)`);
    const half = Math.ceil(combos.length / 2);
    const [serialA, aSecs, aCpu] = await timed(combos.slice(0, half), 0, 'serial-a');
    console.log(`sweep: serial, first ${half} (in this process, one after another) ${aSecs.toFixed(1)} s (CPU ${aCpu.toFixed(1)} s), ${serialA.failed} failed; load average ${load()}`);
    const [parallel, pSecs, pCpu] = await timed(combos, WORKERS, 'parallel');
    console.log(`sweep: ${WORKERS} worker threads, all ${combos.length}: ${pSecs.toFixed(1)} s (CPU ${pCpu.toFixed(1)} s), ${parallel.failed} failed; load average ${load()}`);
    const [serialB, bSecs, bCpu] = await timed(combos.slice(half), 0, 'serial-b');
    console.log(`sweep: serial, last ${combos.length - half} ${bSecs.toFixed(1)} s (CPU ${bCpu.toFixed(1)} s), ${serialB.failed} failed; load average ${load()}`);
    const sSecs = aSecs + bSecs;
    console.log(`sweep: serial, all ${combos.length}: ${sSecs.toFixed(1)} s (CPU ${(aCpu + bCpu).toFixed(1)} s)`);
    const a = [...outputs(serialA), ...outputs(serialB)];
    const b = outputs(parallel);
    const same = a.length === b.length && a.every((x, i) => x === b[i]);
    console.log(`sweep: parallel results ${same ? 'equal' : 'DIFFER FROM'} the serial ones (summary.json, orders.csv, fills.csv of each combination)`);
    console.log(`bench sweep: ${pSecs.toFixed(1)} s vs serial ${sSecs.toFixed(1)} s, ratio ${(pSecs / sSecs).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
