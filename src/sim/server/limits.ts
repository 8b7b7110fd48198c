/** Request-weight and ORDERS limits on the injected clock, and the growing IP ban for clients that ignore 429. */
import type { Clock } from '../../core/clock.ts';
import { ApiError, apiError } from './errors.ts';

export type LimitType = 'REQUEST_WEIGHT' | 'ORDERS';
export type LimitInterval = 'SECOND' | 'MINUTE' | 'DAY';

/** One line of brokerInfo's rateLimits. */
export interface RateLimitRule {
  readonly rateLimitType: LimitType;
  readonly interval: LimitInterval;
  readonly limit: number;
}

/** How long bans last: the first `minMs`, doubling per repeat offence up to `maxMs`, all times `scale`. */
export interface BanPolicy {
  readonly minMs: number;
  readonly maxMs: number;
  readonly scale: number;
}

export const DEFAULT_BAN_POLICY: BanPolicy = { minMs: 120_000, maxMs: 259_200_000, scale: 1 };

const INTERVAL_MS: Readonly<Record<LimitInterval, number>> = { SECOND: 1_000, MINUTE: 60_000, DAY: 86_400_000 };

/** Clients tracked before the first sweep of finished windows; each sweep sets the next at twice what it kept, so sweeping costs O(1) per request. */
const SWEEP_FROM = 1024;

interface Window {
  start: number;
  used: number;
}

interface Offender {
  /** Until when the last 429 told the client to wait. */
  limitedUntil: number;
  bannedUntil: number;
  offences: number;
}

/**
 * Fixed windows aligned on the interval (as the venue counts them): weight per client address,
 * orders per user. A request that arrives while its client still owes a wait after a 429 earns a ban
 * (418) of min·2^(n−1), capped at max, scaled by `scale`. A client whose windows have all ended is
 * forgotten (it would start from zero anyway), and an offender once its last ban ended `maxMs` ago,
 * so every address that ever called does not stay in memory.
 */
export class RateLimiter {
  private readonly weight = new Map<string, Window[]>();
  private readonly orders = new Map<string, Window[]>();
  private readonly offenders = new Map<string, Offender>();
  private readonly weightRules: RateLimitRule[];
  private readonly orderRules: RateLimitRule[];

  private banCount = 0;
  private sweepAt = SWEEP_FROM;

  constructor(private readonly clock: Clock, rules: readonly RateLimitRule[], private readonly bans: BanPolicy = DEFAULT_BAN_POLICY) {
    this.weightRules = rules.filter((r) => r.rateLimitType === 'REQUEST_WEIGHT');
    this.orderRules = rules.filter((r) => r.rateLimitType === 'ORDERS');
  }

  /** How many bans (418) were issued since start, for the admin audit. */
  get bansIssued(): number {
    return this.banCount;
  }

  /** Throws 418 when `client` is banned, or bans it now if it comes back before the wait of its last 429 ended. */
  checkBan(client: string): void {
    const o = this.offenders.get(client);
    if (!o) return;
    const now = this.clock.now();
    if (now < o.bannedUntil) throw banned(o.bannedUntil, now);
    if (now < o.limitedUntil) {
      o.offences += 1;
      const ms = Math.min(this.bans.maxMs, this.bans.minMs * 2 ** Math.min(o.offences - 1, 40)) * this.bans.scale;
      o.bannedUntil = now + Math.max(1, Math.round(ms));
      o.limitedUntil = 0;
      this.banCount += 1;
      throw banned(o.bannedUntil, now);
    }
  }

  /** Charges `weight` to `client`; throws 429 -1003 with Retry-After when a window would overflow. */
  chargeWeight(client: string, weight: number): void {
    if (weight <= 0 || this.weightRules.length === 0) return;
    this.charge(this.weight, this.weightRules, client, weight, client, -1003);
  }

  /** Counts one new order for `user`; throws 429 -1015 with Retry-After when a window would overflow. */
  chargeOrder(user: string, client: string): void {
    if (this.orderRules.length === 0) return;
    this.charge(this.orders, this.orderRules, user, 1, client, -1015);
  }

  /** Marks `client` as told to wait until `until` (used by injected 429 storms too). */
  markLimited(client: string, until: number): void {
    const o = this.offender(client);
    o.limitedUntil = Math.max(o.limitedUntil, until);
  }

  /** Returns how many clients and users the limiter holds windows or offences for. */
  get tracked(): number {
    return this.weight.size + this.orders.size + this.offenders.size;
  }

  /** Returns the current ban end of `client`, or 0. */
  bannedUntil(client: string): number {
    return this.offenders.get(client)?.bannedUntil ?? 0;
  }

  private charge(store: Map<string, Window[]>, rules: RateLimitRule[], key: string, amount: number, client: string, code: -1003 | -1015): void {
    const now = this.clock.now();
    let wins = store.get(key);
    if (!wins) {
      if (this.tracked >= this.sweepAt) this.sweep(now);
      wins = rules.map(() => ({ start: 0, used: 0 }));
      store.set(key, wins);
    }
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i]!;
      const w = wins[i]!;
      const len = INTERVAL_MS[r.interval];
      const start = now - (now % len);
      if (w.start !== start) {
        w.start = start;
        w.used = 0;
      }
      if (w.used + amount > r.limit) {
        const until = start + len;
        this.markLimited(client, until);
        throw limited(code, r, until - now);
      }
    }
    for (const w of wins) w.used += amount;
  }

  private sweep(now: number): void {
    const ended = (rules: RateLimitRule[], wins: Window[]): boolean => wins.every((w, i) => w.start + INTERVAL_MS[rules[i]!.interval] <= now);
    for (const [k, wins] of this.weight) if (ended(this.weightRules, wins)) this.weight.delete(k);
    for (const [k, wins] of this.orders) if (ended(this.orderRules, wins)) this.orders.delete(k);
    const memory = this.bans.maxMs * this.bans.scale;
    for (const [k, o] of this.offenders) if (now >= o.limitedUntil && now >= o.bannedUntil + memory) this.offenders.delete(k);
    this.sweepAt = Math.max(SWEEP_FROM, 2 * this.tracked);
  }

  private offender(client: string): Offender {
    let o = this.offenders.get(client);
    if (!o) {
      if (this.tracked >= this.sweepAt) this.sweep(this.clock.now());
      o = { limitedUntil: 0, bannedUntil: 0, offences: 0 };
      this.offenders.set(client, o);
    }
    return o;
  }
}

/** Returns Retry-After in whole seconds (at least 1) for a wait of `ms`. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

function limited(code: -1003 | -1015, r: RateLimitRule, waitMs: number): ApiError {
  const base = apiError(code, r.limit, r.interval.toLowerCase());
  return new ApiError(base.code, base.msg, 429, { 'Retry-After': retryAfterSeconds(waitMs) });
}

function banned(until: number, now: number): ApiError {
  const msg = `Way too many requests; IP banned until ${until}. Please use the websocket for live updates to avoid bans.`;
  return new ApiError(-1003, msg, 418, { 'Retry-After': retryAfterSeconds(until - now) });
}
