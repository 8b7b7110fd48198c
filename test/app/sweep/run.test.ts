// Sweeps run to the end: the same results in worker threads as one after another in-process (byte for byte), a failing combination reported while the others finish, and the command's table, sweep.csv and exit codes through bin/bhtrade.js.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareSweep, runSweep, type SweepResult } from '../../../src/app/sweep/run.ts';
import { parseSweepArg } from '../../../src/app/sweep/spec.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const EXAMPLE = join(ROOT, 'config/backtest.yaml');
// 30 s of the committed sample keeps each run short.
const RANGE = { from: '2024-08-08T23:54:14Z', to: '2024-08-08T23:54:44Z' };
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'bhtrade-sweep-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const FILES = ['summary.json', 'orders.csv', 'fills.csv', 'equity.csv', 'report.html'];

/** Every result file of every combination, by combination folder name and file. */
function filesOf(r: SweepResult): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of r.rows) for (const f of FILES) out.set(`${row.dir.slice(row.dir.lastIndexOf('/') + 1)}/${f}`, readFileSync(join(row.dir, f), 'utf8'));
  return out;
}

describe('sweep runs', () => {
  it('gives byte for byte the serial results on 2 worker threads', async () => {
    const axes = [parseSweepArg('params.spreadTicks=2,6'), parseSweepArg('params.refreshMs=100,300')];
    const combos = await prepareSweep(EXAMPLE, axes);
    const base = tmp();
    const serial = await runSweep(combos, { configPath: EXAMPLE, out: join(base, 's'), rank: 'netPnl', workers: 0, ...RANGE });
    const parallel = await runSweep(combos, { configPath: EXAMPLE, out: join(base, 'p'), rank: 'netPnl', workers: 2, ...RANGE });
    expect(serial.workers).toBe(0);
    expect(parallel.workers).toBe(2);
    expect(serial.failed + parallel.failed).toBe(0);
    const a = filesOf(serial);
    const b = filesOf(parallel);
    expect(a.size).toBe(4 * FILES.length);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, v] of a) expect(b.get(k), k).toBe(v);
    // The combinations differ from each other: the sweep did set the values.
    const fills = [...a].filter(([k]) => k.endsWith('/orders.csv')).map(([, v]) => v);
    expect(new Set(fills).size).toBe(4);
    const summaries = [...a].filter(([k]) => k.endsWith('/summary.json')).map(([, v]) => JSON.parse(v) as { configHash: string });
    expect(new Set(summaries.map((s) => s.configHash)).size).toBe(4);
    expect(readFileSync(serial.csv, 'utf8').replaceAll(join(base, 's'), '')).toBe(readFileSync(parallel.csv, 'utf8').replaceAll(join(base, 'p'), ''));
  });

  it('reports a combination that fails with its error and finishes the others', async () => {
    // The second start is after the data's end: that run fails, the first does not.
    const axes = [parseSweepArg('backtest.from=2024-08-08T23:54:14Z,2030-01-01T00:00:00Z'), parseSweepArg('params.spreadTicks=2,4')];
    const combos = await prepareSweep(EXAMPLE, axes);
    const r = await runSweep(combos, { configPath: EXAMPLE, out: tmp(), rank: 'netPnl', workers: 2, to: RANGE.to });
    expect(r.failed).toBe(2);
    expect(r.rows.slice(0, 2).map((x) => x.rank)).toEqual([1, 2]);
    for (const row of r.rows.slice(2)) {
      expect(row.rank).toBeUndefined();
      expect(row.combo[0]!.value).toBe('2030-01-01T00:00:00Z');
      expect(row.outcome.ok ? '' : row.outcome.error).toMatch(/backtest\.from: 2030-01-01T00:00:00\.000Z is after the end of the data \(the catalog.s BTCUSDT data runs from \S+ to 2024-08-08T23:56:\d\d\.\d{3}Z\)/);
    }
    const csv = readFileSync(r.csv, 'utf8').trim().split('\n');
    expect(csv).toHaveLength(5);
    expect(csv.filter((l) => l.includes(',failed,'))).toHaveLength(2);
  });
});

