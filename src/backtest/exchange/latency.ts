/**
 * Order latency models of the backtest exchange: per order, how long it takes to reach the exchange
 * (entry) and for its report to come back (response), in ms. Drawn latencies use the backtest
 * layer's link latencies (latency.ts: constant, uniform, or base plus an exponential tail, seeded);
 * recorded ones replay measured round trips.
 */
import { Rng } from '../../core/random.ts';
import { Latency, type LatencySpec } from '../latency.ts';
import type { OrderRequest } from './types.ts';

/** The order (or the cancel of an order) a latency is asked for. */
export interface OrderRef {
  readonly clientOrderId: string;
  readonly op: 'place' | 'cancel';
  /** The order itself, when placed (a model may tell it apart by side, price and size). */
  readonly request?: OrderRequest;
}

/** A latency model, asked once per order at the local time it is sent and once per report at the exchange time it is made. */
export interface LatencyModel {
  /** Returns the entry latency of an order or cancel sent at local time `now` (which one it is, for a model that knows each order's own). */
  entry(now: number, order?: OrderRef): number;
  /** Returns the response latency of a report made at exchange time `now`. */
  response(now: number): number;
}

/**
 * Returns a model drawing entry and response latencies from their specs with generators seeded from `seed` (the same seed gives the same run).
 * `key` is where the specs were given (a config's `backtest.latency`): a bad spec is refused naming it.
 */
export function linkLatency(entry: LatencySpec, response: LatencySpec, seed = 0, key = 'latency'): LatencyModel {
  const e = new Latency(entry, new Rng(seed ^ 0x1a7e01), `${key}.entry`);
  const r = new Latency(response, new Rng(seed ^ 0x1a7e02), `${key}.response`);
  return { entry: () => e.next(), response: () => r.next() };
}

/** Returns a model with fixed entry and response latencies. */
export function constantLatency(entryMs: number, responseMs: number): LatencyModel {
  return linkLatency(entryMs, responseMs);
}

/** One recorded round trip: when the request left, when the exchange stamped it, when the answer came back (ms). */
export interface RecordedRoundTrip {
  readonly request: number;
  readonly exchange: number;
  readonly response: number;
}

/**
 * Returns a model that replays recorded round trips: an order sent at local time `now` takes the
 * entry latency of the latest trip sent at or before `now`, and a report made at exchange time `t`
 * the response latency of the latest trip the exchange stamped at or before `t` (the first trip
 * stands in before any).
 */
export function recordedLatency(trips: readonly RecordedRoundTrip[]): LatencyModel {
  if (trips.length === 0) throw new Error('recorded latency needs at least one round trip');
  trips.forEach((t, i) => {
    if (!(t.exchange >= t.request && t.response >= t.exchange)) throw new Error(`recorded latency trip ${i} must have request <= exchange <= response`);
  });
  const bySent = [...trips].sort((a, b) => a.request - b.request);
  const byStamp = [...trips].sort((a, b) => a.exchange - b.exchange);
  return {
    entry: (now) => {
      const t = latestAtOrBefore(bySent, now, (x) => x.request);
      return t.exchange - t.request;
    },
    response: (now) => {
      const t = latestAtOrBefore(byStamp, now, (x) => x.exchange);
      return t.response - t.exchange;
    },
  };
}

/** Returns the last element of `sorted` whose key is at or before `now` (the first when none is). */
function latestAtOrBefore<T>(sorted: readonly T[], now: number, key: (x: T) => number): T {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (key(sorted[mid]!) <= now) lo = mid;
    else hi = mid - 1;
  }
  return sorted[lo]!;
}
