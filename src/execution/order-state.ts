/**
 * The local order and its state machine. Every change is a join: a report or a local event can only
 * move an order forward, so applying the same reports in any order, any number of times, ends in the
 * same state (the property test in test/execution checks it).
 *
 *   PENDING_NEW → UNKNOWN → NEW → PARTIALLY_FILLED → REJECTED | CANCELED | FILLED
 *
 * Ranks grow left to right; a transition to a lower rank is ignored. PENDING_CANCEL is a sticky flag
 * on a working order (a cancel was asked, by us or as reported by the venue): it shows as the status
 * until the order is terminal, and it is never cleared, so a failed cancel is sent again by
 * reconciliation rather than the order sliding back. executedQty only grows (the maximum seen).
 */
import { compareDecimal, divideDecimal } from '../core/fixed.ts';
import type { AccountKind, OrderReport, OrderUpdateEvent, ReportOrderStatus, ReportSide } from '../model/index.ts';

/** Where an order is in its life. */
export type OrderPhase = 'PENDING_NEW' | 'UNKNOWN' | 'NEW' | 'PARTIALLY_FILLED' | 'REJECTED' | 'CANCELED' | 'FILLED';

/** The status shown to readers: the phase, or PENDING_CANCEL while a cancel is pending on a working order. */
export type LocalOrderStatus = OrderPhase | 'PENDING_CANCEL';

/** How the order's placement ended when it did not reach the book. */
export type PlacementOutcome = 'placed' | 'rejected' | 'unknown' | 'not-placed';

const RANK: Readonly<Record<OrderPhase, number>> = {
  PENDING_NEW: 0, UNKNOWN: 1, NEW: 2, PARTIALLY_FILLED: 3, REJECTED: 4, CANCELED: 5, FILLED: 6,
};

/** Returns the rank of a phase (terminal phases share the top and are ordered among themselves only for determinism). */
export function rankOf(phase: OrderPhase): number {
  return RANK[phase];
}

/** Returns true for FILLED, CANCELED and REJECTED. */
export function isTerminal(phase: OrderPhase): boolean {
  return RANK[phase] >= RANK.REJECTED;
}

/**
 * The one record of an order shared by all its versions (a transition's spread copies the reference): the
 * order feed keeps its entry here, so a report finds it from the order the store holds, without a lookup of
 * its own. Its field is private, so it shows in no comparison, log or JSON of the order.
 */
export class OrderLink {
  #feed: object | undefined;

  /** Returns the order feed's entry of the order, if it made one. */
  get feed(): object | undefined {
    return this.#feed;
  }

  set feed(entry: object | undefined) {
    this.#feed = entry;
  }

  /** Leaves the link out of the order's JSON. */
  toJSON(): undefined {
    return undefined;
  }
}

/** One order as the bot knows it. Immutable: every transition returns a new object. */
export interface LocalOrder {
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly account: AccountKind;
  readonly symbol: string;
  readonly side: ReportSide;
  readonly type: string;
  readonly price: string;
  readonly origQty: string;
  readonly orderId: string | undefined;
  readonly phase: OrderPhase;
  readonly cancelPending: boolean;
  readonly executedQty: string;
  readonly avgPrice: string;
  /** Venue time of the newest report applied (0 before any). */
  readonly updatedAt: number;
  readonly outcome: PlacementOutcome | undefined;
  /** Why it was rejected or settled as not placed (venue code and message, or the settling rule). */
  readonly reason: string | undefined;
  /** True for an order found on the venue that the bot did not place in this run. */
  readonly adopted: boolean;
  /** Shared by the order's versions (newOrder makes it); absent on an order made elsewhere. */
  readonly link?: OrderLink;
}

/** Returns the status a reader sees. */
export function statusOf(o: LocalOrder): LocalOrderStatus {
  return o.cancelPending && !isTerminal(o.phase) ? 'PENDING_CANCEL' : o.phase;
}

/** Returns true while the order may still trade or be cancelled on the venue (sent and not terminal). */
export function isWorking(o: LocalOrder): boolean {
  return !isTerminal(o.phase);
}

/** Returns a new order in PENDING_NEW. */
export function newOrder(f: Pick<LocalOrder, 'clientOrderId' | 'strategyId' | 'account' | 'symbol' | 'side' | 'type' | 'price' | 'origQty'>): LocalOrder {
  return {
    clientOrderId: f.clientOrderId, strategyId: f.strategyId, account: f.account, symbol: f.symbol, side: f.side, type: f.type,
    price: f.price, origQty: f.origQty, orderId: undefined, phase: 'PENDING_NEW', cancelPending: false, executedQty: '0',
    avgPrice: '0', updatedAt: 0, outcome: undefined, reason: undefined, adopted: false, link: new OrderLink(),
  };
}

/** Returns a local order made from a venue report of an order the bot did not place (adoption). */
export function adoptedOrder(r: OrderReport, strategyId: string): LocalOrder {
  const base = newOrder({ clientOrderId: r.clientOrderId, strategyId, account: r.account, symbol: r.symbol, side: r.side, type: r.type, price: r.price, origQty: r.origQty });
  return { ...applyReport(base, r), adopted: true };
}

