/** Filters user-stream events as they arrive, holding none back: order reports only move an order forward (or bring a fill not seen before), balances and positions keep the newest `E` per key. */
import { Fifo } from '../core/fifo.ts';
import { compareDecimal } from '../core/fixed.ts';
import type { BalanceUpdateEvent, OrderUpdateEvent, PositionUpdateEvent, ReportOrderStatus } from '../model/events.ts';
import type { EventSink } from './ws-connection.ts';

// Invariants of what leaves the filter (nothing is held: each event leaves during the call that brought it):
// - for one order, a report leaves when it raises the status rank (NEW < PARTIALLY_FILLED < PENDING_CANCEL
//   < FILLED, CANCELED, REJECTED) or, within PARTIALLY_FILLED, the cumulative quantity; a late report that
//   carries a fill (lastQty > 0) not seen before leaves too, so the executor can count the fill at once
//   (its own order state is a join and absorbs the stale status); every other repeat is dropped;
// - a balance (per account and asset) or position (per symbol and side) event older than the newest
//   one of its key that left is dropped.

/** Events the user stream filters. */
export type SequencedEvent = OrderUpdateEvent | BalanceUpdateEvent | PositionUpdateEvent;

/** Returns the rank of an order status: reports may only keep or raise it. */
export function statusRank(s: ReportOrderStatus): number {
  switch (s) {
    case 'NEW':
      return 0;
    case 'PARTIALLY_FILLED':
      return 1;
    case 'PENDING_CANCEL':
      return 2;
    case 'FILLED':
    case 'CANCELED':
    case 'REJECTED':
      return 3;
    default: {
      const never: never = s;
      throw new Error(`status: unknown value ${String(never)}`);
    }
  }
}

interface OrderMark {
  rank: number;
  executedQty: string;
  /** Cumulative quantity of the first fill seen (a report's `z` when it carries a fill). */
  first: string | undefined;
  /** Those of the later fills, made at the second fill (most orders fill once). */
  more: Set<string> | undefined;
}

/** What the filter counted. */
export interface SequencerStats {
  readonly released: number;
  readonly droppedBackwards: number;
  readonly droppedDuplicates: number;
  /** Always 0: nothing is held (kept for the stats' shape). */
  readonly held: number;
  /** Orders remembered (working and finished), at most MAX_ORDERS. */
  readonly orders: number;
}

const MAX_FINISHED_ORDERS = 10_000;
/**
 * Orders remembered in all. Working orders are otherwise forgotten only when they finish, so reports of orders
 * that never finish (lost across a reconnect, or invented by a faulty venue) would grow the map without end;
 * past this the order noted first is forgotten, and a stale report of it would pass once.
 */
const MAX_ORDERS = 100_000;
const MAX_KEYS = 10_000;

/** Slots of the filter of orders held (a power of two: 64 KiB, small enough to stay in cache). */
const HELD_SLOTS = 1 << 16;

/**
 * How many orders held hash to each slot, so an order's first report (every order has one; for an order
 * filled on placement it is the fill) is told from the map of up to 10,000 orders without reading it: that
 * read misses the cache on every such report. Zero means not held; any other count means look in the
 * map. A count that reaches 255 stays there (it then only costs map reads).
 */
class HeldFilter {
  private readonly counts = new Uint8Array(HELD_SLOTS);

  mayHold(id: string): boolean {
    return this.counts[slotOf(id)] !== 0;
  }

  add(id: string): void {
    const i = slotOf(id);
    if (this.counts[i]! < 255) this.counts[i]! += 1;
  }

  remove(id: string): void {
    const i = slotOf(id);
    if (this.counts[i]! < 255) this.counts[i]! -= 1;
  }
}

/** Returns the filter slot of an order id (FNV-1a over its characters). */
function slotOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) & (HELD_SLOTS - 1);
}

/** The monotone filter of the user stream. */
export class ReportSequencer {
  private readonly orders = new Map<string, OrderMark>();
  private readonly held = new HeldFilter();
  private readonly finished = new Fifo<string>();
  /** Newest E per balance or position key. */
  private readonly newest = new Map<string, number>();
  private released = 0;
  private backwards = 0;
  private duplicates = 0;

