/** The engine's shared state and the steps every order path uses: ids, order maps, funds with touched-balance tracking, trades, book and market events. */
import type { Clock } from '../../core/clock.ts';
import { ASK, BID } from '../book/order-book.ts';
import { fmtAmount, type Amount } from '../ledger/amount.ts';
import { ChunkList } from '../ledger/chunk-list.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { EventLog, type SimEventBody } from './events.ts';
import { IdSequence } from './ids.ts';
import { TradeLog, type OwnTrade } from './trade-log.ts';
import { PublicTrade, type SimInstrument } from './instruments.ts';
import type { SimOrder } from './order.ts';
import { amountText } from './units.ts';


/** Ids the engine hands out (64-bit decimal strings). */
export interface IdStarts {
  orderId?: bigint;
  tradeId?: bigint;
  /** Sequence of the last event already published (a restarted venue continues after it). */
  logSeq?: number;
}

/** Default number of finished orders (and of own trades) kept per account for the query endpoints. */
export const DEFAULT_KEEP_FINISHED = 100_000;

/**
 * Orders by id. Order ids come from one IdSequence, so an id's offset is its index in an array:
 * a lookup is a 15-digit scan and an array read, and registering an order is a push, not a map insert.
 */
export class OrderIndex {
  private readonly slots = new ChunkList<SimOrder | undefined>();
  private n = 0;

  constructor(private readonly ids: IdSequence) {}

  /** Returns the order of `orderId`, or undefined. */
  get(orderId: string): SimOrder | undefined {
    const off = this.ids.offsetOf(orderId);
    if (off < 0 || off >= this.slots.length) return undefined;
    const o = this.slots.at(off);
    return o !== undefined && o.orderId === orderId ? o : undefined;
  }

  /** Adds an order whose id came from the sequence; `off` is its id's offset when the caller knows it. */
  add(o: SimOrder, off = this.ids.offsetOf(o.orderId)): void {
    if (off < 0) throw new Error(`order id ${o.orderId} is not one of the engine's`);
    while (this.slots.length < off) this.slots.push(undefined);
    if (off === this.slots.length) this.slots.push(o);
    else this.slots.set(off, o);
    this.n++;
  }

  /** Forgets an order. */
  delete(o: SimOrder): void {
    const off = this.ids.offsetOf(o.orderId);
    if (off >= 0 && off < this.slots.length && this.slots.at(off) === o) {
      this.slots.set(off, undefined);
      this.n--;
    }
  }

  /** Returns the number of orders kept. */
  get size(): number {
    return this.n;
  }

  /** Returns the kept orders in id order. */
  *values(): Generator<SimOrder> {
    for (let i = 0; i < this.slots.length; i++) {
      const o = this.slots.at(i);
      if (o !== undefined) yield o;
    }
  }
}

