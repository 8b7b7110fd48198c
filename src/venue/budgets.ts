/** Rate budgets: REQUEST_WEIGHT per minute and ORDERS per second and per day, on the injected clock, with 429 pauses and 418 bans. */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { BannedError, BudgetExceededError, ConfigError } from '../core/errors.ts';
import { SlidingWindow } from '../core/sliding-window.ts';

/** The two budget kinds of venue-api.md (Limits). */
export type BudgetKind = 'REQUEST_WEIGHT' | 'ORDERS';

/** One entry of brokerInfo's `rateLimits` as any edition sent it. */
export interface RateLimitSpec {
  /** REQUEST_WEIGHT, or REQUESTS_WEIGHT as one enum table spells it, or ORDERS. */
  rateLimitType: string;
  interval: string;
  limit: number | string;
  /** Bitflex edition: how many intervals one window spans (1 when absent). */
  intervalUnit?: number | string;
}

/** venue-notes.md §5 sample limits: used until brokerInfo's rateLimits are loaded. */
export const DEFAULT_RATE_LIMITS: readonly RateLimitSpec[] = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 1500 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 20 },
  { rateLimitType: 'ORDERS', interval: 'DAY', limit: 350000 },
];

const INTERVAL_MS: Record<string, number> = { SECOND: 1_000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000 };

/** Returns the budget kind for a rateLimitType, accepting both spellings of request weight. */
export function budgetKindOf(rateLimitType: string): BudgetKind {
  switch (rateLimitType) {
    case 'REQUEST_WEIGHT':
    case 'REQUESTS_WEIGHT':
      return 'REQUEST_WEIGHT';
    case 'ORDERS':
      return 'ORDERS';
    default:
      throw new ConfigError('rateLimits.rateLimitType', `must be REQUEST_WEIGHT, REQUESTS_WEIGHT or ORDERS, got ${rateLimitType}`);
  }
}

function windowOf(spec: RateLimitSpec, i: number): { kind: BudgetKind; window: SlidingWindow } {
  const kind = budgetKindOf(spec.rateLimitType);
  const base = INTERVAL_MS[spec.interval];
  if (base === undefined) throw new ConfigError(`rateLimits[${i}].interval`, `must be SECOND, MINUTE, HOUR or DAY, got ${spec.interval}`);
  const unit = spec.intervalUnit === undefined ? 1 : Number(spec.intervalUnit);
  const limit = Number(spec.limit);
  if (!Number.isInteger(unit) || unit < 1) throw new ConfigError(`rateLimits[${i}].intervalUnit`, `must be a positive integer, got ${String(spec.intervalUnit)}`);
  if (!Number.isInteger(limit) || limit < 1) throw new ConfigError(`rateLimits[${i}].limit`, `must be a positive integer, got ${String(spec.limit)}`);
  return { kind, window: new SlidingWindow(base * unit, limit, `${kind}/${unit === 1 ? '' : unit}${spec.interval}`) };
}

/** What one request costs. */
export interface Charge {
  weight: number;
  /** New orders this request places (counts against ORDERS). */
  orders: number;
  /** Signed requests stop during an IP ban. */
  signed: boolean;
}

/** What the budgets report, for logs, metrics and tests. */
export type BudgetEvent =
  | { type: 'queued'; charge: Charge; waitMs: number }
  | { type: 'sent'; charge: Charge; at: number }
  | { type: 'paused'; kind: BudgetKind; until: number }
  | { type: 'banned'; until: number };

export interface BudgetOptions {
  /** 'wait' (default): a request waits for budget; 'fail-fast': it throws BudgetExceededError instead. */
  mode?: 'wait' | 'fail-fast';
  /** First back-off after a 429 without Retry-After; doubles per consecutive 429 up to maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Ban length when a 418 carries no Retry-After (venue-api.md: bans start at 2 minutes). */
  defaultBanMs?: number;
}

