/** One account's own trades kept in columns (no object per execution), read back as OwnTrade records by the my-trades queries. */
import type { Amount } from '../ledger/amount.ts';
import type { IdSequence } from './ids.ts';
import type { SimOrder } from './order.ts';

/** One execution of one order, as my-trades lists it. */
export interface OwnTrade {
  readonly tradeId: string;
  readonly order: SimOrder;
  readonly time: number;
  readonly price: number;
  readonly lots: number;
  readonly fee: Amount;
  readonly feeAsset: string;
  readonly isMaker: boolean;
}

/** An account's executions, oldest first; beyond twice `keep` the oldest are dropped down to `keep`. */
export class TradeLog {
  private readonly offs: number[] = [];
  private readonly orders: SimOrder[] = [];
  private readonly times: number[] = [];
  /** price in ticks, and lots × 2 + 1 for a maker. */
  private readonly prices: number[] = [];
  private readonly lotsMaker: number[] = [];
  private readonly fees: Amount[] = [];

  constructor(private readonly keep: number) {}

  /** Returns the number of executions held. */
  get length(): number {
    return this.offs.length;
  }

  /** Appends one execution; `tradeOff` is the trade id's offset in the engine's trade id sequence. */
  push(tradeOff: number, order: SimOrder, time: number, price: number, lots: number, fee: Amount, isMaker: boolean): void {
    this.offs.push(tradeOff);
    this.orders.push(order);
    this.times.push(time);
    this.prices.push(price);
    this.lotsMaker.push(lots * 2 + (isMaker ? 1 : 0));
    this.fees.push(fee);
    if (this.offs.length > 2 * this.keep) {
      const n = this.offs.length - this.keep;
      for (const col of [this.offs, this.orders, this.times, this.prices, this.lotsMaker, this.fees] as unknown[][]) col.splice(0, n);
    }
  }

  /** Returns the raw rows for exportState: [trade offset, orderId, time, price, lots, fee, isMaker]. */
  exportRows(): [number, string, number, number, number, string, boolean][] {
    return this.offs.map((off, i) => [off, this.orders[i]!.orderId, this.times[i]!, this.prices[i]!, Math.floor(this.lotsMaker[i]! / 2), this.fees[i]!.toString(), this.lotsMaker[i]! % 2 === 1]);
  }

  /** Returns the orders the kept executions belong to. */
  ordersHeld(): readonly SimOrder[] {
    return this.orders;
  }

  /** Returns the executions whose order passes `pred`, oldest first, with their trade ids from `ids`. */
  list(ids: IdSequence, pred: (o: SimOrder) => boolean = () => true): OwnTrade[] {
    const out: OwnTrade[] = [];
    for (let i = 0; i < this.offs.length; i++) {
      const order = this.orders[i]!;
      if (!pred(order)) continue;
      const lm = this.lotsMaker[i]!;
      out.push({
        tradeId: ids.idAt(this.offs[i]!), order, time: this.times[i]!, price: this.prices[i]!, lots: Math.floor(lm / 2),
        fee: this.fees[i]!, feeAsset: order.feeAsset, isMaker: lm % 2 === 1,
      });
    }
    return out;
  }
}