  constructor(private readonly sink: EventSink) {}

  /** Returns the counters. */
  stats(): SequencerStats {
    return { released: this.released, droppedBackwards: this.backwards, droppedDuplicates: this.duplicates, held: 0, orders: this.orders.size };
  }

  /** Takes one event and passes it on at once unless it is stale. */
  push(ev: SequencedEvent): void {
    const pass = ev.kind === 'order' ? this.advances(ev) : this.newer(ev);
    if (pass === false) return;
    this.released += 1;
    this.sink(ev);
    // An order seen for the first time is noted once its report was delivered: off the path from frame to strategy.
    if (pass !== true) this.note(pass);
    // The oldest finished order is forgotten once the event was delivered: off the path from frame to strategy.
    while (this.finished.length > MAX_FINISHED_ORDERS) {
      const id = this.finished.shift()!;
      if (this.orders.delete(id)) this.held.remove(id);
    }
  }

  private newer(ev: BalanceUpdateEvent | PositionUpdateEvent): boolean {
    const key = ev.kind === 'balance' ? `b:${ev.account}:${ev.asset}` : `p:${ev.symbol}:${ev.side}`;
    const held = this.newest.get(key);
    if (held !== undefined && ev.ts < held) {
      this.backwards += 1;
      return false;
    }
    // Keys are a handful of assets and positions; the bound only guards against a venue inventing new ones forever.
    if (held === undefined && this.newest.size >= MAX_KEYS) this.newest.delete(this.newest.keys().next().value!);
    this.newest.set(key, ev.ts);
    return true;
  }

  /** Returns true when the report passes, false when it is stale, or the report itself when its order was not seen before (push notes it). */
  private advances(ev: OrderUpdateEvent): boolean | OrderUpdateEvent {
    const mark = this.held.mayHold(ev.orderId) ? this.orders.get(ev.orderId) : undefined;
    if (mark === undefined) return ev;
    const rank = statusRank(ev.status);
    const fill = compareDecimal(ev.lastQty, '0') > 0 ? ev.executedQty : undefined;
    const qty = compareDecimal(ev.executedQty, mark.executedQty);
    const forward = rank > mark.rank || (rank === mark.rank && rank === 1 && qty > 0);
    const newFill = fill !== undefined && !seenFill(mark, fill);
    if (!forward && !newFill) {
      if (rank === mark.rank && qty === 0) this.duplicates += 1;
      else this.backwards += 1;
      return false;
    }
    if (forward) {
      mark.rank = rank;
      mark.executedQty = ev.executedQty;
      this.noteFinished(ev.orderId, rank);
    }
    return true;
  }

  private note(ev: OrderUpdateEvent): void {
    // A report of the same order pushed while this one was delivered noted it already, and later.
    if (this.held.mayHold(ev.orderId) && this.orders.has(ev.orderId)) return;
    const rank = statusRank(ev.status);
    const fill = compareDecimal(ev.lastQty, '0') > 0 ? ev.executedQty : undefined;
    this.orders.set(ev.orderId, { rank, executedQty: ev.executedQty, first: fill, more: undefined });
    this.held.add(ev.orderId);
    this.noteFinished(ev.orderId, rank);
    if (this.orders.size > MAX_ORDERS) {
      const oldest = this.orders.keys().next().value!;
      this.orders.delete(oldest);
      this.held.remove(oldest);
    }
  }

  private noteFinished(orderId: string, rank: number): void {
    if (rank !== 3) return;
    // Finished orders are remembered for a while so late duplicates are still refused, then forgotten (push).
    this.finished.push(orderId);
  }
}

/** Returns true when `mark` saw the fill ending at cumulative quantity `z` before; notes it otherwise. */
function seenFill(mark: OrderMark, z: string): boolean {
  if (mark.first === undefined) {
    mark.first = z;
    return false;
  }
  if (mark.first === z || mark.more?.has(z) === true) return true;
  (mark.more ??= new Set()).add(z);
  return false;
}
