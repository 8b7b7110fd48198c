/** The executor's orders by clientOrderId, the one place they change: each change is published once to the executor's listeners and, when the venue's REST answers taught it, to the bus. */
import type { EventBus } from '../bus/index.ts';
import type { Clock } from '../core/clock.ts';
import { Decimal } from '../core/fixed.ts';
import { orderUpdateEvent, type FillReport, type ReportOrderStatus, type ReportOrderType } from '../model/index.ts';
import type { Denial } from '../risk/index.ts';
import { isTerminal, statusOf, type LocalOrder, type LocalOrderStatus } from './order-state.ts';

/** What the executor tells its readers (commands in, events out). */
export type ExecutionEvent =
  | { readonly type: 'order'; readonly order: LocalOrder; readonly from: LocalOrderStatus | undefined }
  | { readonly type: 'denied'; readonly clientOrderId: string; readonly strategyId: string; readonly denial: Denial; readonly text: string }
  | { readonly type: 'fill'; readonly fill: FillReport; readonly strategyId: string | undefined }
  | { readonly type: 'reconciled'; readonly adopted: number; readonly cancelled: number; readonly checked: number; readonly fills: number };

/** Where a change came from: the bus's own user stream (not published back), or REST answers and local decisions. */
export type ChangeSource = 'stream' | 'rest' | 'local';

/** Orders by clientOrderId and the listeners of their changes. */
export class OrderStore {
  private readonly byId = new Map<string, LocalOrder>();
  private readonly byOrderId = new Map<string, string>();
  private readonly listeners = new Set<(ev: ExecutionEvent) => void>();

  constructor(private readonly bus: EventBus, private readonly clock: Clock) {}

  /** Returns the order, or undefined. */
  get(clientOrderId: string): LocalOrder | undefined {
    return this.byId.get(clientOrderId);
  }

  /** Returns the clientOrderId of a venue orderId. */
  byVenueId(orderId: string): LocalOrder | undefined {
    const id = this.byOrderId.get(orderId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Returns every order. */
  all(): readonly LocalOrder[] {
    return [...this.byId.values()];
  }

  /** Returns the orders as a read-only map. */
  map(): ReadonlyMap<string, LocalOrder> {
    return this.byId;
  }

  /** Stores `next` when it differs from what is held; tells listeners and (for REST-learned venue states) the bus. */
  put(next: LocalOrder, source: ChangeSource): void {
    const prev = this.byId.get(next.clientOrderId);
    if (prev === next) return;
    this.byId.set(next.clientOrderId, next);
    if (next.orderId !== undefined) this.byOrderId.set(next.orderId, next.clientOrderId);
    const from = prev === undefined ? undefined : statusOf(prev);
    if (prev !== undefined && from === statusOf(next) && prev.executedQty === next.executedQty && prev.orderId === next.orderId) return;
    this.emit({ type: 'order', order: next, from });
    if (source === 'rest' && next.orderId !== undefined) this.publish(next);
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

  /** Returns open orders counted as symbol → strategy → n (the risk snapshot's openOrders). */
  openCounts(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const o of this.byId.values()) {
      if (isTerminal(o.phase)) continue;
      const s = (out[o.symbol] ??= {});
      s[o.strategyId] = (s[o.strategyId] ?? 0) + 1;
    }
    return out;
  }

  private publish(o: LocalOrder): void {
    const status = statusOf(o);
    if (status === 'PENDING_NEW' || status === 'UNKNOWN' || o.orderId === undefined) return;
    const now = this.clock.now();
    this.bus.publish(orderUpdateEvent({
      account: o.account, symbol: o.symbol, clientOrderId: o.clientOrderId, orderId: o.orderId, status: status as ReportOrderStatus,
      // LocalOrder.type holds what a venue report said, so it is one of the report types.
      side: o.side, type: o.type as ReportOrderType, timeInForce: '', price: o.price, origQty: o.origQty, executedQty: o.executedQty,
      cumQuote: new Decimal(o.executedQty).mul(o.avgPrice).toFixed(), lastQty: '0', lastPrice: '0', fee: '0', feeAsset: undefined, maker: false, createdTs: 0,
      closeOrder: undefined, leverage: undefined, ts: o.updatedAt || now, recvTs: now,
    }));
  }
}
