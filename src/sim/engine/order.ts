/** The engine's order record (spot and contract): it is also the book entry, so a cancel by id is one map lookup and an O(1) unlink. */
import { formatScaled } from '../../core/fixed.ts';
import type { BookEntry, BookSide, Level } from '../book/order-book.ts';
import type { Amount } from '../ledger/amount.ts';
import type { SimInstrument } from './instruments.ts';
import { small } from './units.ts';

export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

const MAX_SAFE = 9007199254740991;

const SIDES = ['BUY', 'SELL', 'BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE'] as const;
const TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP'] as const;
const TIFS = ['GTC', 'IOC', 'FOK', 'LIMIT_MAKER'] as const;
const STATUSES: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED'];
const STATUS_CODE: Readonly<Record<OrderStatus, number>> = { NEW: 0, PARTIALLY_FILLED: 1, FILLED: 2, CANCELED: 3, REJECTED: 4 };

/** Returns the position of `v` in `list`; throws for a value the engine should have refused before (a bug). */
function codeOf(list: readonly string[], v: string, what: string): number {
  const i = list.indexOf(v);
  if (i < 0) throw new Error(`order ${what} ${v} is not one the engine knows`);
  return i;
}

/** The rarely set fields of an order. */
class OrderExtra {
  origQtyText = '';
  cumQuoteBig = 0n;
  leverage = '';
  priceType = 'INPUT';
  triggerTicks = 0;
  waiting = false;
  triggerUp = true;
  triggered = false;
}

/** One order of the simulated venue, in integer units; texts are made only when a view or event needs them. */
export class SimOrder implements BookEntry {
  // Book entry.
  priceTicks: number;
  readonly owner: number;
  leaves = 0;
  prev: BookEntry | null = null;
  next: BookEntry | null = null;
  level: Level | null = null;

  /** Lots ordered; for a spot MARKET BUY, 0 (it is bounded by `quoteBudget`). */
  origLots: number;
  /** A spot MARKET BUY's quote amount left in qunits; −1 for other orders (a small integer, so no boxed Infinity per order). */
  private budget = -1;
  executedLots = 0;
  /** Cumulative quote (price × lots) in qunits while it is a safe integer (see cumQuoteUnits). */
  cumQuote = 0;
  /** bookSide, market, side, type, timeInForce and status packed in one small integer (see the getters). */
  private bits: number;
  /** updateTime − time: a small integer, so the order holds no boxed second time. */
  private updated = 0;
  /** Funds still locked for this order (quote for a spot buy, base for a spot sell, margin for a contract order). */
  locked: Amount = 0n;
  /** Fees paid so far, in feeAsset. */
  fee: Amount = 0n;
  /** Fields most orders never set (contract terms, MARKET BUY text, quote overflow), made on first write. */
  private x: OrderExtra | null = null;

  constructor(
    /** Internal sequence number: orders compare by it where the venue's orderId would compare. */
    readonly seq: number,
    readonly orderId: string,
    readonly clientOrderId: string,
    readonly accountId: string,
    readonly inst: SimInstrument,
    market: 'spot' | 'contract',
    /** BUY or SELL (spot); BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE (contract). */
    side: string,
    /** LIMIT, MARKET or LIMIT_MAKER as sent (spot); LIMIT or STOP (contract). */
    type: string,
    timeInForce: string,
    priceTicks: number,
    origLots: number,
    owner: number,
    readonly time: number,
  ) {
    this.priceTicks = priceTicks;
    this.origLots = origLots;
    this.owner = owner;
    const bookSide = side === 'BUY' || side === 'BUY_OPEN' || side === 'BUY_CLOSE' ? 0 : 1;
    this.bits = bookSide | (market === 'contract' ? 2 : 0) | (codeOf(SIDES, side, 'side') << 2) | (codeOf(TYPES, type, 'type') << 5) | (codeOf(TIFS, timeInForce, 'timeInForce') << 7);
  }

  /** Book side: 0 bid, 1 ask. */
  get bookSide(): BookSide {
    return (this.bits & 1) as BookSide;
  }

  /** spot or contract. */
  get market(): 'spot' | 'contract' {
    return (this.bits & 2) === 0 ? 'spot' : 'contract';
  }

  /** BUY or SELL (spot); BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE (contract). */
  get side(): string {
    return SIDES[(this.bits >> 2) & 7]!;
  }

