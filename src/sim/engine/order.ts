/** The engine's order record (spot and contract): it is also the book entry, so a cancel by id is one map lookup and an O(1) unlink. */
import { formatScaled } from '../../core/fixed.ts';
import type { BookEntry, BookSide, Level } from '../book/order-book.ts';
import type { Amount } from '../ledger/amount.ts';
import type { SimInstrument } from './instruments.ts';

export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

const MAX_SAFE = 9007199254740991;

/** One order of the simulated venue, in integer units; texts are made only when a view or event needs them. */
export class SimOrder implements BookEntry {
  // Book entry.
  priceTicks: number;
  readonly bookSide: BookSide;
  readonly owner: number;
  leaves = 0;
  prev: BookEntry | null = null;
  next: BookEntry | null = null;
  level: Level | null = null;

  /** Lots ordered; for a spot MARKET BUY, 0 (it is bounded by `quoteBudget`). */
  origLots: number;
  /** A spot MARKET BUY's quote amount in qunits (Infinity otherwise). */
  quoteBudget = Infinity;
  /** The quote amount text of a MARKET BUY as sent (its origQty). */
  origQtyText = '';
  executedLots = 0;
  /** Cumulative quote (price × lots) in qunits while safe, the overflow in cumQuoteBig. */
  cumQuote = 0;
  cumQuoteBig = 0n;
  status: OrderStatus = 'NEW';
  updateTime: number;
  /** Funds still locked for this order (quote for a spot buy, base for a spot sell, margin for a contract order). */
  locked: Amount = 0n;
  /** Fees paid so far, in feeAsset. */
  fee: Amount = 0n;
  feeAsset = '';

  // Contract fields (unused on spot orders).
  leverage = '';
  priceType = 'INPUT';
  triggerTicks = 0;
  /** A STOP order waiting for its trigger (not on the book). */
  waiting = false;
  /** A STOP order triggers when the last price rises to (true) or falls to (false) its trigger. */
  triggerUp = true;
  /** A STOP order that was triggered. */
  triggered = false;

  constructor(
    /** Internal sequence number: orders compare by it where the venue's orderId would compare. */
    readonly seq: number,
    readonly orderId: string,
    readonly clientOrderId: string,
    readonly accountId: string,
    readonly inst: SimInstrument,
    readonly market: 'spot' | 'contract',
    /** BUY or SELL (spot); BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE (contract). */
    readonly side: string,
    /** LIMIT, MARKET or LIMIT_MAKER as sent (spot); LIMIT or STOP (contract). */
    readonly type: string,
    readonly timeInForce: string,
    priceTicks: number,
    origLots: number,
    owner: number,
    readonly time: number,
  ) {
    this.priceTicks = priceTicks;
    this.origLots = origLots;
    this.owner = owner;
    this.bookSide = side === 'BUY' || side === 'BUY_OPEN' || side === 'BUY_CLOSE' ? 0 : 1;
    this.updateTime = time;
  }

  /** Returns true while the order can still trade or be cancelled. */
  get active(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED';
  }

  /** Returns true for a contract close order. */
  get isClose(): boolean {
    return this.side === 'BUY_CLOSE' || this.side === 'SELL_CLOSE';
  }

  /** Adds one execution to the order's totals. */
  addFill(lots: number, price: number, time: number): void {
    this.executedLots += lots;
    const q = price * lots;
    if (this.cumQuoteBig === 0n && q <= MAX_SAFE && this.cumQuote + q <= MAX_SAFE) {
      this.cumQuote += q;
    } else {
      this.cumQuoteBig += BigInt(this.cumQuote) + BigInt(price) * BigInt(lots);
      this.cumQuote = 0;
    }
    this.updateTime = time;
  }

  /** Returns the cumulative quote in qunits as a bigint. */
  cumQuoteUnits(): bigint {
    return this.cumQuoteBig + BigInt(this.cumQuote);
  }

  /** Returns the text of the order's cumulative quote quantity. */
  cumQuoteText(): string {
    if (this.cumQuoteBig === 0n) return this.inst.quoteText(this.cumQuote);
    const q = this.inst.qunit;
    return formatScaled(this.cumQuoteUnits() * BigInt(q.int), q.scale);
  }

  /** Returns the average fill price text, rounded down to the tick ("0" before any fill). */
  avgPriceText(): string {
    if (this.executedLots === 0) return '0';
    const avg = this.cumQuoteUnits() / BigInt(this.executedLots);
    return this.inst.priceText(Number(avg));
  }

  /** Returns the origQty text: lots, or the quote amount of a MARKET BUY. */
  origQtyOut(): string {
    return this.quoteBudget !== Infinity ? this.origQtyText : this.inst.qtyText(this.origLots);
  }
}
