// The market maker's own order budget never lets it send an order the risk gate's equal order rate refuses, even when the gate reads the clock a millisecond later than the strategy did.
import { describe, expect, it } from 'vitest';
import { ReadingClock, VirtualClock } from '../../src/core/clock.ts';
import { SlidingWindow } from '../../src/core/sliding-window.ts';
import { EventBus } from '../../src/bus/index.ts';
import { StrategyHost, type StrategyIntent, type SubmitResult } from '../../src/strategy/index.ts';
import marketMaker from '../../strategies/market-maker.ts';
import { capturedLogger, sampleBook } from '../bus/samples.ts';
import { EMPTY_PORTFOLIO, instruments, PushedOrders } from './helpers.ts';

/** A virtual clock on which the work of one instant can take time: spend() moves the reading on until the next timer's instant (timers keep their times, as a wall clock's do). */
class WorkClock extends ReadingClock {
  private at = Number.NaN;
  private spent = 0;

  now(): number {
    const t = this.inner.now();
    if (t !== this.at) {
      this.at = t;
      this.spent = 0;
    }
    return t + this.spent;
  }

  /** The work under way took `ms` more. */
  spend(ms: number): void {
    this.now();
    this.spent += ms;
  }
}

/**
 * Runs the maker for `seconds` with the book moving every refresh. The gate counts orders as the risk
 * gate does, at its own read of the clock, and every `slowEvery`-th order reaches it a millisecond
 * after the strategy decided to send it (a loaded machine).
 */
async function run(slowEvery: number, seconds: number): Promise<{ sent: number; denied: number }> {
  const inner = new VirtualClock(1_700_000_000_000);
  const clock = new WorkClock(inner);
  const { logger } = capturedLogger();
  const bus = new EventBus({ logger, clock });
  const rate = { perSecond: 3, perMinute: 1_000 };
  const gate = new SlidingWindow(1_000);
  let sent = 0;
  let denied = 0;
  const submit = (i: StrategyIntent): SubmitResult => {
    if (i.kind !== 'placeSpot' && i.kind !== 'replace') return { ok: true };
    if ((sent + denied) % slowEvery === 0) clock.spend(1);
    const now = clock.now();
    if (gate.count(now) >= rate.perSecond) {
      denied += 1;
      return { ok: false, code: 'ORDER_RATE', text: `denied ORDER_RATE at ${now}` };
    }
    gate.charge(1, now);
    sent += 1;
    return { ok: true };
  };
  const host = new StrategyHost({
    bus, clock, log: logger, instruments: instruments(), runTag: 'r1', portfolio: () => EMPTY_PORTFOLIO, orders: new PushedOrders(), submit,
  });
  host.add({ id: 'mm', symbols: ['BTCUSDT'], params: { spreadTicks: 2, requoteTicks: 1, refreshMs: 100, quantity: '0.01', orderRate: rate }, definition: marketMaker });
  await host.start();
  const book = sampleBook('BTCUSDT');
  const shift = (levels: typeof book.bids, ticks: number): typeof book.bids => levels.map(([p, q]) => [(Number(p) + ticks / 100).toFixed(2), q] as const);
  for (let step = 0; step < seconds * 10; step++) {
    const ticks = (step % 2) * 10;
    bus.publish({ ...book, bids: shift(book.bids, ticks), asks: shift(book.asks, ticks) });
    await inner.advance(100);
  }
  await host.stop();
  return { sent, denied };
}

describe('market maker order budget beside the gate\'s equal order rate', () => {
  it('sends at the budget\'s rate and is never refused, also when some orders reach the gate a millisecond after the strategy decided', async () => {
    for (const slowEvery of [1, 2, 3, 5]) {
      const r = await run(slowEvery, 20);
      expect(r.denied, `one order in ${slowEvery} a millisecond late`).toBe(0);
      // Three a second for 20 s, give or take the window's edges.
      expect(r.sent).toBeGreaterThanOrEqual(55);
    }
  });
});
