/** Orders user-stream events by `E` through a short reorder window on the clock and keeps every order's status from moving backwards. */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { compareDecimal } from '../core/fixed.ts';
import type { BalanceUpdateEvent, OrderUpdateEvent, PositionUpdateEvent, ReportOrderStatus } from '../model/events.ts';
import type { EventSink } from './ws-connection.ts';

// Invariants of what leaves the sequencer:
// - events leave in `ts` (the venue's E) order within the window: an event is held `windowMs` after it
//   arrived, and whatever is released with it or before it is sorted by (ts, status rank, cumulative
//   quantity, arrival);
// - for one order, the status rank never decreases (NEW < PARTIALLY_FILLED < PENDING_CANCEL < FILLED,
//   CANCELED, REJECTED), and within PARTIALLY_FILLED the cumulative quantity only grows: a report that
//   would move an order backwards, or repeats the last one, is dropped.

/** Events the user stream sequences. */
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

interface Held {
  readonly ev: SequencedEvent;
  readonly due: number;
  readonly seq: number;
}

interface OrderMark {
  rank: number;
  executedQty: string;
}

/** What the sequencer counted. */
export interface SequencerStats {
  readonly released: number;
  readonly droppedBackwards: number;
  readonly droppedDuplicates: number;
  readonly held: number;
}

const MAX_FINISHED_ORDERS = 10_000;

/** The reorder buffer and the monotone order filter of the user stream. */
export class ReportSequencer {
  private held: Held[] = [];
  private seq = 0;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private readonly orders = new Map<string, OrderMark>();
  private readonly finished: string[] = [];
  private released = 0;
  private backwards = 0;
  private duplicates = 0;

  /** `windowMs` 0 releases at once (still filtered); a larger window lets late reports overtake. */
  constructor(private readonly clock: Clock, private readonly windowMs: number, private readonly sink: EventSink) {}

  /** Returns the counters. */
  stats(): SequencerStats {
    return { released: this.released, droppedBackwards: this.backwards, droppedDuplicates: this.duplicates, held: this.held.length };
  }

  /** Takes one event; it leaves after the window, in E order with its neighbours. */
  push(ev: SequencedEvent): void {
    const due = this.clock.now() + this.windowMs;
    this.held.push({ ev, due, seq: this.seq++ });
    if (this.windowMs <= 0) {
      this.release();
      return;
    }
    if (due < this.timerAt) this.arm(due);
  }

  /** Releases everything held now (on stop). */
  flush(): void {
    this.release(Infinity);
  }

  /** Stops the timer; held events are dropped. */
  dispose(): void {
    this.timer?.cancel();
    this.held = [];
  }

  private arm(at: number): void {
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.release();
    }, Math.max(0, at - this.clock.now()));
  }

  private release(now = this.clock.now()): void {
    // Everything due goes, and with it anything not yet due whose E is not later (so E order holds).
    let maxTs = -Infinity;
    for (const h of this.held) if (h.due <= now && h.ev.ts > maxTs) maxTs = h.ev.ts;
    if (maxTs === -Infinity) {
      this.rearm();
      return;
    }
    const out: Held[] = [];
    const keep: Held[] = [];
    for (const h of this.held) (h.due <= now || h.ev.ts <= maxTs ? out : keep).push(h);
    this.held = keep;
    out.sort(order);
    for (const h of out) this.emit(h.ev);
    this.rearm();
  }

  private rearm(): void {
    let next = Infinity;
    for (const h of this.held) if (h.due < next) next = h.due;
    if (next !== Infinity) this.arm(next);
  }

  private emit(ev: SequencedEvent): void {
    if (ev.kind === 'order' && !this.advances(ev)) return;
    this.released += 1;
    this.sink(ev);
  }

  private advances(ev: OrderUpdateEvent): boolean {
    const rank = statusRank(ev.status);
    const mark = this.orders.get(ev.orderId);
    if (mark) {
      const qty = compareDecimal(ev.executedQty, mark.executedQty);
      const forward = rank > mark.rank || (rank === mark.rank && rank === 1 && qty > 0);
      if (!forward) {
        if (rank === mark.rank && qty === 0) this.duplicates += 1;
        else this.backwards += 1;
        return false;
      }
      mark.rank = rank;
      mark.executedQty = ev.executedQty;
    } else {
      this.orders.set(ev.orderId, { rank, executedQty: ev.executedQty });
    }
    if (rank === 3) {
      this.finished.push(ev.orderId);
      // Finished orders are remembered for a while so late duplicates are still refused, then forgotten.
      if (this.finished.length > MAX_FINISHED_ORDERS) this.orders.delete(this.finished.shift()!);
    }
    return true;
  }
}

function order(a: Held, b: Held): number {
  if (a.ev.ts !== b.ev.ts) return a.ev.ts - b.ev.ts;
  const ra = a.ev.kind === 'order' ? statusRank(a.ev.status) : 4;
  const rb = b.ev.kind === 'order' ? statusRank(b.ev.status) : 4;
  if (ra !== rb) return ra - rb;
  // Reports of one E and status (fills of one millisecond) go by cumulative quantity.
  if (a.ev.kind === 'order' && b.ev.kind === 'order') {
    const q = compareDecimal(a.ev.executedQty, b.ev.executedQty);
    if (q !== 0) return q;
  }
  return a.seq - b.seq;
}
