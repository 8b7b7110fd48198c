/**
 * The one writer of what strategies see of their orders: the executor's order state (the join of REST
 * answers, stream reports and reconciliation) and the fills counted once (from the stream at once, from
 * myTrades when the stream missed one), turned into OrderView changes and OrderFill events.
 *
 * Guarantees, per order (checked by test/execution/order-feed.test.ts and the fault tests):
 * 1. Forward only, each change once: an order the venue accepted shows NEW once, then one change per
 *    fill (PARTIALLY_FILLED, or the terminal status with the last fill), then at most one terminal
 *    change; an order that never reached the book shows one REJECTED (or CANCELED when it was
 *    cancelled before it was sent). Nothing is shown for an order still pending or unknown.
 * 2. A fill is delivered once, before the order change it causes, and the delivered quantities of an
 *    order never exceed, and in the end equal, the venue's executed quantity (fill-cover.ts).
 * 3. A terminal FILLED or CANCELED is shown only once the fills behind the executed quantity were
 *    delivered, so a strategy reading its position on FILLED sees the fills in it.
 * Finished orders leave the live index at once and stay readable for `history.maxOrders` orders and
 * `history.maxAgeMs` ms.
 */
import type { Clock } from '../core/clock.ts';
import { Fifo } from '../core/fifo.ts';
import {
  addScaled, compareDecimal, compareScaled, Decimal, divideRounded, mulScaled, scaled, SCALED_ZERO, scaledDecimal, scaledText, subScaled, type Scaled,
} from '../core/fixed.ts';
import {
  isFinalStatus, type FillReport, type Instrument, type OrderFill, type OrderOutcome, type OrderUpdateEvent, type OrderView, type OrderViewStatus,
} from '../model/index.ts';
import { isTerminal, type LocalOrder } from './order-state.ts';
import { addCover, uncoveredQty, type Cover } from './reconcile/fill-cover.ts';

/** How long finished orders stay readable. */
export interface OrderHistoryOptions {
  /** Most finished orders kept (default 10,000). */
  readonly maxOrders: number;
  /** Oldest finished order kept, in ms of the clock (default 1 hour). */
  readonly maxAgeMs: number;
}

/** A reader of the feed. */
export interface FeedListener {
  /** A fill of one of the bot's orders, delivered once. */
  fill?(f: OrderFill): void;
  /** An order changed (see the module's guarantees). */
  order?(v: OrderView): void;
}

interface Entry {
  local: LocalOrder;
  cover: Cover;
  filled: Scaled;
  cumQuote: Scaled;
  /** Fees paid per asset; made at the first fee (after that fill's delivery): an order's entry is read cold on its fill, so it holds few objects. */
  fees: Map<string, Scaled> | undefined;
  /** Trade ids counted: the first in a field, the later ones in a set made at the second (most orders fill once; a set read per report is one more cache miss on the way to the strategy). */
  tradeId: string | undefined;
  tradeIds: Set<string> | undefined;
  /** The sum of this order's myTrades quantities seen so far (its next trade's range starts there). */
  tradesCum: Scaled;
  /** Trade ids the portfolio got from the stream already (made at the first, after its delivery). */
  streamed: Set<string> | undefined;
  view: OrderView | undefined;
  /** The status `view` shows (kept here too: deciding whether a report moves the view reads no view). */
  status: OrderViewStatus | undefined;
  /** The executed quantity `view` shows. */
  shown: Scaled;
  /** The order's executedQty as read last (`local.executedQty` is read on every change: parsed once per value). */
  execText: string;
  exec: Scaled;
  finishedAt: number | undefined;
  /** True once the entry left the history (an order's link may still point at it). */
  gone: boolean;
}

/** The cover of an order with no fill counted (covers are never changed in place). */
const NO_COVER: Cover = [];

const RANK: Readonly<Record<OrderViewStatus, number>> = { NEW: 0, PARTIALLY_FILLED: 1, FILLED: 2, CANCELED: 2, REJECTED: 2 };

/** The feed; see the module comment. */
export class OrderFeed {
  private readonly live = new Map<string, Entry>();
  private readonly byStrategy = new Map<string, Set<string>>();
  private readonly finished = new Map<string, Entry>();
  /** Finished ids, oldest first (an order finishes once). */
  private readonly finishOrder = new Fifo<string>();
  private readonly byVenueId = new Map<string, string>();
  private readonly listeners = new Set<FeedListener>();
  private readonly history: OrderHistoryOptions;
  /** The entry onOrder took last: a stream report's fill (streamFill) follows its order's change, so it finds its entry here without a second lookup. */
  private recent: Entry | undefined;

