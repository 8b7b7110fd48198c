/**
 * When the live run's refused post-only orders reached the venue. A refused order carries no venue time,
 * only that the venue found the book crossing its price somewhere between the request and the answer;
 * the recording shows that crossing only at the next diff, cut up to a push after the venue saw it. The
 * order is taken to arrive right after the first recorded book that crosses it, if that comes by a
 * window after the answer; else when the answer left.
 */
import { Decimal } from '../../core/fixed.ts';
import { replay } from '../../data/replay.ts';

/** A live post-only order the venue refused: its side, limit price and round trip (ms). */
export interface RefusedOrder {
  readonly clientOrderId: string;
  readonly buy: boolean;
  readonly price: string;
  readonly request: number;
  readonly response: number;
}

/** How long after the answer a recorded crossing is still taken for the one that refused the order (two pushes at 50 ms). */
export const REFUSAL_WINDOW_MS = 100;

/** The recorded book's best prices at one venue time (ms). */
export interface BookTop {
  readonly t: number;
  readonly bid: string | undefined;
  readonly ask: string | undefined;
}

/** Returns each refused order's arrival time (ms, venue clock) from the recorded book of `symbol` in `catalog`. */
export async function refusedArrivals(catalog: string, symbol: string, orders: readonly RefusedOrder[]): Promise<Map<string, number>> {
  if (orders.length === 0) return new Map();
  const tops: BookTop[] = [];
  await replay({
    catalog, symbols: [symbol], tables: ['book_deltas'], snapshotEveryUpdate: true,
    sink: (ev, _localUs, exchangeUs) => {
      if (ev.kind === 'depthSnapshot') tops.push({ t: Math.floor(exchangeUs / 1000), bid: ev.bids[0]?.[0], ask: ev.asks[0]?.[0] });
    },
  });
  return arrivalsFromBook(orders, tops);
}

/** Returns each refused order's arrival time from the book's best prices in time order (see the file comment). */
export function arrivalsFromBook(orders: readonly RefusedOrder[], tops: Iterable<BookTop>): Map<string, number> {
  const out = new Map<string, number>();
  const waiting = [...orders].sort((a, b) => a.request - b.request);
  // Orders whose window is open: from their request to their answer plus the window.
  let open: RefusedOrder[] = [];
  let next = 0;
  let best: { bid: string | undefined; ask: string | undefined } = { bid: undefined, ask: undefined };
  const crosses = (o: RefusedOrder): boolean => {
    const opp = o.buy ? best.ask : best.bid;
    return opp !== undefined && (o.buy ? new Decimal(o.price).gte(opp) : new Decimal(o.price).lte(opp));
  };
  for (const top of tops) {
    const t = top.t;
    // Sent before this change: a book that crossed it already refused it as it arrived.
    while (next < waiting.length && waiting[next]!.request <= t) {
      const o = waiting[next++]!;
      if (crosses(o)) out.set(o.clientOrderId, o.request);
      else open.push(o);
    }
    best = { bid: top.bid, ask: top.ask };
    if (open.length === 0) continue;
    open = open.filter((o) => {
      if (t > o.response + REFUSAL_WINDOW_MS) return false;
      // After the events of that millisecond: the crossing came first.
      if (crosses(o)) out.set(o.clientOrderId, t + 1);
      return !crosses(o);
    });
  }
  return out;
}