function phaseOfStatus(status: ReportOrderStatus, executedQty: string): OrderPhase {
  switch (status) {
    case 'NEW':
    case 'PARTIALLY_FILLED':
    case 'PENDING_CANCEL':
      return compareDecimal(executedQty, '0') > 0 ? 'PARTIALLY_FILLED' : 'NEW';
    case 'FILLED':
    case 'CANCELED':
    case 'REJECTED':
      return status;
    default: {
      const never: never = status;
      throw new RangeError(`order status: ${String(never)}`);
    }
  }
}

function higher(a: OrderPhase, b: OrderPhase): OrderPhase {
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * Returns the order after a venue report (stream, query, open orders, cancel answer). A join:
 * phase = the higher rank, executedQty = the larger, cancelPending = either; a stale, duplicated or
 * reordered report changes nothing it should not.
 */
export function applyReport(o: LocalOrder, r: OrderReport): LocalOrder {
  return join(o, r.status, r.executedQty, r.orderId, r.time, r.avgPrice);
}

/**
 * Returns the order after a user-stream order event: what applyReport gives for the report the event
 * carries (average price = cumulative quote / executed quantity), without making that report, and
 * dividing only when the join keeps the event's average (every stream report runs this on its way to onFill).
 */
export function applyOrderEvent(o: LocalOrder, ev: OrderUpdateEvent): LocalOrder {
  return join(o, ev.status, ev.executedQty, ev.orderId, ev.ts, ev);
}

/** Returns the average price a user-stream order event implies: its cumulative quote over its executed quantity, '0' before a fill. */
export function eventAvgPrice(ev: OrderUpdateEvent): string {
  const filled = compareDecimal(ev.executedQty, '0') > 0 && compareDecimal(ev.cumQuote, '0') > 0;
  return filled ? divideDecimal(ev.cumQuote, ev.executedQty) : '0';
}

/** The join of applyReport; `avg` is the report's average price, or the event it is worked out from when needed. */
function join(o: LocalOrder, status: ReportOrderStatus, reported: string, reportedId: string, time: number, avg: string | OrderUpdateEvent): LocalOrder {
  const cmp = compareDecimal(reported, o.executedQty);
  const executedQty = cmp > 0 ? reported : o.executedQty;
  // avgPrice goes with the larger executedQty; on a tie the larger value, so the result does not depend on arrival order.
  let avgPrice = o.avgPrice;
  if (cmp >= 0) {
    const a = typeof avg === 'string' ? avg : eventAvgPrice(avg);
    if (cmp > 0 || compareDecimal(a, o.avgPrice) > 0) avgPrice = a;
  }
  let phase = higher(o.phase, phaseOfStatus(status, executedQty));
  if (phase === 'NEW' && compareDecimal(executedQty, '0') > 0) phase = 'PARTIALLY_FILLED';
  const cancelPending = o.cancelPending || status === 'PENDING_CANCEL';
  const orderId = o.orderId ?? reportedId;
  const updatedAt = Math.max(o.updatedAt, time);
  const outcome: PlacementOutcome | undefined = RANK[phase] >= RANK.NEW && phase !== 'REJECTED' ? 'placed' : o.outcome;
  if (phase === o.phase && executedQty === o.executedQty && avgPrice === o.avgPrice && cancelPending === o.cancelPending
    && orderId === o.orderId && updatedAt === o.updatedAt && outcome === o.outcome) return o;
  // Written out in newOrder's field order rather than spread: every report of every order makes one, on the way to the strategy.
  return {
    clientOrderId: o.clientOrderId, strategyId: o.strategyId, account: o.account, symbol: o.symbol, side: o.side, type: o.type, price: o.price,
    origQty: o.origQty, orderId, phase, cancelPending, executedQty, avgPrice, updatedAt, outcome, reason: o.reason, adopted: o.adopted, link: o.link,
  };
}

/** Returns the order after its placement answer was lost (timeout, 5xx, 504, 429 after sending). */
export function markUnknown(o: LocalOrder, reason: string): LocalOrder {
  if (RANK[o.phase] >= RANK.UNKNOWN) return o;
  return { ...o, phase: 'UNKNOWN', outcome: 'unknown', reason };
}

/** Returns the order after a definite refusal, or after settling it as never placed; a terminal order stays as it is. */
export function markRejected(o: LocalOrder, outcome: 'rejected' | 'not-placed', reason: string): LocalOrder {
  if (isTerminal(o.phase)) return o;
  if (RANK[o.phase] >= RANK.NEW) return o; // the venue showed it working: only a venue report may end it
  return { ...o, phase: 'REJECTED', outcome, reason };
}

/** Returns the order with a cancel asked (sticky until terminal). */
export function markCancelPending(o: LocalOrder): LocalOrder {
  if (o.cancelPending || isTerminal(o.phase)) return o;
  return { ...o, cancelPending: true };
}

/** Returns the order cancelled before it was ever sent (it never left the executor's queue). */
export function markCanceledUnsent(o: LocalOrder): LocalOrder {
  if (o.phase !== 'PENDING_NEW') return o;
  return { ...o, phase: 'CANCELED', outcome: 'not-placed', reason: 'cancelled before it was sent' };
}
