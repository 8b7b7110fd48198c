/**
 * The backtest exchange: the recorded book with the strategy's own orders laid over it, on two
 * timelines. Recorded events change it at their exchange time (the runner advances the VirtualClock
 * to an event's time, then calls onRecorded); an order reaches it after the entry latency and each
 * report reaches the strategy after the response latency (reports are delivered by clock timers).
 * Resting orders keep a queue position (queue.ts); takers walk the recorded book and what they took
 * stays taken until the level changes (book.ts).
 */
import type { Clock } from '../../core/clock.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { fmtAmount } from '../../sim/ledger/amount.ts';
import { noAccount, type AccountOrder, type ExchangeAccount } from './account.ts';
import { RecordedBook } from './book.ts';
import type { LatencyModel } from './latency.ts';
import { queueTrade, type QueueModel, type QueuePos } from './queue.ts';
import { checkMakerOnly, checkOrder, limitOf } from './rules.ts';
import { bookSideOf, type BookSide, type ExecutionReport, type OrderRequest, type OrderStatus, type RecordedEvent } from './types.ts';
import { ReportSender } from './report-sender.ts';

/** One of the strategy's orders inside the exchange. */
class ExchOrder implements AccountOrder {
  status: OrderStatus = 'NEW';
  executedLots = 0;
  limitTicks = 0;
  queue: QueuePos | null = null;
  /** A STOP order waiting for its trigger. */
  waiting = false;
  triggerUp = true;
  /** Quote left to spend of a spot MARKET BUY by amount, in qunits; −1 for other orders. */
  budget: number;

  constructor(
    readonly orderId: string,
    readonly req: OrderRequest,
    readonly side: BookSide,
  ) {
    this.budget = req.quoteBudget ?? -1;
  }

  /** Lots still open (0 for an order by quote amount, which is bounded by its budget instead). */
  get leavesLots(): number {
    return this.budget >= 0 ? 0 : this.req.lots - this.executedLots;
  }

  /** Returns how many lots the order may still take at `price`. */
  canTake(price: number): number {
    return this.budget >= 0 ? Math.floor(this.budget / price) : this.leavesLots;
  }

  get active(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED';
  }
}

/** What the exchange needs. */
export interface BacktestExchangeOptions {
  /** A VirtualClock in a backtest; the venue's clock when the exchange matches a replayed market live. */
  readonly clock: Clock;
  /** The instrument whose rules (ticks, lots, filters) orders follow. */
  readonly inst: SimInstrument;
  readonly queue: QueueModel;
  readonly latency: LatencyModel;
  /** Receives every report at its local time. */
  readonly onReport: (r: ExecutionReport) => void;
  /** Funds behind the orders (default: none). */
  readonly account?: ExchangeAccount;
  /** First order id (default 1). */
  readonly firstOrderId?: bigint;
  /** Finished orders remembered for duplicate-id and cancel answers (default 1 000); older ones are forgotten. */
  readonly keepFinished?: number;
  /** Where the data has no mark prices: take the mid of the recorded book as the mark whenever it moves. */
  readonly markFromMid?: boolean;
}

/** Cancel refusal codes as the venue answers them. */
const UNKNOWN_ORDER = -2013;
const ALREADY_FILLED = -1139;
const ALREADY_CANCELED = -1142;
const DUPLICATE_ID = -1141;

/** The exchange of one instrument in a backtest. */
export class BacktestExchange {
  readonly book = new RecordedBook();
  private readonly account: ExchangeAccount;
  private nextId: bigint;
  /** Orders by clientOrderId: every open order and the latest `keepFinished` finished ones. */
  private readonly byClientId = new Map<string, ExchOrder>();
  /** Finished orders, oldest first, so the oldest can be forgotten. */
  private readonly finished: ExchOrder[] = [];
  private readonly keepFinished: number;
  /** Resting orders per side and price, in arrival order. */
  private readonly resting: [Map<number, ExchOrder[]>, Map<number, ExchOrder[]>] = [new Map(), new Map()];
  /** Each side's best resting price (restingTop), kept until a resting level comes or goes: every recorded level change asks for it. */
  private readonly restTop: [number, number] = [NaN, NaN];
  private readonly restTopKnown: [boolean, boolean] = [true, true];
  /** Waiting STOP orders in arrival order. */
  private stops: ExchOrder[] = [];
  /** Last recorded trade price, ticks. */
  private last: number | undefined;
  /** True once a recorded level has been set: before it, the data says nothing of the book (it was there, unrecorded), not that it was empty. */
  private bookSeen = false;
  /** Local time the last report is due (reports keep their order). */
  private readonly reports: ReportSender;
  /** Best prices the last mid mark was taken from. */
  private midBid = -1;
  private midAsk = -1;

