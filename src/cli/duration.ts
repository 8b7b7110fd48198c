/** The --duration flag of the commands that run until a time is up (run, record, parity). */
import { parseDuration } from '../app/config.ts';

/** The longest timer Node arms (2^31 - 1 ms, 596.5 h): a longer one fires at once, so the run would stop as soon as it started. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Returns `--duration`'s value in ms; throws naming the flag when it is no positive duration, or longer than
 * `limit` (a command's own, with its reason) or than Node can time (`what` is the verb the hint uses: run, record).
 */
export function durationFlag(value: string, what: string, limit?: { readonly ms: number; readonly text: string }): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) throw new Error(`--duration must be a duration such as 30s or 5m, got ${JSON.stringify(value)}`);
  if (limit !== undefined && ms > limit.ms) throw new Error(`--duration must be at most ${limit.text}, got ${JSON.stringify(value)}`);
  if (ms > MAX_TIMER_MS) {
    throw new Error(`--duration must be at most 596h (about 24 days), got ${JSON.stringify(value)}; to ${what} longer, give no --duration and stop it with Ctrl-C or SIGTERM`);
  }
  return ms;
}