  /** LIMIT, MARKET or LIMIT_MAKER as sent (spot); LIMIT or STOP (contract). */
  get type(): string {
    return TYPES[(this.bits >> 5) & 3]!;
  }

  /** GTC, IOC, FOK or LIMIT_MAKER. */
  get timeInForce(): string {
    return TIFS[(this.bits >> 7) & 3]!;
  }

  /** The order's status. */
  get status(): OrderStatus {
    return STATUSES[(this.bits >> 9) & 7]!;
  }

  set status(v: OrderStatus) {
    this.bits = (this.bits & ~(7 << 9)) | (STATUS_CODE[v] << 9);
  }

  private extra(): OrderExtra {
    if (this.x === null) this.x = new OrderExtra();
    return this.x;
  }

  /** Returns a spot MARKET BUY's quote amount left in qunits (Infinity for other orders). */
  get quoteBudget(): number {
    return this.budget < 0 ? Infinity : this.budget;
  }

  set quoteBudget(v: number) {
    this.budget = v === Infinity ? -1 : v;
  }

  /** Returns the time of the last change. */
  get updateTime(): number {
    return this.time + this.updated;
  }

  set updateTime(t: number) {
    this.updated = small(t - this.time);
  }

  /** Returns the quote amount text of a MARKET BUY as sent (its origQty). */
  get origQtyText(): string {
    return this.x?.origQtyText ?? '';
  }

  set origQtyText(v: string) {
    this.extra().origQtyText = v;
  }

  /** Returns the cumulative quote beyond the safe-integer part, in qunits. */
  get cumQuoteBig(): bigint {
    return this.x?.cumQuoteBig ?? 0n;
  }

  set cumQuoteBig(v: bigint) {
    this.extra().cumQuoteBig = v;
  }

  /** Returns the leverage as sent (contract). */
  get leverage(): string {
    return this.x?.leverage ?? '';
  }

  set leverage(v: string) {
    this.extra().leverage = v;
  }

  /** Returns the contract priceType (INPUT for spot). */
  get priceType(): string {
    return this.x?.priceType ?? 'INPUT';
  }

  set priceType(v: string) {
    this.extra().priceType = v;
  }

  /** Returns a STOP order's trigger in ticks (0 otherwise). */
  get triggerTicks(): number {
    return this.x?.triggerTicks ?? 0;
  }

  set triggerTicks(v: number) {
    this.extra().triggerTicks = v;
  }

  /** Returns true for a STOP order waiting for its trigger (not on the book). */
  get waiting(): boolean {
    return this.x?.waiting ?? false;
  }

  set waiting(v: boolean) {
    this.extra().waiting = v;
  }

  /** Returns true when a STOP order triggers as the last price rises to its trigger, false as it falls. */
  get triggerUp(): boolean {
    return this.x?.triggerUp ?? true;
  }

  set triggerUp(v: boolean) {
    this.extra().triggerUp = v;
  }

  /** Returns true for a STOP order that was triggered. */
  get triggered(): boolean {
    return this.x?.triggered ?? false;
  }

  set triggered(v: boolean) {
    this.extra().triggered = v;
  }

  /** Returns the asset fees are paid in: what a spot order receives (base for a buy, quote for a sell), a contract's margin token. */
  get feeAsset(): string {
    const inst = this.inst;
    if ((this.bits & 2) !== 0) return inst.contract!.marginToken;
    return (this.bits & 1) === 0 ? inst.baseAsset : inst.quoteAsset;
  }

  /** Returns true while the order can still trade or be cancelled. */
  get active(): boolean {
    return ((this.bits >> 9) & 7) < 2;
  }

  /** Returns true for a contract close order. */
  get isClose(): boolean {
    return ((this.bits >> 2) & 7) >= 4;
  }

  /** Adds one execution to the order's totals. */
  addFill(lots: number, price: number, time: number): void {
    this.executedLots += lots;
    const q = price * lots;
    if ((this.x === null || this.x.cumQuoteBig === 0n) && q <= MAX_SAFE && this.cumQuote + q <= MAX_SAFE) {
      this.cumQuote += q;
    } else {
      this.cumQuoteBig += BigInt(this.cumQuote) + BigInt(price) * BigInt(lots);
      this.cumQuote = 0;
    }
    this.updated = small(time - this.time);
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