  constructor(private readonly o: BacktestExchangeOptions) {
    this.reports = new ReportSender(o);
    this.account = o.account ?? noAccount;
    this.nextId = o.firstOrderId ?? 1n;
    this.keepFinished = o.keepFinished ?? 1_000;
    if (!Number.isSafeInteger(this.keepFinished) || this.keepFinished < 1) throw new Error('keepFinished must be a positive integer');
  }

  /** Notes that an order finished and forgets the oldest finished ones beyond the bound. */
  private retire(x: ExchOrder): void {
    this.finished.push(x);
    if (this.finished.length > 2 * this.keepFinished) {
      for (const y of this.finished.splice(0, this.finished.length - this.keepFinished)) {
        if (this.byClientId.get(y.req.clientOrderId) === y) this.byClientId.delete(y.req.clientOrderId);
      }
    }
  }

  /** Returns how many orders the exchange remembers (open and recently finished). */
  get remembered(): number {
    return this.byClientId.size;
  }

  /** Returns the last recorded trade price in ticks. */
  get lastPrice(): number | undefined {
    return this.last;
  }

  /** Sends a new order at the clock's (local) time; it reaches the exchange after the entry latency. */
  submit(req: OrderRequest): void {
    const clock = this.o.clock;
    clock.setTimeout(() => this.arrive(req), this.o.latency.entry(clock.now(), { clientOrderId: req.clientOrderId, op: 'place', request: req }));
  }

  /** Sends a cancel at the clock's (local) time; it reaches the exchange after the entry latency. */
  cancel(clientOrderId: string): void {
    const clock = this.o.clock;
    clock.setTimeout(() => this.arriveCancel(clientOrderId), this.o.latency.entry(clock.now(), { clientOrderId, op: 'cancel' }));
  }

  /** Returns the orders still open at the exchange, in arrival order. */
  openOrders(): { clientOrderId: string; orderId: string; side: BookSide; leavesLots: number; limitTicks: number; ahead: number | undefined }[] {
    return [...this.byClientId.values()]
      .filter((x) => x.active)
      .map((x) => ({ clientOrderId: x.req.clientOrderId, orderId: x.orderId, side: x.side, leavesLots: x.leavesLots, limitTicks: x.limitTicks, ahead: x.queue?.ahead }));
  }

  /** Applies one recorded event at the clock's (exchange) time. */
  onRecorded(ev: RecordedEvent): void {
    switch (ev.kind) {
      case 'depth':
        this.recordDepth(ev.side, ev.priceTicks, ev.lots);
        break;
      case 'trade':
        this.recordTrade(ev.priceTicks, ev.lots, ev.takerSide);
        break;
      case 'mark':
        this.onMark(ev.price);
        break;
      default:
        throw new Error(`unknown recorded event ${JSON.stringify(ev satisfies never)}`);
    }
  }

  /** Applies a recorded level change (onRecorded's depth, without an event object per level: the runner's hot path). */
  recordDepth(side: BookSide, price: number, lots: number): void {
    const prev = this.book.setLevel(side, price, lots);
    if (lots > 0) this.bookSeen = true;
    const mine = this.resting[side].get(price);
    if (mine) {
      // Own orders earlier at the level are ahead too but not in the recording: the level each order sees includes them.
      let own = 0;
      for (const x of mine) {
        if (x.queue) this.o.queue.depth(x.queue, prev + own, lots + own);
        own += x.leavesLots;
      }
    }
    // A recorded level that now crosses resting orders of the other side would have traded with them.
    if (lots > 0) this.fillCrossed(side === 0 ? 1 : 0, side, price);
    if (this.o.markFromMid) this.markMid();
  }

  /** Sends the recorded book's mid to the account as the mark when the best prices moved. */
  private markMid(): void {
    const bid = this.book.best(0);
    const ask = this.book.best(1);
    if (bid === undefined || ask === undefined || (bid === this.midBid && ask === this.midAsk)) return;
    this.midBid = bid;
    this.midAsk = ask;
    this.onMark(fmtAmount(((BigInt(bid) + BigInt(ask)) * this.o.inst.tick.amount) / 2n));
  }

