// `bhtrade backtest` in bar mode through the command's runner: a catalog of klines only drives the bar path (open, the nearer extreme first), limits fill at their price when touched, stops at the trigger or at the open across a gap, and each bar reaches the strategy at its close; and the committed example on 6 weeks of real hourly klines.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { barReconciliation, runBacktest } from '../../../src/app/backtest.ts';
import { loadRunConfig, parseRunConfig } from '../../../src/app/config.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { resultFiles } from '../../../src/backtest/index.ts';
import { CatalogWriter } from '../../../src/data/catalog.ts';
import { ConvertReport } from '../../../src/data/report.ts';
import { KLINE_FLAG } from '../../../src/data/tables.ts';
import type { Bars } from './bar-strategy.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const MS = 1_000_000n;
const H = 3_600_000;
const D = Date.UTC(2024, 7, 10);

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes hourly klines (open, high, low, close in ticks of 0.1) of a linear perpetual from D on; the catalog holds nothing else. */
function klines(bars: readonly [number, number, number, number][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-bars-'));
  dirs.push(dir);
  const cat = new CatalogWriter(dir, new ConvertReport());
  cat.instrument({ symbol: 'BTCUSDT-PERP', kind: 'linear', tick: '0.1', lot: '0.001', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: false });
  bars.forEach(([o, h, l, c], i) => {
    const open = BigInt(D + i * H);
    const close = open + BigInt(H) - 1n;
    // As the REST importer stores them: event time the close, local time 1 ms later, when the bar is known complete.
    cat.row('klines', 'BTCUSDT-PERP', [close * MS, (close + 1n) * MS, '1h', open * MS, BigInt(o), BigInt(h), BigInt(l), BigInt(c), 1000n, KLINE_FLAG.CLOSED]);
  });
  cat.finish([]);
  return dir;
}

describe('bhtrade backtest in bar mode', () => {
  it('fills along each bar\'s path: a limit at its price when touched, a stop at its trigger, a stop at the open across a gap; bars reach the strategy at their close', async () => {
    const data = klines([
      [1000, 1010, 990, 1000],
      // 100 → 97.5 (nearer: 2.5 down against 4 up) → 104 → 103: the limit at 98 fills on the first leg, the stop at 102 on the second.
      [1000, 1040, 975, 1030],
      // Gaps up to 106 over the stop at 105: filled at the open.
      [1060, 1070, 1055, 1060],
      [1060, 1065, 1055, 1060],
    ]);
    const g = globalThis as { __bars?: Bars };
    delete g.__bars;
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [{ id: 'bars', use: './bar-strategy.ts', symbols: ['BTCUSDT-PERP'] }],
      risk: { symbols: { 'BTCUSDT-PERP': { maxPosition: '10', priceBandPct: '50' } } },
      backtest: { data, balances: { USDT: '1000' }, fees: { maker: '0', taker: '0.001' }, latency: { entry: 0, response: 0 } },
    });
    const r = await runBacktest({ config, baseDir: import.meta.dirname });
    expect(r.mode).toBe('bars');
    const b = g.__bars!;
    // Each bar at its close (open + 1 h), never before.
    expect(b.klines).toEqual([0, 1, 2, 3].map((i) => ({ openTime: D + i * H, seenAt: D + (i + 1) * H })));
    // Fills at the path's points: the first leg ends 20 min into the bar, the second 40 min.
    expect(r.results.fills.map((f) => [f.time - D, f.side, f.price, f.qty, f.isMaker, f.fee])).toEqual([
      [H + 20 * 60_000, 'BUY_OPEN', '98', '1', true, '0'],
      [H + 40 * 60_000, 'BUY_OPEN', '102', '1', false, '0.102'],
      [2 * H, 'BUY_OPEN', '106', '1', false, '0.106'],
    ]);
    // The strategy saw each fill when it happened, and its own position of 3.
    expect(b.fills.map((f) => [f.at - D, f.price])).toEqual([[H + 20 * 60_000, '98'], [H + 40 * 60_000, '102'], [2 * H, '106']]);
    expect(b.net).toBe('3');
    // Equity at each bar's close, marked at the close: 1000 − fees + (103 − 98) + (103 − 102) at the second bar's close.
    expect(r.results.equity.find((e) => e.time === D + 2 * H)?.equity).toBe('1005.898');
  }, 60_000);

  it('settles funding at a boundary at the mark of the bar that closes there (its close, not its last extreme)', async () => {
    const flat: [number, number, number, number] = [1060, 1065, 1055, 1060];
    // Bars 0 to 3 give the strategy its long of 3 (as above); the 07:00 bar runs 106 → 110 → 100 → 108 and closes at 08:00, a funding boundary.
    const data = klines([[1000, 1010, 990, 1000], [1000, 1040, 975, 1030], [1060, 1070, 1055, 1060], flat, flat, flat, flat, [1060, 1100, 1000, 1080], [1080, 1085, 1075, 1080]]);
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [{ id: 'bars', use: './bar-strategy.ts', symbols: ['BTCUSDT-PERP'], streams: { klines: ['1h', '4h'] } }],
      risk: { symbols: { 'BTCUSDT-PERP': { maxPosition: '10', priceBandPct: '50' } } },
      backtest: { data, balances: { USDT: '1000' }, fees: { maker: '0', taker: '0' }, latency: { entry: 0, response: 0 }, funding: { rate: '0.001' } },
    });
    const r = await runBacktest({ config, baseDir: import.meta.dirname });
    // The data holds hourly klines only: the 4-hour ones the strategy also asked for never came, and the run says so.
    expect(r.unservedKlines).toEqual([{ strategy: 'bars', symbol: 'BTCUSDT-PERP', interval: '4h' }]);
    // A long of 3 × 1 BTC at the 08:00 mark of 108 pays 3 × 108 × 0.001 (at the bar's low of 100 it would be 0.3).
    expect([r.results.metrics.fundingPaid, r.results.metrics.fundingReceived]).toEqual(['0.324', '0']);
  }, 60_000);

  it('runs the committed example (the trend follower on 6 weeks of real hourly BTCUSDT klines) byte-identically', async () => {
    const path = resolve(ROOT, 'config/backtest-bars.yaml');
    const loaded = loadRunConfig(path, {});
    const a = await runBacktest(loaded, { configPath: path });
    const b = await runBacktest(loaded, { configPath: path });
    expect(a.mode).toBe('bars');
    expect(resultFiles(b.results)['summary.json']).toBe(resultFiles(a.results)['summary.json']);
    expect(resultFiles(b.results)['fills.csv']).toBe(resultFiles(a.results)['fills.csv']);
    // One equity point per hourly bar (1,000 klines) and the start.
    expect(a.results.equity.length).toBeGreaterThanOrEqual(1000);
    expect(a.results.fills.length).toBeGreaterThan(2);
    // Every fill is a taker fill at some bar's open, 100 ms after it (50 ms each way): the IOC orders sent at a close.
    for (const f of a.results.fills) expect(f.time % H).toBe(100);
  }, 120_000);
});

