// The end of a backtest: a stopped strategy still gets its orders' last events, the cancel the run's stop sends and the fill of an order its stop handler placed; a new order after its stop is refused through onDenied, not thrown (which would fail the strategy and the run).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/app/backtest.ts';
import { parseRunConfig } from '../../../src/app/config.ts';
import { MAX_STOPPED_NOTICES } from '../../../src/strategy/host.ts';
import type { WindDown } from './wind-down-strategy.ts';

const SAMPLE = resolve(import.meta.dirname, '../../../backtest/data/binance-samples');

const RANGE = { from: '2024-08-08T23:54:20Z', to: '2024-08-08T23:54:40Z' };

function windDown(params: Record<string, unknown>) {
  return parseRunConfig({
    venue: 'embedded',
    strategies: [{ id: 'wd', use: './wind-down-strategy.ts', symbols: ['BTCUSDT'], params }],
    backtest: { data: SAMPLE, balances: { BTC: '1', USDT: '100000' }, latency: { entry: 20, response: 20 } },
  });
}

describe('the end of a backtest', () => {
  it('delivers the final event of every order and the wind-down\'s fills to the stopped strategy', async () => {
    const g = globalThis as { __windDown?: WindDown };
    delete g.__windDown;
    const r = await runBacktest({ config: windDown({}), baseDir: import.meta.dirname }, RANGE);
    const w = g.__windDown!;
    expect(w.resting).toBeDefined();
    expect(w.ioc).toBeDefined();
    // The resting bid: acknowledged while running, cancelled by the run's stop, and the strategy sees it end.
    expect(w.events.filter((e) => e.startsWith(`order ${w.resting!} `))).toEqual([`order ${w.resting!} NEW`, `order ${w.resting!} CANCELED`]);
    // The IOC its stop handler sent fills in the wind-down: its fill, then its final event.
    expect(w.events.filter((e) => e.includes(w.ioc!))).toEqual([`order ${w.ioc!} NEW`, `fill ${w.ioc!} 0.001`, `order ${w.ioc!} FILLED`]);
    expect(w.placeAfterStop).toBeDefined();
    expect(w.events.filter((e) => e.includes(w.placeAfterStop!))).toEqual([`denied ${w.placeAfterStop!} STRATEGY_STOPPED: strategy=wd call=place`]);
    expect(r.failed).toEqual([]);
    expect(r.results.metrics.fills).toBe(1);
    expect(r.results.metrics.orders).toBe(2);
  }, 60_000);

  it('sends the order a stop handler placed behind a cancel of its own, before the run\'s cancels (they would drop it unsent), as a live run does', async () => {
    const g = globalThis as { __windDown?: WindDown };
    delete g.__windDown;
    const r = await runBacktest({ config: windDown({ cancelFirst: true }), baseDir: import.meta.dirname }, RANGE);
    const w = g.__windDown!;
    expect(w.events.filter((e) => e.includes(w.ioc!))).toEqual([`order ${w.ioc!} NEW`, `fill ${w.ioc!} 0.001`, `order ${w.ioc!} FILLED`]);
    expect(r.results.metrics.fills).toBe(1);
  }, 60_000);

  it('ends even when the strategy answers each refusal after its stop with another order: it is told at most MAX_STOPPED_NOTICES times', async () => {
    const g = globalThis as { __windDown?: WindDown };
    delete g.__windDown;
    const r = await runBacktest({ config: windDown({ retry: true }), baseDir: import.meta.dirname }, RANGE);
    expect(g.__windDown!.stoppedNotices).toBe(MAX_STOPPED_NOTICES);
    expect(r.failed).toEqual([]);
    expect(r.results.metrics.orders).toBe(2);
  }, 60_000);
});
