/** Order latency models: how long an order takes to reach the exchange (entry) and its report to come back (response), in ms. */
import { Rng } from '../../core/random.ts';

/** A latency model, asked once per order at the local time it is sent. */
export interface LatencyModel {
  /** Returns the entry latency of an order sent at local time `now`. */
  entry(now: number): number;
  /** Returns the response latency of a report made at exchange time `now`. */
  response(now: number): number;
}

/** Returns a model with fixed entry and response latencies. */
export function constantLatency(entryMs: number, responseMs: number): LatencyModel {
  for (const [k, v] of [['entry', entryMs], ['response', responseMs]] as const) {
    if (!Number.isFinite(v) || v < 0) throw new Error(`latency.${k} must be a non-negative number of ms, got ${v}`);
  }
  return { entry: () => entryMs, response: () => responseMs };
}

/** A distribution of latencies: lognormal by its median and sigma, or uniform between two bounds. */
export type LatencyDistribution = { kind: 'lognormal'; medianMs: number; sigma: number } | { kind: 'uniform'; minMs: number; maxMs: number };

/** Returns a model drawing entry and response latencies from `dist` with a seeded generator (the same seed gives the same run). */
export function sampledLatency(seed: number, entry: LatencyDistribution, response: LatencyDistribution): LatencyModel {
  const rng = new Rng(seed);
  const draw = (d: LatencyDistribution): number => {
    switch (d.kind) {
      case 'lognormal':
        return d.medianMs * Math.exp(d.sigma * rng.normal());
      case 'uniform':
        return d.minMs + (d.maxMs - d.minMs) * rng.next();
      default:
        throw new Error(`unknown latency distribution ${JSON.stringify(d satisfies never)}`);
    }
  };
  for (const d of [entry, response]) {
    if (d.kind === 'lognormal' && (!(d.medianMs >= 0) || !(d.sigma >= 0))) throw new Error('latency lognormal medianMs and sigma must be non-negative');
    if (d.kind === 'uniform' && !(d.minMs >= 0 && d.maxMs >= d.minMs)) throw new Error('latency uniform needs 0 <= minMs <= maxMs');
  }
  return { entry: () => draw(entry), response: () => draw(response) };
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