interface Waiter {
  charge: Charge;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Longest wait for the answer of the probe sent after a 429 pause. */
const PROBE_MS = 5_000;

/** The client's rate budgets. Requests go out in the order asked, each as soon as every budget it draws on has room. */
export class RateBudgets {
  private windows: { kind: BudgetKind; window: SlidingWindow }[] = [];
  private readonly pausedUntil: Record<BudgetKind, number> = { REQUEST_WEIGHT: 0, ORDERS: 0 };
  private readonly strikes: Record<BudgetKind, number> = { REQUEST_WEIGHT: 0, ORDERS: 0 };
  private banEnd = 0;
  /**
   * After a 429 pause the first request goes alone (a probe) and the rest wait for its answer: requests
   * released together would reach the venue while it may still count the wait, and earn a 418.
   */
  private probe: 'none' | 'armed' | 'inflight' = 'none';
  private probeAt = 0;
  private readonly queue: Waiter[] = [];
  private timer: TimerHandle | undefined;
  private readonly listeners = new Set<(ev: BudgetEvent) => void>();
  private readonly mode: 'wait' | 'fail-fast';
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly defaultBanMs: number;

  constructor(private readonly clock: Clock, limits: readonly RateLimitSpec[] = DEFAULT_RATE_LIMITS, opts: BudgetOptions = {}) {
    this.mode = opts.mode ?? 'wait';
    this.baseBackoffMs = opts.baseBackoffMs ?? 1_000;
    this.maxBackoffMs = opts.maxBackoffMs ?? 60_000;
    this.defaultBanMs = opts.defaultBanMs ?? 120_000;
    this.setLimits(limits);
  }

  /** Replaces the limits (e.g. from brokerInfo's rateLimits); what was already charged in the last window carries over. */
  setLimits(limits: readonly RateLimitSpec[]): void {
    const next = limits.map(windowOf);
    for (const n of next) {
      const old = this.windows.find((w) => w.kind === n.kind && w.window.windowMs === n.window.windowMs);
      if (old) n.window.inherit(old.window);
    }
    this.windows = next;
    this.pump();
  }

  /** Returns the current limits as `name → limit`, e.g. `ORDERS/SECOND → 20`. */
  describe(): Record<string, number> {
    return Object.fromEntries(this.windows.map((w) => [w.window.name, w.window.limit]));
  }

  /** Subscribes to budget events; returns the unsubscribe function. */
  on(listener: (ev: BudgetEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Returns the ban end (epoch ms on this clock) while a 418 ban lasts, else undefined. */
  bannedUntil(): number | undefined {
    return this.banEnd > this.clock.now() ? this.banEnd : undefined;
  }

  /** Resolves when the request may be sent, having charged it; throws BannedError or (fail-fast) BudgetExceededError. */
  acquire(charge: Charge): Promise<void> {
    try {
      return this.tryAcquire(charge);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * Charges the request and returns true when it may go at once (nothing waits before it and every
   * budget has room); returns false, charging nothing, when it has to go through acquire. Throws BannedError during a ban.
   */
  tryCharge(charge: Charge): boolean {
    const now = this.clock.now();
    this.throwIfBanned(charge, now);
    if (this.queue.length > 0 || this.waitFor(charge, now).ms > 0) return false;
    this.charge(charge, now);
    return true;
  }

  private tryAcquire(charge: Charge): Promise<void> {
    this.throwIfBanned(charge);
    if (this.queue.length === 0) {
      const wait = this.waitFor(charge);
      if (wait.ms === 0) {
        this.charge(charge);
        return Promise.resolve();
      }
      if (this.mode === 'fail-fast') return Promise.reject(new BudgetExceededError(wait.budget, wait.ms));
      this.emit({ type: 'queued', charge, waitMs: wait.ms });
    } else if (this.mode === 'fail-fast') {
      return Promise.reject(new BudgetExceededError('queue', this.waitFor(charge).ms));
    } else {
      this.emit({ type: 'queued', charge, waitMs: this.waitFor(charge).ms });
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ charge, resolve, reject });
      this.pump();
    });
  }

  /** Records a 429 on `kind`: pauses it for Retry-After, else for an exponential back-off. Returns the pause in ms. */
  rateLimited(kind: BudgetKind, retryAfterMs: number | undefined): number {
    const strikes = ++this.strikes[kind];
    const pause = retryAfterMs ?? Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** (strikes - 1));
    const until = this.clock.now() + pause;
    if (until > this.pausedUntil[kind]) this.pausedUntil[kind] = until;
    if (kind === 'REQUEST_WEIGHT') this.probe = 'armed';
    this.emit({ type: 'paused', kind, until: this.pausedUntil[kind] });
    this.pump();
    return pause;
  }