  /** Fills resting orders on `restSide` that the recorded level at `price` on `bookSide` crosses, as makers at their own price. */
  private fillCrossed(restSide: BookSide, bookSide: BookSide, price: number): void {
    // Most events cross nothing: the best resting price tells, before any list is made.
    const top = this.restingTop(restSide);
    if (top !== top || (restSide === 0 ? top < price : top > price)) return;
    this.fillCrossedLevels(restSide, bookSide, price);
  }

  /** fillCrossed's walk, apart: its closures would cost every recorded level change a context, also the (most) that cross nothing. */
  private fillCrossedLevels(restSide: BookSide, bookSide: BookSide, price: number): void {
    const levels = this.resting[restSide];
    const crossed = [...levels.entries()].filter(([p]) => (restSide === 0 ? p >= price : p <= price));
    crossed.sort(([a], [b]) => (restSide === 0 ? b - a : a - b));
    for (const [p, list] of crossed) {
      for (const x of [...list]) {
        const avail = this.book.available(bookSide, price);
        if (avail <= 0) return;
        const lots = Math.min(avail, x.leavesLots);
        this.book.take(bookSide, price, lots);
        this.execute(x, p, lots, true);
      }
    }
  }

  private onMark(price: string): void {
    const liquidated = this.account.onMark?.(price) ?? [];
    if (liquidated.length === 0) return;
    // A liquidated position's close orders have nothing left to close.
    for (const x of [...this.byClientId.values()]) {
      if (!x.active) continue;
      const s = x.req.side;
      if ((s === 'SELL_CLOSE' && liquidated.includes('LONG')) || (s === 'BUY_CLOSE' && liquidated.includes('SHORT'))) this.end(x, 'EXPIRED');
    }
  }

  /**
   * Applies a recorded trade (onRecorded's trade, without an event object). What it traded is taken
   * from the recorded book until the level changes, as a taker of the strategy's own takes: the
   * venue's book lost it when the trade happened, and the recording shows that only at its next diff.
   */
  recordTrade(price: number, lots: number, takerSide: BookSide): void {
    this.last = price;
    // The aggressor's opposite side is the one that traded: a sell hits bids, a buy lifts asks.
    const hitSide: BookSide = takerSide === 0 ? 1 : 0;
    // Most trades reach no resting order (the best resting price tells): then no iterator is made.
    const top = this.restingTop(hitSide);
    const reaches = top === top && (hitSide === 0 ? top >= price : top <= price);
    // What own orders at the trade's price got of it: the rest came out of the recorded level.
    const ownAtPrice = reaches ? this.tradeResting(hitSide, price, lots) : 0;
    // Recorded levels better than the trade's price were traded through whole; at its price, what own orders did not get.
    this.book.takeThrough(hitSide, price, lots - ownAtPrice);
    this.triggerStops(price);
  }

  /**
   * recordTrade's walk of the resting orders it reaches, apart: a loop over either the levels or nothing
   * would make an iterator and its results for every recorded trade. Returns the lots own orders got at `price`.
   */
  private tradeResting(hitSide: BookSide, price: number, lots: number): number {
    const levels = this.resting[hitSide];
    let ownAtPrice = 0;
    // Levels may empty and leave the map as orders fill; a Map's iteration allows that.
    for (const p of levels.keys()) {
      if (hitSide === 0 ? p < price : p > price) continue;
      for (const x of levels.get(p)!.slice()) {
        if (p !== price) {
          // Traded through: a trade at a worse price means every order at this one would have traded first.
          this.execute(x, p, x.leavesLots, true);
          continue;
        }
        const q = x.queue!;
        queueTrade(q, lots);
        if (q.ahead < 0) {
          const n = Math.min(Math.floor(-q.ahead + 1e-9), x.leavesLots);
          q.ahead = 0;
          if (n > 0) this.execute(x, p, n, true);
          ownAtPrice += n;
        }
      }
    }
    return ownAtPrice;
  }

  private triggerStops(price: number): void {
    if (this.stops.length > 0) this.triggerStopsAt(price);
  }

