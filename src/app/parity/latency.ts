/**
 * The order latencies of a parity backtest, from the recorded request and response times. Each order,
 * and each cancel, of the strategy's sequence has a live twin (the order of the same place): sent
 * within 100 ms of it, it reaches the backtest exchange when the twin reached the venue; sent at
 * another time, after the twin's entry latency. Orders without a twin take the recorded round trips'
 * (latest trip before); reports come back after the user stream's recorded delays.
 */
import { recordedLatency, type LatencyModel, type RecordedRoundTrip } from '../../backtest/exchange/latency.ts';
import { orderSeq } from './compare.ts';
import type { OrderTrips } from './journal.ts';

/** A backtest order sent this close to its live twin is taken for the same decision of the strategy. */
export const SAME_DECISION_MS = 100;

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
      // A refused call carries no venue stamp: it reached the venue a typical answer's way back before its answer, and
      // after what refused it (a book that had moved): it arrives after the recorded events of that millisecond.
      const arrived = t.exchange ?? Math.max(t.request, t.response - typicalResponse) + 1;
      // The same decision (sent within one timer period of the live one): it reaches the exchange when the live one reached the
      // venue, the live bot's own lag (a late timer on a busy event loop) included; another decision meets its twin's latency.
      return Math.abs(t.request - now) <= SAME_DECISION_MS ? Math.max(0, arrived - now) : arrived - t.request;
    },
    response: (now) => stream.response(now),
  };
}
