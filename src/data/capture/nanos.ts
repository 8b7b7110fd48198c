/** Epoch nanoseconds as bigint: the clock's milliseconds once, then the monotonic high-resolution timer, so receive times never go back and never pass through a float. */
import { hrtime } from 'node:process';
import type { Clock } from '../../core/clock.ts';

/** Returns a function giving the current epoch time in integer nanoseconds, anchored to `clock` when called. */
export function epochNanos(clock: Clock): () => bigint {
  const anchor = BigInt(Math.trunc(clock.now())) * 1_000_000n - hrtime.bigint();
  return () => anchor + hrtime.bigint();
}
