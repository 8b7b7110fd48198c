// Bounded state: finished orders leave the executor's hot indexes, so a submit costs the same after 100,000 finished orders as after 100, and what it keeps stays within its history bounds.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/bus/index.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { ClientOrderIds } from '../../src/core/ids.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { ExecutorBudget, OrderExecutor, Portfolio } from '../../src/execution/index.ts';
import { RiskGate } from '../../src/risk/index.ts';
import { AnsweringGateway } from '../fixtures/answering-gateway.ts';
import { instruments } from '../strategy/helpers.ts';

describe('bounded executor state', () => {
  it('a submit walks as many orders after 100,000 finished ones as after 100, and the executor keeps at most its history', async () => {
    const clock = new VirtualClock(1_700_000_000_000);
    const inst = instruments();
    const portfolio = new Portfolio(inst);
    const history = { maxOrders: 500, maxAgeMs: 60_000 };
    const ex = new OrderExecutor({
      gateway: new AnsweringGateway({ status: 'CANCELED', now: () => clock.now() }), bus: new EventBus({ clock, logger: silentLogger() }), clock, portfolio, instruments: inst,
      gate: new RiskGate({ instruments: inst, config: { rounding: 'deny' } }), ids: new ClientOrderIds('bh', 'b1'), reconcile: { everyMs: 0 }, history,
      // No venue rate limits: each order is sent at once, so the queue stays empty and only the orders kept can grow.
      budget: new ExecutorBudget([]),
    });
    await ex.start();
    let n = 0;
    const one = async (): Promise<void> => {
      ex.submit({ kind: 'placeSpot', strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: `mm-b1-${++n}`, side: 'BUY', type: 'LIMIT', price: '11369', quantity: '0.01', timeInForce: 'IOC' });
      await ex.idle();
    };
    /** Orders the store walked per submit, over a batch of 100. */
    const walkedPerSubmit = async (): Promise<number> => {
      const before = ex.store.visited;
      for (let i = 0; i < 100; i++) {
        ex.submit({ kind: 'cancelAll', strategyId: 'mm' });
        await one();
      }
      return (ex.store.visited - before) / 100;
    };
    /** The fastest of 15 batches of 100 submits, per submit (the minimum: load on the machine only ever adds time). */
    const fastest = async (): Promise<number> => {
      let best = Infinity;
      for (let b = 0; b < 15; b++) {
        const t = performance.now();
        for (let i = 0; i < 100; i++) await one();
        best = Math.min(best, (performance.now() - t) / 100);
      }
      return best;
    };
    for (let i = 0; i < 100; i++) await one();
    const early = await walkedPerSubmit();
    const earlyMs = await fastest();
    while (n < 100_000) {
      await one();
      if (n % 1_000 === 0) await clock.advance(100);
    }
    const late = await walkedPerSubmit();
    expect(ex.order(`mm-b1-${n}`)?.phase).toBe('CANCELED');
    expect(late).toBeLessThanOrEqual(Math.max(2 * early, 1));
    // Time too, with a generous margin: twice the early cost plus 0.1 ms.
    expect(await fastest()).toBeLessThan(2 * earlyMs + 0.1);
    expect(ex.store.size()).toEqual({ live: 0, finished: history.maxOrders });
    expect(ex.feed.size()).toEqual({ live: 0, finished: history.maxOrders });
    expect(ex.orders().length).toBe(history.maxOrders);
    // The newest finished orders stay readable; the oldest are forgotten.
    expect(ex.feed.get(`mm-b1-${n}`)?.status).toBe('CANCELED');
    expect(ex.feed.get('mm-b1-1')).toBeUndefined();
    // By age too: a minute later every finished order is gone.
    await clock.advance(61_000);
    expect(ex.store.size().finished).toBe(0);
    ex.stop();
  }, 120_000);
});
