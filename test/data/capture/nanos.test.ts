// Receive times of a live recording: on the clock the venue and the bot stamp with, even after the wall clock stepped, and never back.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.ts';
import { epochNanos } from '../../../src/data/capture/nanos.ts';

/** A wall clock the test sets by hand (not a VirtualClock: epochNanos takes its live path). */
function steppedClock(start: number): Clock & { at: number } {
  const c = {
    at: start,
    now: () => c.at,
    setTimeout: () => ({ cancel: () => undefined }),
    setInterval: () => ({ cancel: () => undefined }),
    sleep: () => Promise.resolve(),
  };
  return c;
}

const MS = 1_000_000n;

describe('epochNanos on a live clock', () => {
  it('follows the clock when it steps away from the monotonic timer, within a millisecond, and never goes back', () => {
    const clock = steppedClock(1_700_000_000_000);
    const nanos = epochNanos(clock);
    const first = nanos();
    // The monotonic timer refines the clock's millisecond; it may have run on a little (a loaded machine) but not past the tolerance.
    expect(first >= 1_700_000_000_000n * MS && first <= 1_700_000_000_002n * MS).toBe(true);
    // A time sync moves the wall clock 23 ms ahead: a frame read now must not seem read 23 ms before the venue sent it.
    clock.at += 23;
    const ahead = nanos();
    expect(ahead >= 1_700_000_000_023n * MS - MS).toBe(true);
    expect(ahead <= 1_700_000_000_024n * MS + MS).toBe(true);
    // Stepped back by 50 ms: times still increase.
    clock.at -= 50;
    const back = nanos();
    expect(back > ahead).toBe(true);
    const next = nanos();
    expect(next > back).toBe(true);
  });
});
