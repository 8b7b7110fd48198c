// `bhtrade lookahead`: a strategy that bids at a planted future price is caught, naming its handler; the example strategies decide the same without the data after each point.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunConfig, type LoadedConfig } from '../../../src/app/config.ts';
import { runBacktest } from '../../../src/app/backtest.ts';
import { EmissionLog } from '../../../src/app/lookahead/emissions.ts';
import { runLookahead } from '../../../src/app/lookahead/run.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = join(ROOT, 'backtest/data/binance-samples');
const g = globalThis as { __futurePrices?: Map<number, string> };
afterEach(() => {
  delete g.__futurePrices;
});

function peeking(via: 'trade' | 'timer'): LoadedConfig {
  return {
    baseDir: import.meta.dirname,
    config: parseRunConfig({
      venue: 'embedded',
      strategies: [{ id: 'peek', use: './future-peek-strategy.ts', symbols: ['BTCUSDT'], params: { via } }],
      risk: { rounding: 'round' },
      backtest: { data: SAMPLE, balances: { BTC: '0', USDT: '5000' }, fees: { maker: '0', taker: '0.001' } },
    }),
  };
}

describe('lookahead', () => {
  it('names the handler each order call came from, across an await, for timers and for the strategy\'s own bus subscriptions', async () => {
    const log = new EmissionLog();
    const loaded: LoadedConfig = {
      baseDir: import.meta.dirname,
      config: parseRunConfig({ venue: 'embedded', strategies: [{ id: 'h', use: './handlers-strategy.ts', symbols: ['BTCUSDT'] }], backtest: { data: SAMPLE, balances: { USDT: '1000' } } }),
    };
    await runBacktest(loaded, { from: '2024-08-08T23:54:14Z', to: '2024-08-08T23:54:24Z', wrapStrategy: log.wrap });
    const by = Object.fromEntries(log.emissions.map((e) => [(JSON.parse(e.call) as { cancel: [string, string] }).cancel[1], e.handler]));
    expect(by).toEqual({ trade: 'onTrade', 'after-await': 'onTrade', every: 'onTimer', timeout: 'onTimer', bus: 'bus:trade' });
    expect(log.emissions.every((e) => e.strategy === 'h')).toBe(true);
  });

  for (const [via, handler] of [['trade', 'onTrade'], ['timer', 'onTimer']] as const) {
    it(`catches a strategy that bids at a planted future price, in ${handler}`, async () => {
      g.__futurePrices = new Map();
      const r = await runLookahead(peeking(via), { points: 3, from: '2024-08-08T23:54:14Z', to: '2024-08-08T23:55:14Z' });
      expect(r.points).toHaveLength(3);
      expect(r.findings.length).toBeGreaterThan(0);
      const f = r.findings[0]!;
      expect(f.strategy).toBe('peek');
      expect(f.handler).toBe(handler);
      // The full run had no future in the map yet; with the data cut, the map held the full run's later prices.
      expect(f.full?.call).toMatch(/^\{"place":\[\{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT","price":"\d+\.\d+"/);
      expect(f.cut?.call).not.toBe(f.full?.call);
    });
  }

  it('finds none in the same strategy when nothing outlives a run', async () => {
    // A fresh map per run: each run sees only its own past, so the cut runs decide as the full one did.
    let runs = 0;
    const fresh = { get: () => { runs++; return new Map<number, string>(); } };
    Object.defineProperty(g, '__futurePrices', { configurable: true, get: fresh.get });
    const r = await runLookahead(peeking('trade'), { points: 3, from: '2024-08-08T23:54:14Z', to: '2024-08-08T23:55:14Z' });
    expect(runs).toBe(4);
    expect(r.points).toHaveLength(3);
    expect(r.findings).toEqual([]);
  });

  it('keeps a bounded number of order calls and refuses a run that makes more', async () => {
    g.__futurePrices = new Map();
    await expect(runLookahead(peeking('trade'), { points: 3, maxEmissions: 5, from: '2024-08-08T23:54:14Z', to: '2024-08-08T23:55:14Z' }))
      .rejects.toThrow(/the strategies made \d+ order calls, more than the 5 the check keeps: check a shorter range/);
  });

  it('says what it counted: the calls a strategy\'s stop made are not decisions, and a range start nobody gave is called the start of the data', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'lookahead', 'config/backtest.yaml', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });
    // 2 ms before the data's end the market maker has not quoted yet; its stop still cancels.
    const end = run('--from', '2024-08-08T23:56:12.990Z');
    expect(end.stdout).toBe([
      'full run 2024-08-08T23:56:12.990Z to 2024-08-08T23:56:12.992Z: 0 order calls at 0 decision points (and 1 from stop at the end, not compared); 0 re-run with the data cut 1 ms after them',
      'no strategy emitted an order before its stop: nothing to check',
      '',
    ].join('\n'));
    expect(end.status).toBe(0);
    const early = run('--to', '2024-08-08T23:00:00Z');
    expect(early.stderr).toBe('bhtrade lookahead: config/backtest.yaml: --to: must be after the start of the data (2024-08-08T23:54:13.937Z), got 2024-08-08T23:00:00.000Z\n');
    expect(early.status).toBe(2);
  });

  it('fails (exit 1) naming a strategy that threw in the full run, whose later decisions were never checked, as bhtrade backtest does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bh-lookahead-'));
    try {
      const config = join(dir, 'throwing.yaml');
      writeFileSync(config, stringify({
        venue: 'embedded', strategies: [{ id: 'boom', use: join(import.meta.dirname, 'throwing-strategy.ts'), symbols: ['BTCUSDT'] }],
        backtest: { data: SAMPLE, balances: { BTC: '0', USDT: '5000' } },
      }));
      const r = spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'lookahead', config, '--points', '2'], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });
      expect(r.stdout).toMatch(/\nno lookahead: /);
      expect(r.stderr).toMatch(/\nbhtrade lookahead: in the full run, strategy boom threw at 2024-08-08T\S+Z \(simulated\) and was stopped: thrown at trade 50\n/);
      expect(r.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes the example strategies on the committed sample (market maker through the command, grid)', async () => {
    const cmd = spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'lookahead', 'config/backtest.yaml', '--points', '3', '--to', '2024-08-08T23:55:14Z'], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 });
    expect(cmd.stderr).toMatch(/run 3\/3, data cut after /);
    expect(cmd.stdout).toMatch(/^full run 2024-08-08T23:54:13\.937Z to 2024-08-08T23:55:14\.000Z: \d+ order calls at \d+ decision points \(and 1 from stop at the end, not compared\); 3 re-run/);
    expect(cmd.stdout).toMatch(/\n {2}1\. \S+ {2}same orders\n {2}2\. \S+ {2}same orders\n {2}3\. \S+ {2}same orders\nno lookahead/);
    expect(cmd.status).toBe(0);

    const grid: LoadedConfig = {
      baseDir: ROOT,
      config: parseRunConfig({
        venue: 'embedded',
        strategies: [{ id: 'grid', use: './strategies/grid.ts', symbols: ['BTCUSDT'], params: { quantity: '0.001', levels: 3, stepTicks: 3 } }],
        risk: { rounding: 'round' },
        backtest: { data: SAMPLE, balances: { BTC: '0.02', USDT: '2000' }, fees: { maker: '0', taker: '0.001' } },
      }),
    };
    const r = await runLookahead(grid, { points: 3, to: '2024-08-08T23:55:14Z' });
    expect(r.emissions).toBeGreaterThan(6);
    expect(r.points.length).toBeGreaterThan(0);
    expect(r.findings).toEqual([]);
  });
});
