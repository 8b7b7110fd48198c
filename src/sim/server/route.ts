/** The shape of one REST endpoint of the simulated venue: method, canonical path, security, weight and handler. */
import type { KeyRecord, Security } from './auth.ts';
import type { Params } from './params.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler is given: typed parameters, the caller's key on signed routes, the clock time and address. */
export interface Ctx {
  readonly p: Params;
  /** Set on every route whose security is not NONE. */
  readonly key: KeyRecord | undefined;
  readonly now: number;
  readonly ip: string;
  /** The request path as sent (before canonicalisation). */
  readonly path: string;
}

/** One endpoint. `handle` returns the JSON value to send, or throws an ApiError / VenueError. */
export interface Route {
  readonly method: Method;
  /** Canonical path (see paths.ts), e.g. `main:order`, `contract:order/cancel`, `quote:depth`. */
  readonly path: string;
  readonly security: Security;
  readonly weight: number;
  /** A new order: counted against ORDERS and subject to order faults. */
  readonly order?: boolean;
  readonly handle: (ctx: Ctx) => unknown;
}

/** Returns the key of a signed route's context; throws when a route marked NONE asks for it (a programming error). */
export function keyOf(ctx: Ctx): KeyRecord {
  if (!ctx.key) throw new Error('route needs a signed request');
  return ctx.key;
}
