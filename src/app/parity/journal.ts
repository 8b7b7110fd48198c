/** Reads a run's `orders` capture (src/data/capture/orders-journal.ts) into what a parity check needs: the orders placed, their round trips and the fills. */
import { CaptureReader, captureFiles } from '../../data/capture/index.ts';
import type { RecordedRoundTrip } from '../../backtest/exchange/latency.ts';
import type { OrderReport } from '../../model/gateway.ts';
import type { OrderUpdateEvent } from '../../model/events.ts';

/** One order the bot sent, as its request and the venue's first answer show it. */
export interface JournalOrder {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: string;
  readonly type: string;
  readonly timeInForce: string | undefined;
  readonly price: string | undefined;
  readonly quantity: string;
  /** Local time it was sent, ms. */
  readonly sentMs: number;
  /** Venue time of its answer, ms (undefined when it failed). */
  readonly venueMs: number | undefined;
}

/** One fill of the bot, as the user stream reported it (venue time). */
export interface JournalFill {
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly side: string;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  readonly feeAsset: string;
  readonly maker: boolean;
  /** Venue time, ms. */
  readonly time: number;
}

/** What the journal holds. */
export interface Journal {
  readonly orders: readonly JournalOrder[];
  readonly fills: readonly JournalFill[];
  /** Every order report of the user stream in the order received (fills among them). */
  readonly reports: readonly OrderUpdateEvent[];
  /** Place and cancel round trips that were answered: local send, venue stamp and local answer times, ms. */
  readonly trips: readonly RecordedRoundTrip[];
  /** Each order's own round trips by clientOrderId: its place and its cancel (an error answer has no venue stamp: `exchange` undefined). */
  readonly byOrder: ReadonlyMap<string, OrderTrips>;
  /** Lines that could not be read, with why. */
  readonly problems: readonly string[];
}

/** One call's round trip; `exchange` is undefined when the venue answered with an error (no stamp). */
export interface CallTrip {
  readonly request: number;
  readonly exchange: number | undefined;
  readonly response: number;
}

export interface OrderTrips {
  place?: CallTrip;
  cancel?: CallTrip;
}

interface Line {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly op?: unknown;
  readonly args?: unknown;
  readonly requestNs?: unknown;
  readonly report?: unknown;
}

const ms = (ns: bigint): number => Number(ns / 1_000_000n);

/** Reads every `orders` capture file of `dir`. */
export async function readJournal(dir: string): Promise<Journal> {
  const problems: string[] = [];
  const reader = new CaptureReader(await captureFiles(dir, 'orders'), { onIssue: (i) => problems.push(i.message) });
  const sent = new Map<number, { ns: bigint; args: Record<string, unknown> }>();
  const calls = new Map<number, { op: 'place' | 'cancel'; clientOrderId: string }>();
  const byOrder = new Map<string, OrderTrips>();
  const callTrip = (id: unknown, t: CallTrip): void => {
    const c = typeof id === 'number' ? calls.get(id) : undefined;
    if (c === undefined) return;
    calls.delete(id as number);
    const o = byOrder.get(c.clientOrderId) ?? {};
    // The first call of each kind is the order's own; a later one (a retry) is not the latency the order met.
    o[c.op] ??= t;
    byOrder.set(c.clientOrderId, o);
  };
  const orders: JournalOrder[] = [];
  const fills: JournalFill[] = [];
  const reports: OrderUpdateEvent[] = [];
  const trips: RecordedRoundTrip[] = [];
  for await (const r of reader.records()) {
    if (r.marker !== undefined) continue;
    let v: Line;
    try {
      v = JSON.parse(r.frame) as Line;
    } catch {
      problems.push(`orders line at ${r.ns} is not JSON; skipped`);
      continue;
    }
    switch (v.type) {
      case 'request': {
        if (typeof v.id !== 'number' || typeof v.args !== 'object' || v.args === null) break;
        const args = v.args as Record<string, unknown>;
        if (v.op === 'place') sent.set(v.id, { ns: r.ns, args });
        if ((v.op === 'place' || v.op === 'cancel') && typeof args['clientOrderId'] === 'string') calls.set(v.id, { op: v.op, clientOrderId: args['clientOrderId'] });
        break;
      }
      case 'answer': {
        const rep = v.report as OrderReport | undefined;
        if (typeof v.requestNs !== 'string' || rep === undefined || typeof rep.time !== 'number') break;
        const request = ms(BigInt(v.requestNs));
        const response = ms(r.ns);
        // The venue's stamp lies between send and answer on one clock; a clock step outside that is clamped so the trip stays ordered.
        const trip = { request, exchange: Math.min(Math.max(rep.time, request), response), response };
        trips.push(trip);
        callTrip(v.id, trip);
        const s = typeof v.id === 'number' ? sent.get(v.id) : undefined;
        if (s !== undefined) {
          sent.delete(v.id as number);
          orders.push(orderOf(s.args, ms(s.ns), rep.time));
        }
        break;
      }
      case 'error': {
        if (typeof v.requestNs === 'string') callTrip(v.id, { request: ms(BigInt(v.requestNs)), exchange: undefined, response: ms(r.ns) });
        const s = typeof v.id === 'number' ? sent.get(v.id) : undefined;
        if (s !== undefined) {
          sent.delete(v.id as number);
          orders.push(orderOf(s.args, ms(s.ns), undefined));
        }
        break;
      }
      case 'fill':
      case 'order': {
        // The line's `type` names the line; the report's order type is `orderType` (absent in recordings made before it was kept).
        const raw = v as unknown as OrderUpdateEvent & { orderType?: string };
        const ev: OrderUpdateEvent = { ...raw, type: (raw.orderType ?? '') as OrderUpdateEvent['type'] };
        reports.push(ev);
        if (v.type === 'fill') {
          fills.push({
            clientOrderId: ev.clientOrderId, orderId: ev.orderId, side: ev.side, price: ev.lastPrice, qty: ev.lastQty,
            fee: ev.fee, feeAsset: ev.feeAsset ?? '', maker: ev.maker, time: ev.ts,
          });
        }
        break;
      }
      default:
        problems.push(`orders line at ${r.ns} has an unknown type ${JSON.stringify(v.type)}; skipped`);
    }
  }
  // Requests never settled (the run stopped first) still were orders placed.
  for (const s of sent.values()) orders.push(orderOf(s.args, ms(s.ns), undefined));
  orders.sort((a, b) => a.sentMs - b.sentMs);
  return { orders, fills, reports, trips, byOrder, problems };
}

function orderOf(a: Record<string, unknown>, sentMs: number, venueMs: number | undefined): JournalOrder {
  const text = (k: string): string | undefined => (typeof a[k] === 'string' ? a[k] : undefined);
  return {
    clientOrderId: text('clientOrderId') ?? '', symbol: text('symbol') ?? '', side: text('side') ?? '', type: text('type') ?? text('orderType') ?? '',
    timeInForce: text('timeInForce'), price: text('price'), quantity: text('quantity') ?? '', sentMs, venueMs,
  };
}
