/**
 * The order latencies of a parity backtest: each order, and each cancel, reaches the backtest exchange
 * after the entry latency its live twin (the order of the same place in the strategy's sequence) met;
 * orders without a twin take the recorded round trips' (latest trip before), reports the user stream's.
 */
import { recordedLatency, type LatencyModel, type RecordedRoundTrip } from '../../backtest/exchange/latency.ts';
import { orderSeq } from './compare.ts';
import type { OrderTrips } from './journal.ts';

/**
 * Returns the model; `trips` must hold at least one round trip. `reports` are the user stream's order
 * reports (venue time `ts`, received at `recvTs`): a report made at exchange time t reaches the bot
 * after the delay of the latest one the venue made at or before t, as the bot learns of its fills
 * from the user stream (without any, the REST answers' way back stands in).
 */
export function parityLatency(trips: readonly RecordedRoundTrip[], byOrder: ReadonlyMap<string, OrderTrips>, reports: readonly { ts: number; recvTs: number }[] = []): LatencyModel {
  const fallback = recordedLatency(trips);
  const pushed = reports.filter((r) => r.recvTs >= r.ts).map((r) => ({ request: r.ts, exchange: r.ts, response: r.recvTs }));
  const stream = pushed.length > 0 ? recordedLatency(pushed) : fallback;
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
    response: (now) => stream.response(now),
  };
}