  /** triggerStops' work, apart: its closure would cost every recorded trade a context, also when no STOP waits. */
  private triggerStopsAt(price: number): void {
    const reached = (x: ExchOrder): boolean => (x.triggerUp ? price >= x.req.triggerTicks! : price <= x.req.triggerTicks!);
    if (!this.stops.some(reached)) return;
    const due = this.stops.filter(reached);
    this.stops = this.stops.filter((x) => !due.includes(x));
    for (const x of due) {
      x.waiting = false;
      this.reports.report(x, 'TRIGGERED');
      // As on the venue, a triggered order is priced and checked now (an open needs its margin, a close its quantity), and ends when it no longer fits.
      const req = x.req;
      if ((req.priceType ?? 'INPUT') !== 'INPUT') {
        const limit = limitOf(this.o.inst, this.book, { ...req, type: 'LIMIT' }, this.reference());
        if (limit < 0) {
          this.end(x, 'EXPIRED');
          continue;
        }
        x.limitTicks = limit;
      }
      if (this.account.reserve(x) !== 0) {
        this.end(x, 'EXPIRED');
        continue;
      }
      this.work(x);
    }
  }

  /**
   * The last price a market-priced order's band is taken from, once the book is known: before it the order would rest at
   * the band (last ± 5 %) on a book that only looks empty, and fill there as a maker; it is refused (-1149) instead.
   */
  private reference(): number | undefined {
    return this.bookSeen ? this.last : undefined;
  }

  private arrive(req: OrderRequest): void {
    const id = (this.nextId++).toString();
    const x = new ExchOrder(id, req, bookSideOf(req.side));
    let code = checkOrder(this.o.inst, req);
    if (code === 0 && this.byClientId.has(req.clientOrderId)) code = DUPLICATE_ID;
    if (code === 0) {
      // Book-priced orders are priced from the recorded book at arrival; a STOP keeps its own price until it triggers.
      const limit = req.type === 'STOP' ? req.priceTicks : limitOf(this.o.inst, this.book, req, this.reference());
      if (limit < 0) code = limit;
      else x.limitTicks = limit;
    }
    if (code === 0 && this.account.check) code = this.account.check(x);
    if (code === 0 && req.type !== 'STOP') code = checkMakerOnly(this.book, req, x.limitTicks, this.ownBest(x.side === 0 ? 1 : 0));
    // A STOP holds nothing while it waits: it reserves when it triggers.
    if (code === 0 && req.type !== 'STOP') code = this.account.reserve(x);
    if (code !== 0) {
      x.status = 'REJECTED';
      this.reports.report(x, 'REJECTED', 0, 0, false, code);
      return;
    }
    this.byClientId.set(req.clientOrderId, x);
    if (req.type === 'STOP') {
      x.waiting = true;
      // Trigger direction: toward the trigger from the last price (by side with no trade yet), as the venue does.
      x.triggerUp = this.last === undefined ? x.side === 0 : req.triggerTicks! >= this.last;
      this.stops.push(x);
      this.reports.report(x, 'NEW');
      return;
    }
    this.reports.report(x, 'NEW');
    this.work(x);
  }

  /** Takes what the order can from the recorded book, then rests or ends the remainder by its timeInForce. */
  private work(x: ExchOrder): void {
    const req = x.req;
    const tif = req.timeInForce ?? 'GTC';
    const makerOnly = req.type === 'LIMIT_MAKER' || tif === 'LIMIT_MAKER';
    const opp: BookSide = x.side === 0 ? 1 : 0;
    const crosses = (p: number): boolean => (x.side === 0 ? p <= x.limitTicks : p >= x.limitTicks);
    if (!makerOnly) {
      if (tif === 'FOK') {
        let can = 0;
        for (const p of this.book.levels(opp)) {
          if (!crosses(p) || can >= x.leavesLots) break;
          can += Math.max(this.book.available(opp, p), 0);
        }
        if (can < x.leavesLots) return this.end(x, 'EXPIRED');
      }
      // Most limit orders cross nothing: the walk (a sorted copy of the side) only for one that does.
      const top = this.book.best(opp);
      for (const p of top !== undefined && crosses(top) ? [...this.book.levels(opp)] : []) {
        if (!crosses(p) || !x.active) break;
        const avail = this.book.available(opp, p);
        if (avail <= 0) continue;
        const lots = Math.min(avail, x.canTake(p));
        if (lots <= 0) break;
        this.book.take(opp, p, lots);
        if (x.budget >= 0) {
          x.budget -= p * lots;
          // Done, as on the venue, when what is left cannot buy one more lot at the next price.
          const next = this.book.bestAvailable(opp);
          this.execute(x, p, lots, false, next !== undefined && x.budget < next);
        } else {
          this.execute(x, p, lots, false);
        }
      }
    }
    if (!x.active) return;
    if (req.type === 'MARKET' || tif === 'IOC' || tif === 'FOK') return this.end(x, 'EXPIRED');
    this.rest(x);
  }

