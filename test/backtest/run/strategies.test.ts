// Two strategies on one symbol in one backtest share its account: the run ends with each one's own summary (orders, fills, volume, position), as a live run does, and the printed summary shows it.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { runBacktest } from '../../../src/app/backtest.ts';
import { parseRunConfig } from '../../../src/app/config.ts';
import { backtestCommand } from '../../../src/cli/backtest.ts';
import { Decimal } from '../../../src/core/fixed.ts';
import { testDir } from '../../fixtures/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = resolve(ROOT, 'backtest/data/binance-samples');
const MM_AND_GRID = {
  venue: 'embedded',
  strategies: [
    { id: 'mm', use: resolve(ROOT, 'strategies/market-maker.ts'), symbols: ['BTCUSDT'], params: { quantity: '0.002', spreadTicks: 2, targetPosition: '0', requoteTicks: 1, refreshMs: 100, postOnly: true } },
    { id: 'grid', use: resolve(ROOT, 'strategies/grid.ts'), symbols: ['BTCUSDT'], params: { quantity: '0.001', levels: 3, stepTicks: 3 } },
  ],
  risk: { symbols: { BTCUSDT: { maxPosition: '2', maxOpenOrders: 10 } } },
  backtest: { data: SAMPLE, balances: { BTC: '0.02', USDT: '2000' }, fees: { maker: '0', taker: '0.001' }, to: '2024-08-08T23:55:10Z' },
};

const sum = (xs: readonly string[]): string => xs.reduce((a, x) => a.plus(x), new Decimal(0)).toFixed();

describe('a backtest of two strategies on one symbol', () => {
  it('ends with each strategy\'s own orders, fills, volume and position, which add up to the account\'s', async () => {
    const run = await runBacktest({ config: parseRunConfig(MM_AND_GRID), baseDir: ROOT });
    const r = run.results;
    expect(run.strategies.map((s) => s.id)).toEqual(['mm', 'grid']);
    for (const s of run.strategies) {
      // Its fills are the rows of fills.csv of its own orders (clientOrderIds carry the strategy's id).
      const own = r.fills.filter((f) => f.clientOrderId.startsWith(`${s.id}-`));
      expect(own.length).toBeGreaterThan(0);
      expect(s.fills).toBe(own.length);
      expect(s.symbols).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', fills: own.length, volume: sum(own.map((f) => f.qty)), unit: 'BTC' })]);
      expect(s.orders).toBe(r.orders.filter((o) => o.clientOrderId.startsWith(`${s.id}-`)).length);
    }
    expect(run.strategies.reduce((n, s) => n + s.orders, 0)).toBe(r.metrics.orders);
    const net = (id: string): string => run.strategies.find((s) => s.id === id)!.positions.find((p) => p.symbol === 'BTCUSDT')!.qty;
    expect(new Decimal(net('mm')).plus(net('grid')).toFixed()).toBe(new Decimal(r.positions.at(-1)?.position ?? '0').toFixed());
  });

  it('prints a summary line per strategy after the account\'s results; a run of one strategy prints none', async () => {
    const dir = testDir('bhtrade-strategies-');
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const config = join(dir, 'two.yaml');
    writeFileSync(config, stringify(MM_AND_GRID));
    expect(await backtestCommand([config, '--out', join(dir, 'two')])).toBe(0);
    writeFileSync(join(dir, 'one.yaml'), stringify({ ...MM_AND_GRID, strategies: MM_AND_GRID.strategies.slice(0, 1) }));
    expect(await backtestCommand([join(dir, 'one.yaml'), '--out', join(dir, 'one')])).toBe(0);
    vi.restoreAllMocks();
    const [two, one] = out.map((t) => t.split('\n'));
    const at = two!.findIndex((l) => l.startsWith('per strategy'));
    expect(at).toBeGreaterThan(0);
    expect(two![at + 1]).toMatch(/^ {2}summary mm\[stopped\]: orders=\d+ fills=\d+ volume=BTCUSDT [\d.]+ BTC \([\d.]+ USDT\) fees=0 pnl=[+-]?[\d.]+ USDT open=/);
    expect(two![at + 2]).toMatch(/^ {2}summary grid\[stopped\]: orders=\d+ fills=\d+ /);
    expect(two![at + 3]).toMatch(/^log: /);
    expect(one!.some((l) => l.startsWith('per strategy'))).toBe(false);
  });
});