  /** Records that a request sent through the budgets got an answer or failed: a probe after a 429 lets the others go (a 429 arms a new one). */
  answered(): void {
    if (this.probe !== 'inflight') return;
    this.probe = 'none';
    this.pump();
  }

  /** Records an answer that was not a 429, which ends the back-off streak of the kinds it drew on. */
  succeeded(charge: Charge): void {
    this.strikes.REQUEST_WEIGHT = 0;
    if (charge.orders > 0) this.strikes.ORDERS = 0;
  }

  /** Records a 418: signed requests stop until the ban ends (Retry-After when sent). Returns the ban end. */
  banned(retryAfterMs: number | undefined): number {
    const until = this.clock.now() + (retryAfterMs ?? this.defaultBanMs);
    if (until > this.banEnd) this.banEnd = until;
    this.emit({ type: 'banned', until: this.banEnd });
    this.pump();
    return this.banEnd;
  }

  /** Rejects every waiting request (on close). */
  close(err: unknown): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (const w of this.queue.splice(0)) w.reject(err);
  }

  private throwIfBanned(charge: Charge, now = this.clock.now()): void {
    if (charge.signed && this.banEnd > now) {
      throw new BannedError(`IP banned by the venue (HTTP 418) until ${this.banEnd}`, this.banEnd);
    }
  }

  private waitFor(charge: Charge, now = this.clock.now()): { ms: number; budget: string } {
    // While a probe is out, wait for its answer (answered() pumps); a probe never answered frees the rest after PROBE_MS.
    if (this.probe === 'inflight') {
      if (now - this.probeAt < PROBE_MS) return { ms: PROBE_MS - (now - this.probeAt), budget: 'REQUEST_WEIGHT (probe after 429 in flight)' };
      this.probe = 'none';
    }
    let ms = Math.max(0, this.pausedUntil.REQUEST_WEIGHT - now);
    let budget = ms > 0 ? 'REQUEST_WEIGHT (paused after 429)' : '';
    if (charge.orders > 0 && this.pausedUntil.ORDERS - now > ms) {
      ms = this.pausedUntil.ORDERS - now;
      budget = 'ORDERS (paused after 429)';
    }
    for (const { kind, window } of this.windows) {
      const cost = kind === 'ORDERS' ? charge.orders : charge.weight;
      if (cost === 0) continue;
      if (cost > window.limit) throw new BudgetExceededError(`${window.name} (cost ${cost} above limit ${window.limit})`, Infinity);
      const w = window.waitFor(cost, now);
      if (w > ms) {
        ms = w;
        budget = window.name;
      }
    }
    return { ms, budget };
  }

  private charge(charge: Charge, now = this.clock.now()): void {
    if (this.probe === 'armed') {
      this.probe = 'inflight';
      this.probeAt = now;
    }
    for (const { kind, window } of this.windows) {
      const cost = kind === 'ORDERS' ? charge.orders : charge.weight;
      if (cost > 0) window.charge(cost, now);
    }
    // The hot path builds no event nobody listens to.
    if (this.listeners.size > 0) this.emit({ type: 'sent', charge, at: now });
  }

  /**
   * Releases waiters in order. Orders and other requests are two lanes: an order held back (by
   * ORDERS or a pause) holds back the orders behind it but not reads, so a paused ORDERS budget
   * never stalls queries; a held-back read holds back everything behind it.
   */
  private pump(): void {
    this.timer?.cancel();
    this.timer = undefined;
    let ordersHeld = false;
    let allHeld = false;
    let nextMs = Infinity;
    for (let i = 0; i < this.queue.length && !allHeld; ) {
      const w = this.queue[i]!;
      const isOrder = w.charge.orders > 0;
      if (isOrder && ordersHeld) {
        i++;
        continue;
      }
      try {
        this.throwIfBanned(w.charge);
        const wait = this.waitFor(w.charge);
        if (wait.ms > 0) {
          nextMs = Math.min(nextMs, wait.ms);
          if (isOrder) ordersHeld = true;
          else allHeld = true;
          i++;
          continue;
        }
        this.queue.splice(i, 1);
        this.charge(w.charge);
        w.resolve();
      } catch (err) {
        this.queue.splice(i, 1);
        w.reject(err);
      }
    }
    if (nextMs < Infinity) this.timer = this.clock.setTimeout(() => this.pump(), nextMs);
  }

  private emit(ev: BudgetEvent): void {
    for (const l of this.listeners) l(ev);
  }
}
