/** Fault injection, off by default: dropped sockets, delayed and reordered user-stream events, duplicated user-stream events, dropped and swapped diffDepth pushes, 5xx and 504 around orders, latency, 429 storms. */
import type { Rng } from '../../core/random.ts';
import { z } from 'zod';

/** When a fault fires: on the next `count` occasions, then on each occasion with probability `rate`. */
const trigger = z.strictObject({
  count: z.number().int().min(0).default(0),
  rate: z.number().min(0).max(1).default(0),
});
export type Trigger = z.infer<typeof trigger>;

const off = (): Trigger => ({ count: 0, rate: 0 });

/** The fault settings of config/venue.yaml's `faults` and of POST /admin/faults. */
export const faultSchema = z.strictObject({
  /** Added to every REST answer, in ms. */
  latencyMs: z.number().int().min(0).max(60_000).default(0),
  /** 500 -1001 on a new order before the engine saw it (nothing happened). */
  orderErrorBefore: trigger.default(off),
  /** 500 -1001 on a new order after the engine took it (the order exists). */
  orderErrorAfter: trigger.default(off),
  /** 504 -1007 on a new order after the engine took it (the order exists). */
  orderTimeoutAfter: trigger.default(off),
  /** 429 -1003 on any REST request, as a storm would. */
  rateLimitStorm: trigger.default(off),
  /** Each WebSocket push may instead drop the connection without a close frame. */
  dropWebSocket: trigger.default(off),
  /** User-stream events are held back this long before they are sent, in ms. */
  userStreamDelayMs: z.number().int().min(0).max(600_000).default(0),
  /** A user-stream event may be held and sent after the next one. */
  userStreamReorder: trigger.default(off),
  /** A user-stream event may be sent twice (a duplicated report). */
  userStreamDuplicate: trigger.default(off),
  /** How long a held user-stream event waits for a next one before it is sent alone, in ms of the venue's clock. */
  userStreamReorderHoldMs: z.number().int().min(1).max(600_000).default(200),
  /** A diffDepth push to one subscriber is not sent (its version is used up, so the subscriber sees a gap). */
  marketDiffDrop: trigger.default(off),
  /** A diffDepth push to one subscriber is held and sent after the next one (or alone at the next diff cadence). */
  marketDiffReorder: trigger.default(off),
});
export type FaultSettings = z.infer<typeof faultSchema>;
export type FaultSettingsInput = z.input<typeof faultSchema>;

export type FaultKind =
  | 'orderErrorBefore' | 'orderErrorAfter' | 'orderTimeoutAfter' | 'rateLimitStorm' | 'dropWebSocket' | 'userStreamReorder' | 'userStreamDuplicate' | 'marketDiffDrop' | 'marketDiffReorder';

/** Holds the live fault settings and decides, deterministically for a seed, when each fires. */
export class Faults {
  private s: FaultSettings;
  /** How many times each fault fired, for the admin route and tests. */
  readonly fired: Record<FaultKind, number> = {
    orderErrorBefore: 0, orderErrorAfter: 0, orderTimeoutAfter: 0, rateLimitStorm: 0, dropWebSocket: 0, userStreamReorder: 0, userStreamDuplicate: 0, marketDiffDrop: 0, marketDiffReorder: 0,
  };

  constructor(private readonly rng: Rng, initial: FaultSettingsInput = {}) {
    this.s = faultSchema.parse(initial);
  }

  /** Returns the current settings. */
  get settings(): FaultSettings {
    return this.s;
  }

  /** Replaces the settings with `input` (absent keys fall back to off); throws a ZodError on bad input. */
  set(input: unknown): FaultSettings {
    this.s = faultSchema.parse(input);
    return this.s;
  }

  /** Returns true when the fault `kind` fires on this occasion, using up one of its counted shots. */
  fires(kind: FaultKind): boolean {
    const t = this.s[kind];
    if (t.count > 0) {
      t.count -= 1;
      this.fired[kind] += 1;
      return true;
    }
    if (t.rate > 0 && this.rng.chance(t.rate)) {
      this.fired[kind] += 1;
      return true;
    }
    return false;
  }

  /** Returns true when any fault is set, so the hot path can skip the checks. */
  any(): boolean {
    const s = this.s;
    const on = (t: Trigger): boolean => t.count > 0 || t.rate > 0;
    return s.latencyMs > 0 || on(s.orderErrorBefore) || on(s.orderErrorAfter) || on(s.orderTimeoutAfter) || on(s.rateLimitStorm);
  }
}