/** The state shared by the spot and contract paths and the market-data views. */
export class EngineCore {
  readonly log: EventLog;
  readonly orderIds: IdSequence;
  readonly tradeIds: IdSequence;
  readonly instruments = new Map<string, SimInstrument>();
  readonly orders: OrderIndex;
  /** Per account: clientOrderId → order, for ids the client chose (an order without one answers to its orderId). */
  readonly byClientId = new Map<string, Map<string, SimOrder>>();
  /** Per account: kept orders in placement order (every active one, and the latest `keepFinished` finished ones). */
  readonly ordersByAccount = new Map<string, SimOrder[]>();
  /** Per account: kept own trades, oldest first (at least the latest `keepFinished`). */
  readonly tradesByAccount = new Map<string, TradeLog>();
  /** Finished orders kept per account; older ones are forgotten (their clientOrderIds may then be used again). */
  readonly keepFinished: number;
  /** Per account: the list length at which finished orders are next trimmed. */
  private readonly trimAt = new Map<string, number>();
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
    keepFinished = DEFAULT_KEEP_FINISHED,
  ) {
    this.log = new EventLog(keepLog, ids.logSeq ?? 0);
    this.orderIds = new IdSequence(ids.orderId ?? 1_000_000_000_000_000_001n);
    this.tradeIds = new IdSequence(ids.tradeId ?? 2_000_000_000_000_000_001n);
    this.orders = new OrderIndex(this.orderIds);
    if (!Number.isSafeInteger(keepFinished) || keepFinished < 1) throw new Error('keepFinishedOrders must be a positive integer');
    this.keepFinished = keepFinished;
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

  /** Returns the counters that are not ids (exportState): self-trade keys, the order sequence, trim points. */
  counters(): { owners: [string, number][]; orderSeq: number; trimAt: [string, number][] } {
    return { owners: [...this.owners.entries()], orderSeq: this.orderSeq, trimAt: [...this.trimAt.entries()].sort(([a], [b]) => (a < b ? -1 : 1)) };
  }

  /** Restores what counters() returned. */
  restoreCounters(d: { owners: [string, number][]; orderSeq: number; trimAt: [string, number][] }): void {
    for (const [k, v] of d.owners) this.owners.set(k, v);
    this.orderSeq = d.orderSeq;
    for (const [k, v] of d.trimAt) this.trimAt.set(k, v);
  }

  /** Returns the next internal order sequence number. */
  nextSeq(): number {
    return ++this.orderSeq;
  }

  /** Returns true when the account already used `clientOrderId` (on a kept order). */
  hasClientId(accountId: string, clientOrderId: string): boolean {
    return this.byClientOrderId(accountId, clientOrderId) !== undefined;
  }

  private byClientOrderId(accountId: string, clientOrderId: string): SimOrder | undefined {
    const o = this.byClientId.get(accountId)?.get(clientOrderId);
    if (o !== undefined) return o;
    // An order placed without a clientOrderId answers to its orderId and is not in the map.
    const own = this.orders.get(clientOrderId);
    return own !== undefined && own.accountId === accountId && own.clientOrderId === clientOrderId ? own : undefined;
  }

  /**
   * Registers a new order in every index, and forgets the oldest finished orders of its account beyond
   * `keepFinished`. The order's id is the one last taken from `orderIds` (placement takes it just before).
   */
  register(o: SimOrder): void {
    this.orders.add(o, this.orderIds.count - 1);
    if (o.clientOrderId !== o.orderId) {
      let m = this.byClientId.get(o.accountId);
      if (!m) {
        m = new Map();
        this.byClientId.set(o.accountId, m);
      }
      m.set(o.clientOrderId, o);
    }
    let list = this.ordersByAccount.get(o.accountId);
    if (!list) {
      list = [];
      this.ordersByAccount.set(o.accountId, list);
    }
    list.push(o);
    if (list.length > (this.trimAt.get(o.accountId) ?? 2 * this.keepFinished)) this.trimFinished(o.accountId, list);
  }

  /** Drops the oldest finished orders of an account so that `keepFinished` remain; amortized O(1) per order. */
  private trimFinished(accountId: string, list: SimOrder[]): void {
    let finished = 0;
    for (const o of list) if (!o.active) finished++;
    let drop = finished - this.keepFinished;
    const m = this.byClientId.get(accountId);
    let w = 0;
    for (let r = 0; r < list.length; r++) {
      const o = list[r]!;
      if (drop > 0 && !o.active) {
        drop--;
        this.orders.delete(o);
        if (m && m.get(o.clientOrderId) === o) m.delete(o.clientOrderId);
        continue;
      }
      list[w++] = o;
    }
    list.length = w;
    this.trimAt.set(accountId, list.length + this.keepFinished);
  }

  /** Returns an account's order by orderId or clientOrderId, or undefined. */
  findOrder(accountId: string, orderId?: string, clientOrderId?: string): SimOrder | undefined {
    if (orderId) {
      const o = this.orders.get(orderId);
      return o && o.accountId === accountId ? o : undefined;
    }
    if (clientOrderId) return this.byClientOrderId(accountId, clientOrderId);
    return undefined;
  }

  /** Notes that a balance changed so its event is sent at the end of the operation. */
  touch(accountId: string, asset: string): void {
    if (!this.log.active) return;
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

  /** Records an execution of `o` in the trade whose id is the last one taken, for my-trades. */
  addOwnTrade(o: SimOrder, time: number, price: number, lots: number, fee: Amount, isMaker: boolean, tradeOff = this.tradeIds.count - 1): void {
    let log = this.tradesByAccount.get(o.accountId);
    if (!log) {
      log = new TradeLog(this.keepFinished);
      this.tradesByAccount.set(o.accountId, log);
    }
    log.push(tradeOff, o, time, price, lots, fee, isMaker);
  }

  /** Returns an account's kept executions whose order passes `pred`, oldest first. */
  ownTrades(accountId: string, pred?: (o: SimOrder) => boolean): OwnTrade[] {
    return this.tradesByAccount.get(accountId)?.list(this.tradeIds, pred) ?? [];
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
    this.publicTradeQuiet(inst, price, lots, takerBuy);
    return this.tradeIds.idAt(this.tradeIds.count - 1);
  }

  /** Records a public trade like publicTrade without making its id text unless an event needs it; the id is the last taken. */
  publicTradeQuiet(inst: SimInstrument, price: number, lots: number, takerBuy: boolean): void {
    const off = this.tradeIds.count++;
    const time = this.clock.now();
    inst.trades.push(new PublicTrade(this.tradeIds, off, time, price, lots, !takerBuy));
    if (inst.trades.length > 2000) inst.trades.splice(0, 1000);
    inst.klines.addTrade(time, price, lots, takerBuy);
    if (this.log.active) this.emit({ type: 'trade', symbol: inst.symbol, id: this.tradeIds.idAt(off), price: inst.priceText(price), qty: inst.qtyText(lots), isBuyerMaker: !takerBuy });
  }

  /** Emits the events that close an operation on `inst`: level changes, balances, and (after trades) the kline and ticker. */
  finish(inst: SimInstrument | undefined, traded: boolean): void {
    if (!this.log.active) {
      inst?.book.clearTouched();
      // touch() records nothing while events are off: the lists are empty unless events were just turned off.
      if (this.touchedAccounts.length !== 0) {
        this.touchedAccounts.length = 0;
        this.touchedAssets.length = 0;
      }
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
