// A strategy that throws in a backtest is not lost: the command names it, when (simulated) and where, writes what it logged to log.jsonl on simulated time, and exits 1 (0 with onStrategyFailure: continue); a sweep counts that combination as failed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backtestCommand } from '../../../src/cli/backtest.ts';
import { prepareSweep, runSweep } from '../../../src/app/sweep/run.ts';
import { parseSweepArg } from '../../../src/app/sweep/spec.ts';

const SAMPLE = resolve(import.meta.dirname, '../../../backtest/data/binance-samples');
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'bhtrade-backtest-fail-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes a config running the thrower on the sample's BTCUSDT for 20 s; returns its path. */
function config(dir: string, failAt: number, extra = '', badSide = false): string {
  const path = join(dir, 'thrower.yaml');
  writeFileSync(path, [
    'venue: embedded',
    'strategies:',
    `  - { id: boom, use: ${JSON.stringify(resolve(import.meta.dirname, 'throw-strategy.ts'))}, symbols: [BTCUSDT], params: { failAt: ${failAt}, badSide: ${badSide} } }`,
    `backtest: { data: ${JSON.stringify(SAMPLE)}, from: "2024-08-08T23:54:14Z", to: "2024-08-08T23:54:34Z", balances: { BTC: "1", USDT: "1000" } }`,
    extra,
  ].join('\n'));
  return path;
}

/** Runs the command with stdout and stderr captured. */
async function command(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  const code = await backtestCommand(argv);
  vi.restoreAllMocks();
  return { code, out, err };
}

interface Line { level: number; time: number; msg: string; strategy?: string; err?: { message: string } }
const lines = (path: string): Line[] => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);

describe('a strategy that throws in a backtest', () => {
  it('is named with its simulated time and the line that threw, logged to log.jsonl on simulated time, and the command exits 1', async () => {
    const dir = tmp();
    const out = join(dir, 'res');
    const r = await command([config(dir, 3), '--out', out]);
    expect(r.code).toBe(1);
    const logged = lines(join(out, 'log.jsonl'));
    const seen = logged.filter((l) => l.msg === 'trade seen');
    expect(seen).toHaveLength(3);
    const thrown = logged.find((l) => l.level === 50 && l.err?.message === 'planted failure on trade 3');
    expect(thrown?.strategy).toBe('boom');
    // Stamped with the simulated time of the third trade, not the wall clock.
    expect(thrown?.time).toBe(seen[2]!.time);
    expect(thrown!.time).toBeGreaterThanOrEqual(Date.parse('2024-08-08T23:54:14Z'));
    expect(thrown!.time).toBeLessThan(Date.parse('2024-08-08T23:54:34Z'));
    expect(r.err).toContain(`bhtrade backtest: strategy boom threw at ${new Date(thrown!.time).toISOString()} (simulated) and was stopped: planted failure on trade 3`);
    expect(r.err).toMatch(/at .*throw-strategy\.ts:\d+:\d+/);
    expect(r.out).toContain(`log: ${join(out, 'log.jsonl')} (${logged.length} lines: 0 warnings, 1 error)`);
    // The results are still written.
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toHaveProperty('resultHash');
  }, 60_000);

  it('points at the strategy\'s own line when bhtrade refused what it asked (not at bhtrade\'s code that threw)', async () => {
    const dir = tmp();
    const r = await command([config(dir, 2, '', true), '--out', join(dir, 'res')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('and was stopped: side BUY_OPEN does not fit BTCUSDT: use BUY or SELL');
    const at = r.err.split('\n').find((l) => l.trim().startsWith('at '));
    expect(at).toMatch(/throw-strategy\.ts:\d+:\d+/);
  }, 60_000);

  it('exits 0 when the config says onStrategyFailure: continue, and 0 when nothing throws', async () => {
    const dir = tmp();
    const cont = await command([config(dir, 3, 'onStrategyFailure: continue'), '--out', join(dir, 'a')]);
    expect(cont.code).toBe(0);
    expect(cont.err).toContain('strategy boom threw');
    const fine = await command([config(dir, 0), '--out', join(dir, 'b')]);
    expect(fine.code).toBe(0);
    expect(fine.err).not.toContain('threw');
  }, 60_000);

  it('fails its sweep combination, with the error, while the others succeed', async () => {
    const dir = tmp();
    const path = config(dir, 0);
    const combos = await prepareSweep(path, [parseSweepArg('params.failAt=0,2')]);
    const r = await runSweep(combos, { configPath: path, out: join(dir, 'sweep'), rank: 'netPnl', workers: 0 });
    expect(r.failed).toBe(1);
    const bad = r.rows.find((row) => !row.outcome.ok);
    expect(bad?.combo).toEqual([{ path: 'params.failAt', value: '2' }]);
    expect(bad?.outcome.ok === false && bad.outcome.error).toContain('strategy boom threw at');
    expect(lines(join(bad!.dir, 'log.jsonl')).some((l) => l.err?.message === 'planted failure on trade 2')).toBe(true);
  }, 60_000);
});
