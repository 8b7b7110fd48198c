/**
 * The order latencies of a parity backtest, from the recorded request and response times. Each order,
 * and each cancel, of the strategy's sequence has a live twin: the live order of the same side, price
 * and size the live bot sent nearest in time (within 100 ms), else the order of the same place in the
 * sequence. Sent within 100 ms of its twin, it reaches the backtest exchange when the twin reached the
 * venue; sent at another time, after the twin's entry latency. Orders without a twin take the recorded
 * round trips' (latest trip before); reports come back as the user stream brought the live ones
 * (streamDelay), and no earlier than `heldUntil` says (a stall of the live run, stalls.ts).
 */
import { recordedLatency, type LatencyModel, type RecordedRoundTrip } from '../../backtest/exchange/latency.ts';
import { bookSideOf, type OrderRequest } from '../../backtest/exchange/types.ts';
import { Decimal } from '../../core/fixed.ts';
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
export function parityLatency(
  trips: readonly RecordedRoundTrip[], byOrder: ReadonlyMap<string, OrderTrips>, reports: readonly { ts: number; recvTs: number }[] = [],
  afterItsMs: ReadonlySet<string> = new Set(), keys: ReadonlyMap<string, string> = new Map(), refused: ReadonlyMap<string, number> = new Map(),
  heldUntil: (t: number) => number | undefined = () => undefined,
): LatencyModel {
  const fallback = recordedLatency(trips);
  const pushed = reports.filter((r) => r.recvTs >= r.ts);
  const stream = pushed.length > 0 ? streamDelay(pushed) : (t: number) => fallback.response(t);
  const bySeq = new Map<number, string>();
  // Live orders by side, price and size, in the order sent.
  const byKey = new Map<string, string[]>();
  for (const [id, t] of byOrder) {
    const n = orderSeq(id);
    if (n !== undefined) bySeq.set(n, id);
    const k = keys.get(id);
    if (k !== undefined && t.place !== undefined) byKey.set(k, [...(byKey.get(k) ?? []), id]);
  }
  // Each live order is the twin of one backtest order at most; bounded by the live orders.
  const used = new Set<string>();
  const twinOf = new Map<string, string>();
  const sameOrder = (now: number, request: OrderRequest | undefined): string | undefined => {
    if (request === undefined) return undefined;
    let best: string | undefined;
    let gap = SAME_DECISION_MS;
    for (const id of byKey.get(orderKey(bookSideOf(request.side) === 0, request.priceTicks, request.lots)) ?? []) {
      const d = Math.abs(byOrder.get(id)!.place!.request - now);
      if (!used.has(id) && d <= gap) {
        best = id;
        gap = d;
      }
    }
    return best;
  };
  return {
    entry: (now, order) => {
      if (order === undefined) return fallback.entry(now);
      let id = twinOf.get(order.clientOrderId);
      if (order.op === 'place') {
        id = sameOrder(now, order.request);
        if (id !== undefined) {
          used.add(id);
          twinOf.set(order.clientOrderId, id);
        }
      }
      // Without an order of the same side, price and size sent with it (the sequences drifted apart), the order of the same place.
      if (id === undefined) {
        const n = orderSeq(order.clientOrderId);
        id = n === undefined ? undefined : bySeq.get(n);
      }
      const t = id === undefined ? undefined : byOrder.get(id)?.[order.op];
      if (t === undefined) return fallback.entry(now);
      // A refused call carries no venue stamp: a refused post-only order arrives right after the recorded book that crossed it
      // (`refused`, refusals.ts), any other when its answer left the venue (after whatever refused it).
      // An order that traded after others' trades of the millisecond it reached the venue in arrives after that millisecond's
      // recorded events too (the exchange takes the events of a millisecond before an order arriving in it).
      const arrived = t.exchange === undefined ? (order.op === 'place' ? refused.get(id!) : undefined) ?? t.response : t.exchange + (order.op === 'place' && afterItsMs.has(id!) ? 1 : 0);
      // The same decision (sent within one timer period of the live one): it reaches the exchange when the live one reached the
      // venue, the live bot's own lag (a late timer on a busy event loop) included; another decision meets its twin's latency.
      return Math.abs(t.request - now) <= SAME_DECISION_MS ? Math.max(0, arrived - now) : arrived - t.request;
    },
    response: (now) => {
      const d = stream(now);
      const until = heldUntil(now);
      return until === undefined ? d : Math.max(d, until - now);
    },
  };
}

