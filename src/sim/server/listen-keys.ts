/** listenKeys of the user data stream: 64 letters from crypto randomness, valid 60 minutes, extended by keepalive, expired on the injected clock. */
import { randomBytes } from 'node:crypto';
import type { Clock, TimerHandle } from '../../core/clock.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

interface Entry {
  readonly userId: string;
  expiresAt: number;
  timer: TimerHandle;
}

/** Why a key stopped being valid: its time ran out, its owner closed it, or its owner made too many newer ones. */
export type KeyEndReason = 'expired' | 'closed' | 'superseded';

/** Valid listenKeys one owner may hold by default: a client that never closes its keys would otherwise add one entry and one timer per request for an hour. */
export const MAX_KEYS_PER_OWNER = 64;

/** The listenKeys issued and still valid. */
export class ListenKeys {
  private readonly keys = new Map<string, Entry>();
  /** Each owner's valid keys, oldest first. */
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly ended: ((key: string, why: KeyEndReason) => void)[] = [];

  /** `random` is crypto randomness (tests may pass their own); never the simulation's seeded Rng, or a client could compute another user's key. */
  constructor(
    private readonly clock: Clock,
    private readonly validityMs = 3_600_000,
    private readonly random: (n: number) => Buffer = randomBytes,
    private readonly maxPerOwner = MAX_KEYS_PER_OWNER,
  ) {}

  /** Returns how many keys are valid (for `userId`, or in all). */
  size(userId?: string): number {
    return userId === undefined ? this.keys.size : this.byOwner.get(userId)?.size ?? 0;
  }

  /** Returns a new listenKey for `userId`, valid for the validity period from now; past `maxPerOwner` valid keys the user's oldest one ends. */
  create(userId: string): string {
    let key = '';
    do key = randomLetters(64, this.random);
    while (this.keys.has(key));
    let mine = this.byOwner.get(userId);
    if (mine === undefined) this.byOwner.set(userId, (mine = new Set()));
    while (mine.size >= this.maxPerOwner) this.end(mine.values().next().value!, 'superseded');
    const expiresAt = this.clock.now() + this.validityMs;
    this.keys.set(key, { userId, expiresAt, timer: this.arm(key, this.validityMs) });
    mine.add(key);
    if (!this.byOwner.has(userId)) this.byOwner.set(userId, mine);
    return key;
  }

  /** Extends `key` by the validity period from now when it belongs to `userId`; returns false for an unknown key. */
  keepalive(key: string, userId: string): boolean {
    const e = this.keys.get(key);
    if (!e || e.userId !== userId) return false;
    e.timer.cancel();
    e.expiresAt = this.clock.now() + this.validityMs;
    e.timer = this.arm(key, this.validityMs);
    return true;
  }

  /** Closes `key` when it belongs to `userId`; returns false for an unknown key. */
  close(key: string, userId: string): boolean {
    const e = this.keys.get(key);
    if (!e || e.userId !== userId) return false;
    this.end(key, 'closed');
    return true;
  }

  /** Returns the user of a valid key, or undefined. */
  userOf(key: string): string | undefined {
    const e = this.keys.get(key);
    if (!e) return undefined;
    if (this.clock.now() >= e.expiresAt) {
      this.end(key, 'expired');
      return undefined;
    }
    return e.userId;
  }

  /** Returns when `key` expires, or undefined when it is not valid. */
  expiresAt(key: string): number | undefined {
    return this.userOf(key) === undefined ? undefined : this.keys.get(key)?.expiresAt;
  }

  /** Calls `fn` whenever a key expires or is closed. */
  onEnd(fn: (key: string, why: KeyEndReason) => void): void {
    this.ended.push(fn);
  }

  /** Expires every valid key now, as their validity running out would (the admin route's fault); returns how many. */
  expireAll(): number {
    const keys = [...this.keys.keys()];
    for (const key of keys) this.end(key, 'expired');
    return keys.length;
  }

  /** Cancels every timer (on shutdown). */
  dispose(): void {
    for (const e of this.keys.values()) e.timer.cancel();
    this.keys.clear();
    this.byOwner.clear();
  }

  private arm(key: string, ms: number): TimerHandle {
    return this.clock.setTimeout(() => this.end(key, 'expired'), ms);
  }

  private end(key: string, why: KeyEndReason): void {
    const e = this.keys.get(key);
    if (!e) return;
    e.timer.cancel();
    this.keys.delete(key);
    const mine = this.byOwner.get(e.userId);
    mine?.delete(key);
    if (mine?.size === 0) this.byOwner.delete(e.userId);
    for (const fn of this.ended) fn(key, why);
  }
}

/**
 * Returns `n` letters drawn uniformly from crypto bytes: a byte below 208 (4 × 52) picks LETTERS[b % 52],
 * others are redrawn, so no letter is likelier than another (64 letters carry 364 bits).
 */
export function randomLetters(n: number, random: (n: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < n) {
    for (const b of random(n)) {
      if (b < 208 && out.length < n) out += LETTERS[b % LETTERS.length];
    }
  }
  return out;
}
