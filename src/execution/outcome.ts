/** Sorting what a gateway call threw into the executor's outcomes: rejected, unknown, not sent, rate limited. */
import { BhError, VenueError } from '../core/errors.ts';

/** What an error means for a command. */
export type ErrorOutcome =
  | { readonly kind: 'rejected'; readonly venueCode: number; readonly reason: string }
  | { readonly kind: 'unknown'; readonly reason: string }
  | { readonly kind: 'not-sent'; readonly reason: string };

/** Returns the outcome of an error thrown by a gateway write. */
export function outcomeOf(err: unknown): ErrorOutcome {
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof VenueError && err.retry === 'definite') return { kind: 'rejected', venueCode: err.venueCode, reason };
  if (err instanceof BhError) {
    switch (err.retry) {
      case 'definite':
      case 'auth':
      case 'config':
        return { kind: 'rejected', venueCode: err instanceof VenueError ? err.venueCode : 0, reason };
      case 'unknown':
        return { kind: 'unknown', reason };
      case 'transport':
      case 'denied':
      case 'banned':
      case 'rate-limit':
        return { kind: 'not-sent', reason };
      default: {
        const never: never = err.retry;
        return { kind: 'unknown', reason: String(never) };
      }
    }
  }
  // Anything untyped may have happened after the request left: treat it as unknown, settle it by query.
  return { kind: 'unknown', reason };
}

/** Returns the venue code of a definite VenueError, else undefined. */
export function venueCodeOf(err: unknown): number | undefined {
  return err instanceof VenueError ? err.venueCode : undefined;
}

/** Returns the Retry-After (ms) of a 429 found in the error or its causes, 0 when a 429 gave none, undefined when there was no 429. */
export function rateLimitIn(err: unknown): number | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    if (e instanceof BhError && e.retry === 'rate-limit') {
      const after = e.context['retryAfterMs'];
      return typeof after === 'number' ? after : 0;
    }
    e = e.cause;
  }
  return undefined;
}