/**
 * Returns the delay of a report the backtest makes at venue time t, from the live user stream's reports
 * (venue time `ts`, read at `recvTs`): the smaller of the delays the live reports just before and just
 * after t had, and never before the live report just before t was read (the stream is read in order: a
 * stall that held that report held anything made after it until it was read). Taking the delay of the
 * report before alone carried a stall's delay (100 ms on a loaded machine) to reports made after it ended.
 */
export function streamDelay(reports: readonly { ts: number; recvTs: number }[]): (t: number) => number {
  const sorted = [...reports].sort((a, b) => a.ts - b.ts);
  return (t) => {
    // The first report made after t.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.ts <= t) lo = mid + 1;
      else hi = mid;
    }
    const before = lo > 0 ? sorted[lo - 1]! : undefined;
    const after = lo < sorted.length ? sorted[lo]! : undefined;
    const delay = Math.min(before === undefined ? Infinity : before.recvTs - before.ts, after === undefined ? Infinity : after.recvTs - after.ts);
    return Math.max(delay, before === undefined ? 0 : before.recvTs - t);
  };
}

/** Returns what tells an order apart across the two runs: its side, limit price (ticks) and size (lots). */
export function orderKey(buy: boolean, priceTicks: number, lots: number): string {
  return `${buy ? 'B' : 'S'}|${priceTicks}|${lots}`;
}

/** A recorded public trade: its id, venue time (ms), price and the side that took. */
export interface PublicTrade {
  readonly tradeId: string;
  readonly ts: number;
  readonly price: string;
  readonly takerSide: 'BUY' | 'SELL';
}

/** A live order as the venue took it: its venue time (ms), side and limit price. */
export interface PlacedOrder {
  readonly clientOrderId: string;
  readonly ms: number;
  readonly buy: boolean;
  readonly price: string | undefined;
}

/**
 * Returns the live orders that reached the venue after others' trades of the same millisecond. The venue
 * numbers trades in the order it made them: a recorded trade of that millisecond with a lower id than the
 * order's first taker fill came first. And a trade of that millisecond that went through the order's price
 * from the other side without filling it came first too (after, it would have traded with the order).
 * `fills` are the bot's own order reports (user stream; those with a trade id are fills), `trades` the recorded
 * public trades without its taker fills.
 */
export function ordersAfterTradesOfTheirMs(
  orders: readonly PlacedOrder[], fills: readonly { clientOrderId: string; tradeId: string | undefined; maker: boolean; ts: number }[], trades: Iterable<PublicTrade>,
): Set<string> {
  const first = new Map<string, bigint>();
  const filledAt = new Map<string, Set<number>>();
  for (const f of fills) {
    // Reports without a trade are no fills.
    if (f.tradeId === undefined || !/^\d+$/.test(f.tradeId)) continue;
    filledAt.set(f.clientOrderId, (filledAt.get(f.clientOrderId) ?? new Set()).add(f.ts));
    // A taker fill is made as the order arrives; a maker fill comes later and says nothing of the arrival.
    if (f.maker) continue;
    const id = BigInt(f.tradeId);
    const had = first.get(f.clientOrderId);
    if (had === undefined || id < had) first.set(f.clientOrderId, id);
  }
  const byMs = new Map<number, PlacedOrder[]>();
  for (const o of orders) byMs.set(o.ms, [...(byMs.get(o.ms) ?? []), o]);
  const out = new Set<string>();
  for (const t of trades) {
    const here = byMs.get(t.ts);
    if (here === undefined) continue;
    for (const o of here) {
      const taker = first.get(o.clientOrderId);
      if (taker !== undefined) {
        if (/^\d+$/.test(t.tradeId) && BigInt(t.tradeId) < taker) out.add(o.clientOrderId);
        continue;
      }
      // A buy taking at or above a resting sell's price, or a sell at or below a resting buy's, would have filled it.
      const through = o.price !== undefined && (o.buy ? t.takerSide === 'SELL' && new Decimal(t.price).lte(o.price) : t.takerSide === 'BUY' && new Decimal(t.price).gte(o.price));
      if (through && filledAt.get(o.clientOrderId)?.has(t.ts) !== true) out.add(o.clientOrderId);
    }
  }
  return out;
}
