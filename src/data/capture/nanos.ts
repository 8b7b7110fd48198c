/** Epoch nanoseconds as bigint: the clock's milliseconds once, then the monotonic high-resolution timer, so receive times never go back and never pass through a float. */
import { hrtime } from 'node:process';
import { VirtualClock, type Clock } from '../../core/clock.ts';

/**
 * Returns a function giving the current epoch time in integer nanoseconds, anchored to `clock` when
 * called. On a VirtualClock (a run in simulated time) times follow that clock instead, so a recording
 * keeps the times the run saw; calls within one millisecond still increase, by a nanosecond each.
 */
export function epochNanos(clock: Clock): () => bigint {
  if (clock instanceof VirtualClock) {
    let last = -1n;
    return () => {
      const ms = BigInt(Math.trunc(clock.now())) * 1_000_000n;
      last = last >= ms && last < ms + 999_999n ? last + 1n : ms > last ? ms : last;
      return last;
    };
  }
  const anchor = BigInt(Math.trunc(clock.now())) * 1_000_000n - hrtime.bigint();
  return () => anchor + hrtime.bigint();
}
