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
}

const MAX_FINISHED_ORDERS = 10_000;
const MAX_KEYS = 10_000;

/** The monotone filter of the user stream. */
export class ReportSequencer {
  private readonly orders = new Map<string, OrderMark>();
  private readonly finished = new Fifo<string>();
  /** Newest E per balance or position key. */
  private readonly newest = new Map<string, number>();
  private released = 0;
  private backwards = 0;
  private duplicates = 0;

  constructor(private readonly sink: EventSink) {}

  /** Returns the counters. */
  stats(): SequencerStats {
    return { released: this.released, droppedBackwards: this.backwards, droppedDuplicates: this.duplicates, held: 0 };
  }

  /** Takes one event and passes it on at once unless it is stale. */
  push(ev: SequencedEvent): void {
    const pass = ev.kind === 'order' ? this.advances(ev) : this.newer(ev);
    if (!pass) return;
    this.released += 1;
    this.sink(ev);
    // The oldest finished order is forgotten once the event was delivered: off the path from frame to strategy.
    while (this.finished.length > MAX_FINISHED_ORDERS) this.orders.delete(this.finished.shift()!);
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

  private advances(ev: OrderUpdateEvent): boolean {
    const rank = statusRank(ev.status);
    const fill = compareDecimal(ev.lastQty, '0') > 0 ? ev.executedQty : undefined;
    const mark = this.orders.get(ev.orderId);
    if (mark === undefined) {
      this.orders.set(ev.orderId, { rank, executedQty: ev.executedQty, first: fill, more: undefined });
      this.noteFinished(ev.orderId, rank);
      return true;
    }
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
