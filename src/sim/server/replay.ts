/** Refuses an exact replay of a signed write: each accepted signature is remembered until its timestamp window has surely passed. */
import { ApiError, apiError } from './errors.ts';

/**
 * The signatures of signed writes seen lately, oldest first. Every entry lives the same time (the
 * largest recvWindow plus the 1 s a timestamp may run ahead), so insertion order is expiry order and
 * forgetting is a walk from the front. The map is bounded: when it is full of live entries the
 * request is refused with -1003 rather than an entry forgotten early (which would let its replay in).
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly lifetimeMs: number, private readonly maxEntries: number) {}

  /** Returns how many signatures are remembered. */
  get size(): number {
    return this.seen.size;
  }

  /** Remembers `apiKey`'s `signature` at `now`; throws -1021 when it was seen within its window, -1003 when the memory is full. */
  admit(apiKey: string, signature: string, now: number): void {
    this.forget(now);
    const id = `${apiKey}:${signature.toLowerCase()}`;
    if (this.seen.has(id)) throw apiError(-1021);
    if (this.seen.size >= this.maxEntries) {
      const e = apiError(-1003, this.maxEntries, `${this.lifetimeMs} ms (signed writes)`);
      throw new ApiError(e.code, e.msg, 429, { 'Retry-After': '1' });
    }
    this.seen.set(id, now + this.lifetimeMs);
  }

  private forget(now: number): void {
    for (const [id, until] of this.seen) {
      if (until > now) return;
      this.seen.delete(id);
    }
  }
}
