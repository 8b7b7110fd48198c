/**
 * The executor's orders by clientOrderId, the one place they change: each change is told once to the
 * executor's listeners (the order feed turns them into what strategies see). Working orders sit in the
 * hot indexes (by id, by strategy, open counts per symbol and strategy, kept incrementally); a finished
 * order leaves the open counts at once and the other indexes once its change was delivered (a stream
 * change) or at once (any other), and stays readable for `maxOrders` finished orders and `maxAgeMs` ms, so
 * neither a submit nor memory grows with the orders a long run has finished.
 */
import type { Clock } from '../core/clock.ts';
import { Fifo } from '../core/fifo.ts';
import type { OrderFill } from '../model/index.ts';
import type { OrderHistoryOptions } from './order-feed.ts';
import { isTerminal, statusOf, type LocalOrder, type LocalOrderStatus } from './order-state.ts';

/** A local refusal: a risk gate denial, or the executor's own (NOT_OWNER: the order belongs to another strategy). */
export interface RefusalOf {
  readonly code: string;
  readonly values: Readonly<Record<string, string>>;
}

/** What the executor tells its readers (commands in, events out). */
export type ExecutionEvent =
  | { readonly type: 'order'; readonly order: LocalOrder; readonly from: LocalOrderStatus | undefined }
  | { readonly type: 'denied'; readonly clientOrderId: string; readonly strategyId: string; readonly denial: RefusalOf; readonly text: string }
  | { readonly type: 'fill'; readonly fill: OrderFill }
  | { readonly type: 'reconciled'; readonly adopted: number; readonly cancelled: number; readonly checked: number; readonly fills: number };

/** Where a change came from: the user stream, REST answers, or a local decision (kept for readers' logs). */
export type ChangeSource = 'stream' | 'rest' | 'local';

/** A finished order kept for lookups, and when it finished. */
interface Finished {
  readonly id: string;
  order: LocalOrder;
  readonly at: number;
}

/** Orders by clientOrderId and the listeners of their changes. */
export class OrderStore {
  private readonly live = new Map<string, LocalOrder>();
  private readonly finished = new Map<string, Finished>();
  /** Finished orders, oldest first (an order finishes once). */
  private readonly finishOrder = new Fifo<Finished>();
  /**
   * An order a stream change finished: it stays in `live`, terminal, until the change was delivered (settle,
   * or the next put), then moves to the history, which is trimmed; the moves are off the path to strategies.
   */
  private finishing: string | undefined;
  private readonly byOrderId = new Map<string, string>();
  private readonly byStrategy = new Map<string, Set<string>>();
  /** Working orders per symbol and strategy. */
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly listeners = new Set<(ev: ExecutionEvent) => void>();
  private readonly history: OrderHistoryOptions;
  /** Orders visited by the methods that walk them (a cost counter for tests). */
  visited = 0;

  constructor(private readonly clock: Clock, history: Partial<OrderHistoryOptions> = {}) {
    this.history = { maxOrders: 10_000, maxAgeMs: 3_600_000, ...history };
  }

  /** Returns the order (working, or finished and still kept), or undefined. */
  get(clientOrderId: string): LocalOrder | undefined {
    return this.live.get(clientOrderId) ?? this.finished.get(clientOrderId)?.order;
  }

  /** Returns the order of a venue orderId. */
  byVenueId(orderId: string): LocalOrder | undefined {
    const id = this.byOrderId.get(orderId);
    return id === undefined ? undefined : this.get(id);
  }

  /** Returns every order held: working ones, then the finished ones kept. */
  all(): readonly LocalOrder[] {
    this.settle();
    this.visited += this.live.size + this.finished.size;
    return [...this.live.values(), ...[...this.finished.values()].map((f) => f.order)];
  }

  /** Returns the working orders (not terminal). */
  working(strategyId?: string): readonly LocalOrder[] {
    this.settle();
    if (strategyId === undefined) {
      this.visited += this.live.size;
      return [...this.live.values()];
    }
    const ids = this.byStrategy.get(strategyId) ?? new Set<string>();
    this.visited += ids.size;
    return [...ids].map((id) => this.live.get(id)!);
  }

