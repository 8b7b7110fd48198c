/** Epoch nanoseconds as bigint: the clock's milliseconds, refined by the monotonic high-resolution timer, so receive times never go back and never pass through a float. */
import { hrtime } from 'node:process';
import { VirtualClock, type Clock } from '../../core/clock.ts';

/**
 * Returns a function giving the current epoch time in integer nanoseconds, anchored to `clock` when
 * called and again whenever the two part by more than a millisecond. On a VirtualClock (a run in
 * simulated time) times follow that clock instead, so a recording keeps the times the run saw; calls
 * within one millisecond still increase, by a nanosecond each.
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
  let anchor = BigInt(Math.trunc(clock.now())) * 1_000_000n - hrtime.bigint();
  let last = -1n;
  return () => {
    const h = hrtime.bigint();
    let ns = anchor + h;
    // The venue and the bot's timers stamp with the clock: once the wall clock stepped away from the monotonic timer (a time
    // sync moved it by tens of ms), receive times follow the clock again, or a frame would seem read before it was sent.
    const wall = BigInt(Math.trunc(clock.now())) * 1_000_000n;
    if (ns < wall - DRIFT_NS || ns > wall + 1_000_000n + DRIFT_NS) {
      anchor = wall - h;
      ns = wall;
    }
    // Never back, even when the clock stepped back.
    if (ns <= last) ns = last + 1n;
    last = ns;
    return ns;
  };
}

/** How far the monotonic timer may drift from the clock's millisecond before receive times are anchored to the clock again. */
const DRIFT_NS = 1_000_000n;
