// Time-based RxJS operators run on the core clock: with VirtualClock they move only when the test advances time.
import { debounceTime, interval, take, throttleTime, timeout } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { EventBus, schedulerFromClock } from '../../src/bus/index.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { tradeEvent, type TradeEvent } from '../../src/model/events.ts';
import { capturedLogger, TRADES } from './samples.ts';

const T0 = TRADES[0].t;

/** The first sample trade, re-stamped at virtual time `at` with id `id`. */
function tradeAt(clock: VirtualClock, id: string): TradeEvent {
  const x = TRADES[0];
  return tradeEvent({ symbol: 'BTCUSDT', tradeId: id, price: x.p, qty: x.q, takerSide: 'SELL', ts: clock.now(), recvTs: clock.now() });
}

function setup(): { clock: VirtualClock; bus: EventBus } {
  const clock = new VirtualClock(T0);
  return { clock, bus: new EventBus({ logger: capturedLogger().logger, clock }) };
}

describe('schedulerFromClock', () => {
  it('tells the clock time', async () => {
    const clock = new VirtualClock(T0);
    const s = schedulerFromClock(clock);
    expect(s.now()).toBe(T0);
    await clock.advance(1234);
    expect(s.now()).toBe(T0 + 1234);
  });

  it('runs throttleTime on virtual time: one trade per 1000 virtual ms, whatever the wall clock does', async () => {
    const { clock, bus } = setup();
    const out: string[] = [];
    bus.on('trade').pipe(throttleTime(1000, bus.scheduler)).subscribe((e) => out.push(`${e.tradeId}@${e.ts - T0}`));
    for (const at of [0, 100, 500, 999, 1000, 1500, 1999, 2100, 2500]) {
      await clock.advanceTo(T0 + at);
      bus.publish(tradeAt(clock, `t${at}`));
    }
    expect(out).toEqual(['t0@0', 't1000@1000', 't2100@2100']);
  });

  it('runs debounceTime on virtual time: the last of a burst comes out only after 300 quiet virtual ms', async () => {
    const { clock, bus } = setup();
    const out: string[] = [];
    bus.on('trade').pipe(debounceTime(300, bus.scheduler)).subscribe((e) => out.push(`${e.tradeId}@${clock.now() - T0}`));
    for (const at of [0, 100, 200]) {
      await clock.advanceTo(T0 + at);
      bus.publish(tradeAt(clock, `t${at}`));
    }
    await clock.advanceTo(T0 + 499);
    expect(out).toEqual([]);
    await clock.advanceTo(T0 + 500);
    expect(out).toEqual(['t200@500']);
  });

  it('runs interval on virtual time and cancels its timer when unsubscribed', async () => {
    const { clock, bus } = setup();
    const ticks: string[] = [];
    const sub = interval(1000, bus.scheduler).subscribe((n) => ticks.push(`${n}@${clock.now() - T0}`));
    await clock.advance(3500);
    expect(ticks).toEqual(['0@1000', '1@2000', '2@3000']);
    expect(clock.pending()).toBe(1);
    sub.unsubscribe();
    expect(clock.pending()).toBe(0);
    await clock.advance(5000);
    expect(ticks).toHaveLength(3);
  });

  it('completes interval().take(n) and leaves no timer behind', async () => {
    const { clock, bus } = setup();
    const ticks: number[] = [];
    let completed = false;
    interval(250, bus.scheduler).pipe(take(2)).subscribe({ next: (n) => ticks.push(n), complete: () => { completed = true; } });
    await clock.advance(10_000);
    expect(ticks).toEqual([0, 1]);
    expect(completed).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  it('fires timeout on a stream that stays silent for the virtual period (a watchdog)', async () => {
    const { clock, bus } = setup();
    const errors: string[] = [];
    const seen: string[] = [];
    bus.on('trade').pipe(timeout({ each: 60_000, scheduler: bus.scheduler })).subscribe({
      next: (e) => seen.push(e.tradeId),
      error: (err: Error) => errors.push(`${err.name}@${clock.now() - T0}`),
    });
    await clock.advance(59_000);
    bus.publish(tradeAt(clock, 'alive'));
    await clock.advance(59_999);
    expect(errors).toEqual([]);
    await clock.advance(1);
    expect(seen).toEqual(['alive']);
    expect(errors).toEqual(['TimeoutError@119000']);
  });

  it('refuses a scheduler on a bus built without a clock', () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    expect(() => bus.scheduler).toThrow(expect.objectContaining({ code: 'BUS_NO_CLOCK', retry: 'config' }));
  });
});
