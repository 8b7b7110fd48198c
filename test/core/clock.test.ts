import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';

describe('VirtualClock', () => {
  it('fires timers in time then creation order and only when advanced', async () => {
    const clock = new VirtualClock(1000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push('b@20'), 20);
    clock.setTimeout(() => seen.push('a@10'), 10);
    clock.setTimeout(() => seen.push('c@20'), 20);
    await clock.advance(15);
    expect(seen).toEqual(['a@10']);
    expect(clock.now()).toBe(1015);
    await clock.advance(5);
    expect(seen).toEqual(['a@10', 'b@20', 'c@20']);
  });

  it('repeats intervals and stops them on cancel', async () => {
    const clock = new VirtualClock(0);
    let n = 0;
    const h = clock.setInterval(() => { n += 1; }, 100);
    await clock.advance(350);
    expect(n).toBe(3);
    h.cancel();
    await clock.advance(1000);
    expect(n).toBe(3);
  });

  it('lets async code written against the clock continue between timers', async () => {
    const clock = new VirtualClock(0);
    const times: number[] = [];
    const run = (async () => {
      await clock.sleep(10);
      times.push(clock.now());
      await clock.sleep(10);
      times.push(clock.now());
    })();
    await clock.advance(25);
    await run;
    expect(times).toEqual([10, 20]);
  });
});