describe('reconciliation in bar mode', () => {
  it('runs at the first bar close at least reconcile.every after the last: once a bar on hourly data, once in 30 s on bars of 10 s', () => {
    const clock = new VirtualClock(D);
    const at: number[] = [];
    const closed = barReconciliation(clock, 30_000, () => at.push(clock.now() - D));
    for (let i = 1; i <= 3; i++) {
      clock.advanceToSync(D + i * H);
      closed();
    }
    expect(at).toEqual([H, 2 * H, 3 * H]);
    at.length = 0;
    for (let s = 10; s <= 90; s += 10) {
      clock.advanceToSync(D + 3 * H + s * 1000);
      closed();
    }
    expect(at).toEqual([3 * H + 30_000, 3 * H + 60_000, 3 * H + 90_000]);
  });

  it('gives the committed hourly example the same results with reconcile.every 30 s and 1 h', async () => {
    const { config, baseDir } = loadRunConfig(join(ROOT, 'config/backtest-bars.yaml'));
    const hourly = parseRunConfig({ ...parse(readFileSync(join(ROOT, 'config/backtest-bars.yaml'), 'utf8')) as object, reconcile: { every: '1h' } });
    const [a, b] = [await runBacktest({ config, baseDir }), await runBacktest({ config: hourly, baseDir })];
    expect(resultFiles(b.results)['fills.csv']).toBe(resultFiles(a.results)['fills.csv']);
    expect(resultFiles(b.results)['equity.csv']).toBe(resultFiles(a.results)['equity.csv']);
  });
});
