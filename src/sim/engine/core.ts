/** The engine's shared state and the steps every order path uses: ids, order maps, funds with touched-balance tracking, trades, book and market events. */
import type { Clock } from '../../core/clock.ts';
import { SequenceIds } from '../../core/ids.ts';
import { ASK, BID } from '../book/order-book.ts';
import { fmtAmount, type Amount } from '../ledger/amount.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { EventLog, type SimEventBody } from './events.ts';
import type { SimInstrument } from './instruments.ts';
import type { SimOrder } from './order.ts';
import { amountText } from './units.ts';

/** One execution of one order, as my-trades lists it. */
export interface OwnTrade {
  readonly tradeId: string;
  /** Numeric form of tradeId for the fromId/toId rules. */
  readonly tradeNo: bigint;
  readonly order: SimOrder;
  readonly time: number;
  readonly price: number;
  readonly lots: number;
  readonly fee: Amount;
  readonly feeAsset: string;
  readonly isMaker: boolean;
}

/** Ids the engine hands out (64-bit decimal strings). */
export interface IdStarts {
  orderId?: bigint;
  tradeId?: bigint;
}

/** The state shared by the spot and contract paths and the market-data views. */
export class EngineCore {
  readonly log: EventLog;
  readonly orderIds: SequenceIds;
  readonly tradeIds: SequenceIds;
  readonly instruments = new Map<string, SimInstrument>();
  readonly orders = new Map<string, SimOrder>();
  /** Per account: clientOrderId → order. */
  readonly byClientId = new Map<string, Map<string, SimOrder>>();
  /** Per account: every order in placement order. */
  readonly ordersByAccount = new Map<string, SimOrder[]>();
  readonly tradesByAccount = new Map<string, OwnTrade[]>();
  /** Self-trade owner keys: one small integer per account. */
  private readonly owners = new Map<string, number>();
  private orderSeq = 0;
  /** Balances changed by the operation in progress (parallel arrays; an operation touches a handful). */
  private readonly touchedAccounts: string[] = [];
  private readonly touchedAssets: string[] = [];

  constructor(
    readonly clock: Clock,
    readonly ledger: Ledger,
    readonly exchangeId: string,
    keepLog: boolean,
    ids: IdStarts = {},
  ) {
    this.log = new EventLog(keepLog);
    this.orderIds = new SequenceIds(ids.orderId ?? 1_000_000_000_000_000_001n);
    this.tradeIds = new SequenceIds(ids.tradeId ?? 2_000_000_000_000_000_001n);
  }

  /** Appends an event at the clock's time. */
  emit(body: SimEventBody): void {
    this.log.append(this.clock.now(), body);
  }

  /** Returns true when events are kept or listened to (builders of event bodies check it first). */
  get eventsOn(): boolean {
    return this.log.active;
  }

  /** Returns the self-trade key of an account. */
  ownerOf(accountId: string): number {
    let o = this.owners.get(accountId);
    if (o === undefined) {
      o = this.owners.size + 1;
      this.owners.set(accountId, o);
    }
    return o;
  }

  /** Returns the next internal order sequence number. */
  nextSeq(): number {
    return ++this.orderSeq;
  }

  /** Returns true when the account already used `clientOrderId`. */
  hasClientId(accountId: string, clientOrderId: string): boolean {
    return this.byClientId.get(accountId)?.has(clientOrderId) ?? false;
  }

  /** Registers a new order in every index. */
  register(o: SimOrder): void {
    this.orders.set(o.orderId, o);
    let m = this.byClientId.get(o.accountId);
    if (!m) {
      m = new Map();
      this.byClientId.set(o.accountId, m);
    }
    m.set(o.clientOrderId, o);
    let list = this.ordersByAccount.get(o.accountId);
    if (!list) {
      list = [];
      this.ordersByAccount.set(o.accountId, list);
    }
    list.push(o);
  }

  /** Returns an account's order by orderId or clientOrderId, or undefined. */
  findOrder(accountId: string, orderId?: string, clientOrderId?: string): SimOrder | undefined {
    if (orderId) {
      const o = this.orders.get(orderId);
      return o && o.accountId === accountId ? o : undefined;
    }
    if (clientOrderId) return this.byClientId.get(accountId)?.get(clientOrderId);
    return undefined;
  }

  /** Notes that a balance changed so its event is sent at the end of the operation. */
  touch(accountId: string, asset: string): void {
    const accs = this.touchedAccounts;
    const assets = this.touchedAssets;
    for (let i = 0; i < accs.length; i++) if (accs[i] === accountId && assets[i] === asset) return;
    accs.push(accountId);
    assets.push(asset);
  }