  /** Returns the orders held as a map (working and finished kept), for reconciliation. */
  map(): ReadonlyMap<string, LocalOrder> {
    return new Map(this.all().map((o) => [o.clientOrderId, o]));
  }

  /** Returns how many orders are held: working, and finished kept for lookups. */
  size(): { live: number; finished: number } {
    this.settle();
    this.trim();
    return { live: this.live.size, finished: this.finished.size };
  }

  /** Stores `next` when it differs from what is held and tells listeners; a stream change leaves moving a finished order to the history to settle(), after its delivery. */
  put(next: LocalOrder, source: ChangeSource): void {
    this.settle();
    const prev = this.get(next.clientOrderId);
    if (prev === next) return;
    const id = next.clientOrderId;
    if (prev === undefined || !isTerminal(prev.phase)) {
      if (prev !== undefined) this.count(prev, -1);
      if (isTerminal(next.phase)) {
        if (source === 'stream') {
          this.live.set(id, next);
          this.finishing = id;
        } else {
          this.finish(next);
        }
      } else {
        this.live.set(id, next);
        let ids = this.byStrategy.get(next.strategyId);
        if (ids === undefined) this.byStrategy.set(next.strategyId, (ids = new Set()));
        ids.add(id);
        this.count(next, 1);
      }
    } else {
      const f = this.finished.get(id);
      if (f !== undefined) f.order = next;
    }
    if (next.orderId !== undefined && next.orderId !== prev?.orderId) this.byOrderId.set(next.orderId, id);
    const from = prev === undefined ? undefined : statusOf(prev);
    if (prev !== undefined && from === statusOf(next) && prev.executedQty === next.executedQty && prev.orderId === next.orderId) return;
    this.emit({ type: 'order', order: next, from });
  }

  /** Tells listeners. */
  emit(ev: ExecutionEvent): void {
    for (const l of this.listeners) l(ev);
  }

  /** Subscribes to execution events; returns the unsubscribe function. */
  on(listener: (ev: ExecutionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Returns open orders counted as symbol → strategy → n (the risk snapshot's openOrders), from the counts kept. */
  openCounts(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const [symbol, m] of this.counts) out[symbol] = Object.fromEntries(m);
    return out;
  }

  private count(o: LocalOrder, delta: 1 | -1): void {
    let m = this.counts.get(o.symbol);
    if (m === undefined) this.counts.set(o.symbol, (m = new Map()));
    const n = (m.get(o.strategyId) ?? 0) + delta;
    if (n > 0) m.set(o.strategyId, n);
    else m.delete(o.strategyId);
    if (m.size === 0) this.counts.delete(o.symbol);
  }

  /** Moves the order a stream change finished to the history (the executor calls it once the change was delivered). */
  settle(): void {
    const id = this.finishing;
    if (id === undefined) return;
    this.finishing = undefined;
    const o = this.live.get(id);
    if (o !== undefined) this.finish(o);
  }

  private finish(o: LocalOrder): void {
    const f: Finished = { id: o.clientOrderId, order: o, at: this.clock.now() };
    this.live.delete(f.id);
    this.byStrategy.get(o.strategyId)?.delete(f.id);
    this.finished.set(f.id, f);
    this.finishOrder.push(f);
    this.trim();
  }

  /** Forgets the finished orders past the history's count or age. */
  private trim(): void {
    const oldest = this.clock.now() - this.history.maxAgeMs;
    for (let f = this.finishOrder.peek(); f !== undefined; f = this.finishOrder.peek()) {
      if (this.finished.size <= this.history.maxOrders && f.at >= oldest) break;
      this.finishOrder.shift();
      this.finished.delete(f.id);
      if (f.order.orderId !== undefined && this.byOrderId.get(f.order.orderId) === f.id) this.byOrderId.delete(f.order.orderId);
    }
  }
}
