/**
 * The executor's own view of the venue's rate limits (brokerInfo rateLimits): ORDERS per second and per
 * day, REQUEST_WEIGHT per minute, and a pause after a 429. The REST client also waits on its budgets;
 * this one decides what goes first: a new order is only released while a reserve of weight stays free
 * for cancels and queries, so cancels pass ahead of new orders when the budget is tight.
 */
import { SlidingWindow } from '../core/sliding-window.ts';
import type { RateLimit } from '../model/index.ts';

/** What one command costs. */
export interface Cost {
  readonly weight: number;
  readonly orders: number;
}

const INTERVAL_MS: Readonly<Record<RateLimit['interval'], number>> = { SECOND: 1_000, MINUTE: 60_000, DAY: 86_400_000 };

/** Sample limits of venue-notes.md §5, used until brokerInfo's are applied. */
export const DEFAULT_LIMITS: readonly RateLimit[] = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 1500 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 20 },
  { rateLimitType: 'ORDERS', interval: 'DAY', limit: 350000 },
];

/** The executor's budget; see the module comment. */
export class ExecutorBudget {
  private weight: SlidingWindow[] = [];
  private orders: SlidingWindow[] = [];
  private pausedUntil = 0;
  private strikes = 0;

  constructor(
    limits: readonly RateLimit[] = DEFAULT_LIMITS,
    /** Share of each weight window kept free for cancels and queries (default 0.1). */
    private readonly reserveShare = 0.1,
    private readonly baseBackoffMs = 1_000,
    private readonly maxBackoffMs = 60_000,
  ) {
    this.setLimits(limits);
  }

  /** Replaces the limits (brokerInfo's rateLimits). */
  setLimits(limits: readonly RateLimit[]): void {
    const win = (l: RateLimit): SlidingWindow => new SlidingWindow(INTERVAL_MS[l.interval] * (l.intervalUnit ?? 1), l.limit, `${l.rateLimitType}/${l.interval}`);
    this.weight = limits.filter((l) => l.rateLimitType === 'REQUEST_WEIGHT').map(win);
    this.orders = limits.filter((l) => l.rateLimitType === 'ORDERS').map(win);
  }

  /** Returns ms until a command of `cost` may go (0: now). New orders (orders > 0) also leave the weight reserve free. */
  waitFor(cost: Cost, now: number): number {
    let ms = Math.max(0, this.pausedUntil - now);
    for (const w of this.weight) {
      const headroom = cost.orders > 0 ? Math.ceil(w.limit * this.reserveShare) : 0;
      ms = Math.max(ms, w.waitFor(cost.weight + headroom, now));
    }
    if (cost.orders > 0) for (const w of this.orders) ms = Math.max(ms, w.waitFor(cost.orders, now));
    return ms;
  }

  /** Records that a command of `cost` was sent. */
  charge(cost: Cost, now: number): void {
    for (const w of this.weight) w.charge(cost.weight, now);
    if (cost.orders > 0) for (const w of this.orders) w.charge(cost.orders, now);
  }

  /** Records a 429: pauses everything for Retry-After, else an exponential back-off; returns the pause in ms. */
  rateLimited(now: number, retryAfterMs: number | undefined): number {
    this.strikes += 1;
    const pause = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** (this.strikes - 1));
    this.pausedUntil = Math.max(this.pausedUntil, now + pause);
    return pause;
  }

  /** Records an answer that was not a 429. */
  succeeded(): void {
    this.strikes = 0;
  }
}
