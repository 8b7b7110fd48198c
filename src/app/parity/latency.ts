/**
 * The order latencies of a parity backtest: each order, and each cancel, reaches the backtest exchange
 * after the entry latency its live twin (the order of the same place in the strategy's sequence) met;
 * orders without a twin, and every report, take the recorded round trips' (latest trip before).
 */
import { recordedLatency, type LatencyModel, type RecordedRoundTrip } from '../../backtest/exchange/latency.ts';
import { orderSeq } from './compare.ts';
import type { OrderTrips } from './journal.ts';

/** Returns the model; `trips` must hold at least one round trip. */
export function parityLatency(trips: readonly RecordedRoundTrip[], byOrder: ReadonlyMap<string, OrderTrips>): LatencyModel {
  const fallback = recordedLatency(trips);
  const responses = trips.map((t) => t.response - t.exchange).sort((a, b) => a - b);
  const typicalResponse = responses[Math.floor(responses.length / 2)] ?? 0;
  const bySeq = new Map<number, OrderTrips>();
  for (const [id, t] of byOrder) {
    const n = orderSeq(id);
    if (n !== undefined) bySeq.set(n, t);
  }
  return {
    entry: (now, order) => {
      const n = order === undefined ? undefined : orderSeq(order.clientOrderId);
      const t = n === undefined ? undefined : bySeq.get(n)?.[order!.op];
      if (t === undefined) return fallback.entry(now);
      // A refused call carries no venue stamp: its entry is the round trip less a typical answer's way back.
      return t.exchange !== undefined ? t.exchange - t.request : Math.max(0, t.response - t.request - typicalResponse);
    },
    response: (now) => fallback.response(now),
  };
}
