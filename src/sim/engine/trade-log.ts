/** One account's own trades kept in columns (no object per execution), read back as OwnTrade records by the my-trades queries. */
import type { Amount } from '../ledger/amount.ts';
import { ChunkList } from '../ledger/chunk-list.ts';
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
  /**
   * Per execution four numbers — trade id offset, time, price in ticks, lots × 2 + 1 for a maker — in one
   * growable Float64Array (outside the JS heap: recording an execution makes no garbage for them).
   */
  private nums = new Float64Array(4 * 64);
  private n = 0;
  private readonly orders = new ChunkList<SimOrder>();
  private readonly fees = new ChunkList<Amount>();

  constructor(private readonly keep: number) {}

  /** Returns the number of executions held. */
  get length(): number {
    return this.n;
  }

  /** Appends one execution; `tradeOff` is the trade id's offset in the engine's trade id sequence. */
  push(tradeOff: number, order: SimOrder, time: number, price: number, lots: number, fee: Amount, isMaker: boolean): void {
    if (4 * this.n === this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    const at = 4 * this.n++;
    this.nums[at] = tradeOff;
    this.nums[at + 1] = time;
    this.nums[at + 2] = price;
    this.nums[at + 3] = lots * 2 + (isMaker ? 1 : 0);
    this.orders.push(order);
    this.fees.push(fee);
    if (this.n > 2 * this.keep) {
      const k = this.n - this.keep;
      this.nums.copyWithin(0, 4 * k, 4 * this.n);
      this.n -= k;
      this.orders.dropFront(k);
      this.fees.dropFront(k);
    }
  }

  /** Returns the raw rows for exportState: [trade offset, orderId, time, price, lots, fee, isMaker]. */
  exportRows(): [number, string, number, number, number, string, boolean][] {
    const out: [number, string, number, number, number, string, boolean][] = [];
    for (let i = 0; i < this.n; i++) {
      const lm = this.nums[4 * i + 3]!;
      out.push([this.nums[4 * i]!, this.orders.at(i).orderId, this.nums[4 * i + 1]!, this.nums[4 * i + 2]!, Math.floor(lm / 2), this.fees.at(i).toString(), lm % 2 === 1]);
    }
    return out;
  }

  /** Returns the orders the kept executions belong to. */
  ordersHeld(): readonly SimOrder[] {
    return this.orders.toArray();
  }

  /** Returns the executions whose order passes `pred`, oldest first, with their trade ids from `ids`. */
  list(ids: IdSequence, pred: (o: SimOrder) => boolean = () => true): OwnTrade[] {
    const out: OwnTrade[] = [];
    for (let i = 0; i < this.n; i++) {
      const order = this.orders.at(i);
      if (!pred(order)) continue;
      const lm = this.nums[4 * i + 3]!;
      out.push({
        tradeId: ids.idAt(this.nums[4 * i]!), order, time: this.nums[4 * i + 1]!, price: this.nums[4 * i + 2]!, lots: Math.floor(lm / 2),
        fee: this.fees.at(i), feeAsset: order.feeAsset, isMaker: lm % 2 === 1,
      });
    }
    return out;
  }
}