  /** Returns the best price of the strategy's own resting orders on a side, or undefined. */
  private ownBest(side: BookSide): number | undefined {
    let best: number | undefined;
    for (const p of this.resting[side].keys()) if (best === undefined || (side === 0 ? p > best : p < best)) best = p;
    return best;
  }

  /** Puts an order on its level: the size ahead is the recorded level plus own orders already there. */
  private rest(x: ExchOrder): void {
    const levels = this.resting[x.side];
    let list = levels.get(x.limitTicks);
    if (!list) {
      list = [];
      levels.set(x.limitTicks, list);
      this.restTopKnown[x.side] = false;
    }
    const own = list.reduce((s, y) => s + y.leavesLots, 0);
    x.queue = { ahead: this.book.recorded(x.side, x.limitTicks) + own, tradedSinceDepth: 0 };
    list.push(x);
  }

  /** Takes an order off its level; own orders behind it move up by what it still had open. */
  private unrest(x: ExchOrder): void {
    const levels = this.resting[x.side];
    const list = levels.get(x.limitTicks);
    if (!list) return;
    const i = list.indexOf(x);
    if (i < 0) return;
    const leaves = x.leavesLots;
    if (leaves > 0) for (let j = i + 1; j < list.length; j++) list[j]!.queue!.ahead = Math.max(0, list[j]!.queue!.ahead - leaves);
    list.splice(i, 1);
    if (list.length === 0) {
      levels.delete(x.limitTicks);
      this.restTopKnown[x.side] = false;
    }
  }

  /** Returns the best price own orders rest at on `side` (bids highest, asks lowest), NaN when none. */
  /**
   * Returns a side's best resting price, NaN when it has none. The value is read from `restTop` where it
   * is kept, not returned from a function that finds it: a NaN (or any non-small number) returned from
   * a call that is not inlined is a heap number, one per recorded level change on a side without orders.
   */
  private restingTop(side: BookSide): number {
    if (!this.restTopKnown[side]) this.findRestingTop(side);
    return this.restTop[side];
  }

  private findRestingTop(side: BookSide): void {
    let top = NaN;
    for (const p of this.resting[side].keys()) if (top !== top || (side === 0 ? p > top : p < top)) top = p;
    this.restTop[side] = top;
    this.restTopKnown[side] = true;
  }

  /** Settles one fill of `x`; `done` ends an order by quote amount. */
  private execute(x: ExchOrder, price: number, lots: number, isMaker: boolean, done = false): void {
    const s = this.account.fill(x, price, lots, isMaker);
    x.executedLots += lots;
    x.status = (x.budget < 0 && x.leavesLots === 0) || done ? 'FILLED' : 'PARTIALLY_FILLED';
    if (x.status === 'FILLED') {
      this.unrest(x);
      this.account.release(x);
      this.retire(x);
    }
    this.reports.report(x, 'TRADE', price, lots, isMaker, 0, s.fee, s.feeAsset);
  }

  private end(x: ExchOrder, why: 'CANCELED' | 'EXPIRED'): void {
    x.status = 'CANCELED';
    this.unrest(x);
    if (x.waiting) {
      x.waiting = false;
      this.stops = this.stops.filter((y) => y !== x);
    }
    this.account.release(x);
    this.retire(x);
    this.reports.report(x, why);
  }

  private arriveCancel(clientOrderId: string): void {
    const x = this.byClientId.get(clientOrderId);
    const code = !x ? UNKNOWN_ORDER : x.status === 'FILLED' ? ALREADY_FILLED : !x.active ? ALREADY_CANCELED : 0;
    if (code === 0) return this.end(x!, 'CANCELED');
    this.reports.cancelRejected(clientOrderId, x, code);
  }
}