  /** Moves `amount` from free to locked (the caller has checked free). */
  lock(accountId: string, asset: string, amount: Amount): void {
    if (amount <= 0n) return;
    this.ledger.lock(accountId, asset, amount);
    this.touch(accountId, asset);
  }

  /** Moves `amount` from locked back to free. */
  unlock(accountId: string, asset: string, amount: Amount): void {
    if (amount <= 0n) return;
    this.ledger.unlock(accountId, asset, amount);
    this.touch(accountId, asset);
  }

  /** Records an own trade for my-trades. */
  addOwnTrade(t: OwnTrade): void {
    let list = this.tradesByAccount.get(t.order.accountId);
    if (!list) {
      list = [];
      this.tradesByAccount.set(t.order.accountId, list);
    }
    list.push(t);
  }

  /** Emits the order's current state. */
  emitOrder(o: SimOrder, execType: string): void {
    if (!this.log.active) return;
    this.emit({
      type: 'order',
      market: o.market,
      account: o.accountId,
      symbol: o.inst.symbol,
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
      side: o.side,
      orderType: o.type === 'LIMIT_MAKER' ? 'LIMIT' : o.type,
      timeInForce: o.timeInForce,
      price: o.quoteBudget !== Infinity ? '0' : o.inst.priceText(o.priceTicks),
      origQty: o.origQtyOut(),
      executedQty: o.inst.qtyText(o.executedLots),
      cumQuote: o.cumQuoteText(),
      status: o.status,
      execType,
      created: o.time,
    });
  }

  /** Records a public trade: trades list, klines, and its events. Returns the trade id. */
  publicTrade(inst: SimInstrument, price: number, lots: number, takerBuy: boolean): string {
    const id = this.tradeIds.take();
    const time = this.clock.now();
    inst.trades.push({ id, time, price, lots, isBuyerMaker: !takerBuy });
    if (inst.trades.length > 2000) inst.trades.splice(0, 1000);
    inst.klines.addTrade(time, price, lots, takerBuy);
    if (this.log.active) this.emit({ type: 'trade', symbol: inst.symbol, id, price: inst.priceText(price), qty: inst.qtyText(lots), isBuyerMaker: !takerBuy });
    return id;
  }

  /** Emits the events that close an operation on `inst`: level changes, balances, and (after trades) the kline and ticker. */
  finish(inst: SimInstrument | undefined, traded: boolean): void {
    if (!this.log.active) {
      inst?.book.drainTouched();
      this.touchedAccounts.length = 0;
      this.touchedAssets.length = 0;
      return;
    }
    if (inst) {
      const t = inst.book.drainTouched();
      for (let i = 0; i < t.length; i += 2) {
        const side = t[i] === BID ? BID : ASK;
        const price = t[i + 1]!;
        this.emit({ type: 'book', symbol: inst.symbol, side: side === BID ? 'BID' : 'ASK', price: inst.priceText(price), qty: inst.qtyText(inst.book.levelQty(side, price)) });
      }
    }
    const accs = this.touchedAccounts;
    if (accs.length > 0) {
      const assets = this.touchedAssets;
      for (let i = 0; i < accs.length; i++) {
        const accountId = accs[i]!;
        const asset = assets[i]!;
        const b = this.ledger.balance(accountId, asset);
        this.emit({ type: 'balance', account: accountId, asset, free: amountText(b.free), locked: amountText(b.locked) });
      }
      accs.length = 0;
      assets.length = 0;
    }
    if (inst && traded) {
      const now = this.clock.now();
      const bar = inst.klines.klines('1m', 1)[0]!;
      this.emit({
        type: 'kline', symbol: inst.symbol, interval: '1m', openTime: bar.openTime,
        open: inst.priceText(bar.open), high: inst.priceText(bar.high), low: inst.priceText(bar.low), close: inst.priceText(bar.close), volume: inst.qtyText(bar.volume),
      });
      const t = inst.klines.ticker(now)!;
      this.emit({
        type: 'ticker', symbol: inst.symbol, open: inst.priceText(t.open), high: inst.priceText(t.high), low: inst.priceText(t.low), close: inst.priceText(t.close),
        volume: inst.qtyText(t.volume), quoteVolume: bigQuoteText(inst, t.quote),
      });
    }
  }
}

/** Returns the text of a bigint count of qunits. */
export function bigQuoteText(inst: SimInstrument, q: bigint): string {
  return fmtAmount(q * inst.qunit.amount);
}
