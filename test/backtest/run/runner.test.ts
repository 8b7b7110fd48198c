// `bhtrade backtest` end to end on the committed real sample: the same config, data and seed give byte-identical results, and a strategy cannot read ahead of its time.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/app/backtest.ts';
import { loadRunConfig, parseRunConfig } from '../../../src/app/config.ts';
import { resultFiles } from '../../../src/backtest/index.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const EXAMPLE = resolve(ROOT, 'config/backtest.yaml');
const SAMPLE = resolve(ROOT, 'backtest/data/binance-samples');

describe('bhtrade backtest', () => {
  it('gives byte-identical summary.json and fills.csv for the same config, data and seed, with fills from the recorded market', async () => {
    const loaded = loadRunConfig(EXAMPLE, {});
    // 40 s of the 2 minutes keep the test short; sampled latencies exercise the seed.
    const cfg = { ...loaded, config: { ...loaded.config, backtest: { ...loaded.config.backtest, latency: { entry: { base: 10, meanExtra: 15 }, response: { min: 5, max: 40 } } } } };
    const opts = { configPath: EXAMPLE, from: '2024-08-08T23:54:14Z', to: '2024-08-08T23:54:54Z' };
    const a = resultFiles((await runBacktest(cfg, opts)).results);
    const b = resultFiles((await runBacktest(cfg, opts)).results);
    expect(b['summary.json']).toBe(a['summary.json']);
    expect(b['fills.csv']).toBe(a['fills.csv']);
    const fills = a['fills.csv'].trim().split('\n').slice(1);
    expect(fills.length).toBeGreaterThan(0);
    // Quotes are post-only: every fill is a maker fill at a price on the tick.
    for (const f of fills) expect(f).toMatch(/^\d+,\d+,mm-bt-\d+,(BUY|SELL),\d+(\.\d{1,2})?,0\.\d+,[\d.]+,(BTC|USDT),true$/);
    // The results span the data, not the wind-down after it: equity from the first book (before any fill) to the data's end.
    const summary = JSON.parse(a['summary.json']) as { metrics: { start: number; end: number; orders: number; startEquity: string } };
    const equity = a['equity.csv'].trim().split('\n').slice(1).map((l) => Number(l.split(',')[0]));
    const to = Date.parse(opts.to);
    expect(summary.metrics.start).toBe(equity[0]);
    expect(summary.metrics.end).toBe(equity.at(-1));
    expect(summary.metrics.end).toBeLessThan(to);
    expect(summary.metrics.end).toBeGreaterThan(to - 1_000);
    expect(summary.metrics.start).toBeLessThan(Number(fills[0]!.split(',')[0]));
    // Starting balances of the example (0.02 BTC and 2000 USDT) at the first mark: the equity before any order.
    expect(summary.metrics.startEquity).toMatch(/^3\d{3}\.\d+$/);
    // Orders sent are orders.csv's rows.
    expect(summary.metrics.orders).toBe(a['orders.csv'].trim().split('\n').length - 1);
    const other = resultFiles((await runBacktest({ ...cfg, config: { ...cfg.config, backtest: { ...cfg.config.backtest, seed: 7 } } }, opts)).results);
    expect(JSON.parse(other['summary.json']).seed).toBe(7);
  }, 60_000);

  it('lets a strategy see nothing beyond its time: handlers, bus, timers, history and clock', async () => {
    const g = globalThis as { __peek?: { events: number; timers: number; historyTrades: number; historyKlines: number; violations: string[] } };
    delete g.__peek;
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [{ id: 'peek', use: './peek-strategy.ts', symbols: ['BTCUSDT'] }],
      backtest: { data: SAMPLE, balances: { USDT: '1000' } },
    });
    // The 2020 trades (14:11:54 to 14:15:36 UTC) and 1m klines (to 14:16): start in the middle, so history has both a past and a future.
    const run = await runBacktest({ config, baseDir: import.meta.dirname }, { from: '2020-09-27T14:13:00Z', to: '2020-09-27T14:15:00Z' });
    const p = g.__peek!;
    expect(p.violations).toEqual([]);
    expect(run.events).toBeGreaterThan(0);
    expect(p.events).toBeGreaterThan(0);
    expect(p.timers).toBeGreaterThanOrEqual(100);
    // History answered with the past: trades before the start and the klines that had closed.
    expect(p.historyTrades).toBeGreaterThan(0);
    expect(p.historyKlines).toBeGreaterThan(0);
  }, 60_000);
});
