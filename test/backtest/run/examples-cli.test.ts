// `npx bhtrade backtest` on the committed contract and bar-mode examples: the command runs them from a fresh clone, writes the results and prints the summary in the account's currency; a bad mode exits 2 naming the key.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backtestCommand } from '../../../src/cli/backtest.ts';

const CONFIG = resolve(import.meta.dirname, '../../../config');
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'bhtrade-examples-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the command with stdout and stderr captured; returns its exit code and what it printed. */
async function command(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => out.push(String(s)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => err.push(String(s)) > 0);
  const code = await backtestCommand(args);
  vi.restoreAllMocks();
  return { code, out: out.join(''), err: err.join('') };
}

describe('bhtrade backtest examples', () => {
  it('config/backtest-perp.yaml: the trend follower on the real inverse perpetual, equity and fees in BTC', async () => {
    const dir = join(tmp(), 'perp');
    const r = await command([join(CONFIG, 'backtest-perp.yaml'), '--out', dir]);
    expect(r.code).toBe(0);
    for (const f of ['summary.json', 'orders.csv', 'fills.csv', 'equity.csv', 'report.html']) expect(existsSync(join(dir, f)), f).toBe(true);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { symbol: string; currency: string; metrics: { fees: string; fundingPaid: string } };
    expect([summary.symbol, summary.currency]).toEqual(['BTCUSD-PERP', 'BTC']);
    expect(r.out).toContain('backtest-perp: BTCUSD-PERP');
    expect(r.out).toMatch(/Fees +0\.000\d+ BTC/);
    // The trend follower ends short: the summary says so, and that its value is in the net PnL.
    expect(r.out).toContain('Position at end          -50 contracts (open: its unrealized PnL at the last mark is in Net PnL)');
    expect((summary as unknown as { endPosition: string }).endPosition).toBe('-50');
    // Each contract order says how its price was given and the leverage it asked (the trend follower: IOC limits at 10×).
    const orders = readFileSync(join(dir, 'orders.csv'), 'utf8').trim().split('\n');
    expect(orders[0]).toBe('time,clientOrderId,orderId,side,type,timeInForce,price,qty,status,executedQty,updateTime,priceType,triggerPrice,leverage');
    expect(orders.length).toBeGreaterThan(1);
    for (const line of orders.slice(1)) expect(line).toMatch(/,LIMIT,IOC,\d+(\.\d)?,50,\w+,\d+,\d+,INPUT,,10$/);
    // 2 minutes hold no 8-hour boundary: no funding.
    expect(r.out).toContain('Funding paid / received  0.00000000 BTC / 0.00000000 BTC');
  }, 120_000);

  it('config/backtest-bars.yaml: bar mode on 6 weeks of hourly klines, one equity point per bar', async () => {
    const dir = join(tmp(), 'bars');
    const r = await command([join(CONFIG, 'backtest-bars.yaml'), '--out', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('backtest-bars: BTCUSDT, 2020-04-30T00:00:00.000Z to 2020-06-11T16:00:00.000Z, 1000 events');
    const equity = readFileSync(join(dir, 'equity.csv'), 'utf8').trim().split('\n');
    // The header, the first bar's close … the last one's, and the end of the run.
    expect(equity.length).toBeGreaterThanOrEqual(1001);
    const fills = readFileSync(join(dir, 'fills.csv'), 'utf8').trim().split('\n').slice(1);
    expect(fills.length).toBeGreaterThan(0);
  }, 120_000);

  it('names a bad backtest.mode and exits 2', async () => {
    const bad = join(tmp(), 'bad.yaml');
    writeFileSync(bad, readFileSync(join(CONFIG, 'backtest-bars.yaml'), 'utf8').replace('\n  mode: bars\n', '\n  mode: candles\n'));
    const r = await command([bad]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('backtest.mode');
  });
});