  constructor(private readonly clock: Clock, private readonly instruments: ReadonlyMap<string, Instrument>, history: Partial<OrderHistoryOptions> = {}) {
    this.history = { maxOrders: 10_000, maxAgeMs: 3_600_000, ...history };
  }

  /** Subscribes; returns the unsubscribe function. */
  on(l: FeedListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Returns an order (working, or finished and still in the history). */
  get(clientOrderId: string): OrderView | undefined {
    const e = this.live.get(clientOrderId) ?? this.finished.get(clientOrderId);
    return e === undefined ? undefined : e.view ?? this.viewOf(e, undefined);
  }

  /**
   * Returns a strategy's orders not finished, on one symbol or all: those the venue acknowledged, and
   * with `pending` also those not answered yet or of unknown outcome (they may be working).
   */
  open(strategyId: string, symbol?: string, pending = false): readonly OrderView[] {
    const out: OrderView[] = [];
    for (const id of this.byStrategy.get(strategyId) ?? []) {
      const e = this.live.get(id);
      if (e === undefined || (symbol !== undefined && e.local.symbol !== symbol)) continue;
      if (!pending && (e.local.phase === 'PENDING_NEW' || e.local.phase === 'UNKNOWN')) continue;
      out.push(e.view ?? this.viewOf(e, undefined));
    }
    return out;
  }

  /** Returns how many orders the feed holds: working, and finished kept for lookups. */
  size(): { live: number; finished: number } {
    this.expire();
    return { live: this.live.size, finished: this.finished.size };
  }

  /** Takes a change of the executor's order state. */
  onOrder(local: LocalOrder): void {
    const link = local.link;
    // The order's link leads to its entry (one lookup per report, the store's); an order without one, or whose entry left the history, is looked up.
    const linked = link?.feed as Entry | undefined;
    let e = linked !== undefined && !linked.gone ? linked : this.live.get(local.clientOrderId);
    if (e !== undefined && e.finishedAt !== undefined) return;
    if (e === undefined) {
      if (this.finished.has(local.clientOrderId)) return;
      e = {
        local, cover: NO_COVER, filled: SCALED_ZERO, cumQuote: SCALED_ZERO, fees: undefined, tradeId: undefined, tradeIds: undefined, tradesCum: SCALED_ZERO,
        streamed: undefined, view: undefined, status: undefined, shown: SCALED_ZERO, execText: '0', exec: SCALED_ZERO, finishedAt: undefined, gone: false,
      };
      this.live.set(local.clientOrderId, e);
      let ids = this.byStrategy.get(local.strategyId);
      if (ids === undefined) this.byStrategy.set(local.strategyId, (ids = new Set()));
      ids.add(local.clientOrderId);
    }
    // The venue id is indexed when it first shows (an order keeps it); a new entry's `local` is this one, so it is indexed here too.
    if (local.orderId !== undefined && (local.orderId !== e.local.orderId || e.local === local)) this.byVenueId.set(local.orderId, local.clientOrderId);
    if (link !== undefined && e !== linked) link.feed = e;
    e.local = local;
    this.recent = e;
    this.publish(e, undefined);
  }

  /**
   * Takes a stream report that carries a fill (lastQty > 0) of an order the executor holds. Returns
   * the FillReport the portfolio may apply at once (the report carried the venue's trade id and the
   * fill was not counted before), else undefined.
   */
  streamFill(local: LocalOrder, r: OrderUpdateEvent): FillReport | undefined {
    const recent = this.recent;
    const e = recent !== undefined && recent.local === local ? recent : this.live.get(local.clientOrderId) ?? this.finished.get(local.clientOrderId);
    if (e === undefined || compareDecimal(r.lastQty, '0') <= 0) return undefined;
    // The report's executed quantity is usually the order's own (just applied): parsed once.
    const hi = r.executedQty === e.local.executedQty ? executedOf(e) : scaled(r.executedQty, 'executedQty');
    const span = scaled(r.lastQty, 'lastQty');
    const tradeId = r.tradeId ?? `${r.orderId}:${r.executedQty}`;
    if (hasTrade(e, tradeId)) return undefined;
    const fill = this.count(e, tradeId, r.orderId, r.lastPrice, r.lastQty, r.fee, r.feeAsset ?? '', r.maker, r.ts, 'stream', subScaled(hi, span), hi, span);
    if (fill === undefined || r.tradeId === undefined) return undefined;
    (e.streamed ??= new Set()).add(r.tradeId);
    return this.fillReport(e.local, fill);
  }

  /**
   * Takes one of the venue's trades from myTrades, each trade id once, in trade-id order per order.
   * Returns false when the portfolio already holds it (it came on the stream with this trade id), true
   * when the portfolio should apply it (also for trades of orders the feed does not know).
   */
  tradeFill(f: FillReport): boolean {
    const id = this.byVenueId.get(f.orderId);
    const e = id === undefined ? undefined : this.live.get(id) ?? this.finished.get(id);
    if (e === undefined) return true;
    const lo = e.tradesCum;
    const hi = addScaled(lo, scaled(f.qty, 'qty'));
    e.tradesCum = hi;
    if (e.streamed?.has(f.tradeId) === true) return false;
    if (!hasTrade(e, f.tradeId)) {
      this.count(e, f.tradeId, f.orderId, f.price, scaledText(subScaled(hi, lo)), f.fee, f.feeAsset, f.maker, f.time, 'reconciliation', lo, hi);
    }
    return true;
  }

  /** Counts the part of the fill (lo, hi] of `e` not counted before (`qtyText` and `span`: hi − lo as the venue wrote it) and delivers it. */
  private count(
    e: Entry, tradeId: string, orderId: string, price: string, qtyText: string, feeText: string, feeAsset: string, maker: boolean | undefined, time: number,
    source: OrderFill['source'], lo: Scaled, hi: Scaled, span: Scaled = subScaled(hi, lo),
  ): OrderFill | undefined {
    addTrade(e, tradeId);
    // The first fill of an order (most orders fill once) finds nothing covered: all of it counts.
    const first = e.cover.length === 0 && span.units > 0n;
    const qty = first ? span : uncoveredQty(e.cover, lo, hi);
    e.cover = first ? [[lo, hi]] : addCover(e.cover, lo, hi);
    if (qty.units <= 0n) return undefined;
    // Part of the range was counted already (a report that merged fills): the fee goes with the share counted now.
    const whole = qty === span || compareScaled(qty, span) === 0;
    const fee = whole ? feeText : new Decimal(feeText).mul(scaledDecimal(qty)).div(scaledDecimal(span)).toFixed();
    const o = e.local;
    const fill: OrderFill = {
      tradeId, orderId, clientOrderId: o.clientOrderId, strategyId: o.strategyId, account: o.account, symbol: o.symbol, side: o.side, price,
      qty: whole ? qtyText : scaledText(qty), fee, feeAsset, maker, time, source,
    };
    e.filled = e.filled.units === 0n ? qty : addScaled(e.filled, qty);
    this.publish(e, fill, qty);
    return fill;
  }

  /** Adds a delivered fill to the order's quote and fee sums (only views read them, and the view it changes is made after the delivery). */
  private sum(e: Entry, f: OrderFill, qty: Scaled): void {
    e.cumQuote = addScaled(e.cumQuote, mulScaled(qty, scaled(f.price, 'price')));
    if (f.feeAsset === '') return;
    const paid = scaled(f.fee, 'fee');
    if (paid.units === 0n) return;
    const fees = (e.fees ??= new Map());
    fees.set(f.feeAsset, addScaled(fees.get(f.feeAsset) ?? SCALED_ZERO, paid));
  }

  private fillReport(o: LocalOrder, f: OrderFill): FillReport {
    return {
      account: o.account, symbol: o.symbol, tradeId: f.tradeId, orderId: f.orderId, side: o.side, price: f.price, qty: f.qty, fee: f.fee,
      feeAsset: f.feeAsset, maker: f.maker, time: f.time,
    };
  }

  /** Returns the status to show now, or undefined while nothing is to be shown. */
  private statusOf(e: Entry): OrderViewStatus | undefined {
    const o = e.local;
    const working: OrderViewStatus | undefined = e.filled.units > 0n ? 'PARTIALLY_FILLED' : o.outcome === 'placed' ? 'NEW' : undefined;
    if (!isTerminal(o.phase)) return working;
    if (o.phase === 'REJECTED') return e.view === undefined || e.filled.units === 0n ? 'REJECTED' : working;
    // FILLED or CANCELED: only once the fills behind the venue's executed quantity were delivered.
    return compareScaled(e.filled, executedOf(e)) >= 0 ? (o.phase === 'FILLED' ? 'FILLED' : 'CANCELED') : working;
  }

  /** Shows what changed: NEW first when it was never shown, then the fill (`qty` counted of it), then the order's change. */
  private publish(e: Entry, fill: OrderFill | undefined, qty?: Scaled): void {
    const status = this.statusOf(e);
    if (status === undefined) {
      if (fill !== undefined) this.tellFill(fill);
      if (fill !== undefined && qty !== undefined) this.sum(e, fill, qty);
      return;
    }
    const prev = e.view;
    // The first change of an accepted order is NEW, even when the first news of it was a fill or its end.
    if (prev === undefined && status !== 'NEW' && status !== 'REJECTED' && e.local.outcome !== 'not-placed') {
      this.emit(e, this.viewOf(e, undefined, 'NEW', true), SCALED_ZERO);
    }
    if (fill !== undefined) this.tellFill(fill);
    if (fill !== undefined && qty !== undefined) this.sum(e, fill, qty);
    const before = e.status;
    const moved = before === undefined || RANK[status] > RANK[before] || compareScaled(e.shown, e.filled) !== 0;
    if (!moved || (before !== undefined && isFinalStatus(before))) return;
    this.emit(e, this.viewOf(e, fill, status), e.filled);
  }

  private emit(e: Entry, v: OrderView, shown: Scaled): void {
    e.view = v;
    e.status = v.status;
    e.shown = shown;
    // A finished order leaves the live index before anyone hears of its end: open() read from that onOrder must not list it.
    if (isFinalStatus(v.status)) this.finish(e);
    for (const l of this.listeners) l.order?.(v);
  }

  private tellFill(f: OrderFill): void {
    for (const l of this.listeners) l.fill?.(f);
  }

  private finish(e: Entry): void {
    const id = e.local.clientOrderId;
    this.live.delete(id);
    this.byStrategy.get(e.local.strategyId)?.delete(id);
    e.finishedAt = this.clock.now();
    this.finished.set(id, e);
    this.finishOrder.push(id);
    this.expire();
  }

  private expire(): void {
    const oldest = this.clock.now() - this.history.maxAgeMs;
    for (let id = this.finishOrder.peek(); id !== undefined; id = this.finishOrder.peek()) {
      const e = this.finished.get(id);
      if (e !== undefined && this.finished.size <= this.history.maxOrders && (e.finishedAt ?? 0) >= oldest) break;
      this.finishOrder.shift();
      if (e === undefined) continue;
      this.finished.delete(id);
      e.gone = true;
      if (e === this.recent) this.recent = undefined;
      if (e.local.orderId !== undefined && this.byVenueId.get(e.local.orderId) === id) this.byVenueId.delete(e.local.orderId);
    }
  }

  private viewOf(e: Entry, fill: OrderFill | undefined, status?: OrderViewStatus, empty = false): OrderView {
    const o = e.local;
    const inst = this.instruments.get(o.symbol);
    const shown = status ?? this.statusOf(e) ?? 'NEW';
    const filled = empty ? SCALED_ZERO : e.filled;
    const avg = filled.units === 0n ? '0' : divideRounded(e.cumQuote, filled, inst?.pricePrecision ?? 8);
    const outcome: OrderOutcome = o.outcome ?? (o.phase === 'PENDING_NEW' ? 'pending' : 'placed');
    return {
      clientOrderId: o.clientOrderId, orderId: o.orderId, strategyId: o.strategyId, account: o.account, symbol: o.symbol, side: o.side, type: o.type,
      price: o.price, origQty: o.origQty, status: shown, cancelPending: o.cancelPending && !isTerminal(o.phase), executedQty: scaledText(filled),
      cumQuote: empty ? '0' : scaledText(e.cumQuote), avgPrice: avg,
      fees: empty || e.fees === undefined ? {} : feesText(e.fees),
      outcome, reason: o.reason, lastFill: fill, ts: this.clock.now(),
    };
  }
}

function hasTrade(e: Entry, tradeId: string): boolean {
  return e.tradeId === tradeId || (e.tradeIds !== undefined && e.tradeIds.has(tradeId));
}

function addTrade(e: Entry, tradeId: string): void {
  if (e.tradeId === undefined) e.tradeId = tradeId;
  else if (e.tradeId !== tradeId) (e.tradeIds ??= new Set()).add(tradeId);
}

/** Returns the order's executed quantity as a scaled integer, parsing `local.executedQty` only when it changed. */
function executedOf(e: Entry): Scaled {
  const text = e.local.executedQty;
  if (text !== e.execText) {
    e.exec = scaled(text, 'executedQty');
    e.execText = text;
  }
  return e.exec;
}

/** Returns the fees paid per asset as decimal strings. */
function feesText(fees: ReadonlyMap<string, Scaled>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [asset, v] of fees) out[asset] = scaledText(v);
  return out;
}