describe('bhtrade backtest --sweep', () => {
  const bhtrade = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'backtest', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });

  it('prints the ranked table, writes sweep.csv and a results folder per combination, exit 1 when one failed', () => {
    const out = tmp();
    const r = bhtrade(EXAMPLE, '--sweep', 'params.spreadTicks=2,4', '--sweep', 'backtest.to=2024-08-08T23:54:44Z,2020-01-01T00:00:00Z', '--from', RANGE.from, '--workers', '2', '--rank', 'fills', '--out', out);
    expect(r.stderr).toMatch(/sweep 4\/4: /);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    // Each progress line gives the net PnL the table shows for its combination, rounded and with its currency.
    const pnl = lines[1]!.split(/\s{2,}/)[4]!;
    expect(pnl).toMatch(/^-?\d+\.\d{4} USDT$/);
    expect(r.stderr).toContain(`params.spreadTicks=${lines[1]!.split(/\s+/)[1]} backtest.to=2024-08-08T23:54:44Z: net PnL ${pnl}\n`);
    expect(lines[0]).toMatch(/^rank\s+params\.spreadTicks\s+backtest\.to\s+Fills \(maker \/ taker\) ▼\s+Net PnL/);
    expect(lines[1]).toMatch(/^1\s+[24]\s+2024-08-08T23:54:44Z\s+\d+ \(/);
    expect(lines[3]).toMatch(/^-\s+2\s+2020-01-01T00:00:00Z\s+failed: backtest\.to: 2020-01-01T00:00:00\.000Z is not after the start of the data/);
    expect(lines.at(-1)).toMatch(/^4 combinations on 2 worker threads in [\d.]+ s, ranked by fills; 2 failed; table: .*sweep\.csv$/);
    expect(existsSync(join(out, 'sweep.csv'))).toBe(true);
    const folders = readdirSync(out).filter((f) => f !== 'sweep.csv').sort();
    // A failed combination has no results folder.
    expect(folders).toEqual(['1-spreadTicks-2-to-2024-08-08T23_54_44Z', '3-spreadTicks-4-to-2024-08-08T23_54_44Z']);
    for (const f of FILES) expect(existsSync(join(out, folders[0]!, f)), f).toBe(true);
  });

  it('exits 2 naming a bad path, value or option before running anything', () => {
    const out = join(tmp(), 'never');
    for (const [args, message] of [
      [['--sweep', 'params.spreadTiks=4'], /--sweep params\.spreadTiks=4: strategies\[0\]\.params\.spreadTiks: unknown key/],
      [['--sweep', 'params.spreadTicks=4..2:1'], /--sweep params\.spreadTicks: a range goes up/],
      [['--sweep', 'params.spreadTicks=4', '--rank', 'luck'], /--rank: unknown metric "luck"/],
      [['--sweep', 'params.spreadTicks=4', '--workers', 'two'], /--workers: must be a whole number/],
      [['--rank', 'fills'], /--workers and --rank go with --sweep/],
      // A flag that sets the range or catalog of every combination would make a swept key of the same meaning do nothing.
      [['--sweep', 'backtest.from=2024-08-08T23:54:20Z,2024-08-08T23:54:30Z', '--from', RANGE.from], /--sweep backtest\.from: --from 2024-08-08T23:54:14Z sets it for every combination, so the swept values would be ignored/],
      [['--sweep', 'backtest.data=../backtest/data/binance-samples', '--data', 'backtest/data/binance-samples'], /--sweep backtest\.data: --data backtest\/data\/binance-samples sets it for every combination/],
      [['--sweep', 'backtest.data=../backtest/data/binance-samples,/nowhere'], /--sweep backtest\.data=\/nowhere: \/nowhere: no such folder/],
    ] as const) {
      const r = bhtrade(EXAMPLE, ...args, '--out', out);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 naming --out when a file stands where its folder would go, for a sweep and a single backtest, instead of a stack trace or a bare EEXIST', () => {
    const dir = tmp();
    const file = join(dir, 'taken');
    writeFileSync(file, 'not a folder\n');
    const sweep = bhtrade(EXAMPLE, '--sweep', 'params.spreadTicks=2', '--workers', '0', '--out', file);
    expect({ status: sweep.status, stderr: sweep.stderr }).toEqual({ status: 2, stderr: `bhtrade backtest: --out ${file}: is a file, not a folder\n` });
    const single = bhtrade(EXAMPLE, '--out', join(file, 'run'));
    expect({ status: single.status, stderr: single.stderr }).toEqual({ status: 2, stderr: `bhtrade backtest: --out ${join(file, 'run')}: ${file} is a file, not a folder\n` });
  });

  it('exits 2 before running anything when the config\'s backtest.data is no catalog, as a single backtest does', () => {
    const dir = tmp();
    const config = join(dir, 'bad-data.yaml');
    writeFileSync(config, readFileSync(EXAMPLE, 'utf8').replace('use: ../strategies/', `use: ${ROOT}/strategies/`).replace('data: ../backtest/data/binance-samples', 'data: ./no-catalog'));
    const out = join(dir, 'never');
    const r = bhtrade(config, '--sweep', 'params.spreadTicks=2,4', '--workers', '0', '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`bhtrade backtest: ${config}: backtest.data: ${join(dir, 'no-catalog')}: no such folder\n`);
    expect(existsSync(out)).toBe(false);
  });
});
