/**
 * The order executor. Commands in, events out: `submit` checks an intent with the RiskGate (the one
 * place risk is applied: strategies never reach the venue around it), returns the clientOrderId at
 * once, and queues the venue call; what happens next arrives as ExecutionEvents (and order events on
 * the bus). Its own queue sends cancels first, then order queries and reconciliation reads, then new
 * orders, each when the executor's budget allows: new orders leave a reserve of weight for cancels, and
 * a 429 pauses all. Every venue call of the executor and its reconciler goes through this one queue, so
 * none overlaps another beyond `maxInFlight` (a read sent beside a command that earns a 429 would risk a 418).
 *
 * Outcomes: denied (the gate refused; nothing sent), rejected (a definite VenueError), unknown
 * (timeout, 5xx, 504, 429 after sending): settled by getOrder on the same clientOrderId, and marked
 * never-placed only when the venue still says -2013 after `settle.windowMs` and `settle.checks` checks
 * on the clock. An order is never sent again under a new clientOrderId.
 *
 * A cancel or replace names a working order of its strategy: one the executor does not hold is refused
 * (UNKNOWN_ORDER), another strategy's too (NOT_OWNER), and a replace of a finished one (ORDER_FINISHED).
 * A replacement is held in the queue until the order it replaces has ended: sent when that order ends
 * CANCELED (or REJECTED: it never reached the book), dropped as never placed (REJECTED, with an
 * ORDER_FINISHED denial) when it ended FILLED first, so a replace that races a fill never buys twice.
 */
import type { EventBus } from '../bus/index.ts';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { compareDecimal, Decimal } from '../core/fixed.ts';
import type { ClientOrderIds } from '../core/ids.ts';
import { BhError } from '../core/errors.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import type { AccountKind, Gateway, Instrument, OrderFill, OrderLocator, OrderReport, OrderRequest, OrderUpdateEvent, PositionUpdateEvent } from '../model/index.ts';
import { renderDenial, type OrderIntent, type PlaceIntent, type RiskGate } from '../risk/index.ts';
import { ExecutorBudget, type Cost } from './budget.ts';
import {
  applyOrderEvent, applyReport, isTerminal, markCancelPending, markCanceledUnsent, markRejected, markUnknown, newOrder, type LocalOrder,
} from './order-state.ts';
import { OrderFeed, type OrderHistoryOptions } from './order-feed.ts';
import { OrderStore, type ExecutionEvent } from './order-store.ts';
import { outcomeOf, rateLimitIn, venueCodeOf } from './outcome.ts';
import type { Portfolio } from './portfolio/portfolio.ts';
import { Reconciler, type ReconcileOptions } from './reconciler.ts';
import { DayPnl } from './day-pnl.ts';
import { ownSide, StrategyBooks } from './strategy-book.ts';
import { outsideCloses } from './outside-close.ts';
import { withUnapplied } from './unapplied.ts';
import type { ContractPosition } from './portfolio/accounting.ts';

const NO_SUCH_ORDER = -2013;
/** How long a position event the fills do not explain waits for its successor before the bot reconciles. */
const POSITION_CHECK_MS = 3_000;
/** Cancel refusals that mean the order is already over: read it back to learn how. */
const CANCEL_SETTLES = new Set([NO_SUCH_ORDER, -1139, -1142]);

export interface SettleOptions {
  /** How long after sending a -2013 may still be a request in transit (the venue's recvWindow). */
  readonly windowMs: number;
  /** How many -2013 answers, the last after windowMs, before an unknown order is settled as never placed. */
  readonly checks: number;
  /** Time between checks. */
  readonly everyMs: number;
}

export interface ExecutorOptions {
  readonly gateway: Gateway;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly gate: RiskGate;
  readonly portfolio: Portfolio;
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** Deterministic clientOrderIds: `<prefix>-<run tag>-<n>`. */
  readonly ids: ClientOrderIds;
  readonly settle?: Partial<SettleOptions>;
  readonly reconcile?: Partial<ReconcileOptions>;
  /**
   * Venue calls in flight at once (default 1). More is faster, but a venue that bans clients sending
   * while a 429 is owed (418) bans every call already on its way when a storm starts.
   */
  readonly maxInFlight?: number;
  readonly budget?: ExecutorBudget;
  readonly logger?: Logger;
  /** How long finished orders stay readable (ctx.orders.get). */
  readonly history?: Partial<OrderHistoryOptions>;
}

/** A reconciliation read queued like any command: it settles the caller's promise when it has run (or is dropped at stop). */
interface ReadCommand {
  readonly kind: 'read';
  readonly label: string;
  readonly weight: number;
  readonly run: () => Promise<void>;
  readonly drop: (err: unknown) => void;
}

type Command =
  | { readonly kind: 'cancel'; readonly clientOrderId: string }
  | { readonly kind: 'query'; readonly clientOrderId: string }
  | { readonly kind: 'place'; readonly clientOrderId: string; readonly req: OrderRequest }
  | ReadCommand;

const PRIORITY: Readonly<Record<Command['kind'], number>> = { cancel: 0, query: 1, read: 1, place: 2 };

/** Returns the clientOrderId a command acts on (undefined for reads, which name no order). */
function orderOf(c: Command): string | undefined {
  return c.kind === 'read' ? undefined : c.clientOrderId;
}

// The costs of order commands, made once: the queue asks for them on every pump.
const PLACE_COST: Cost = Object.freeze({ weight: 1, orders: 1 });
const SPOT_CANCEL_COST: Cost = Object.freeze({ weight: 2, orders: 0 });
const ONE_WEIGHT_COST: Cost = Object.freeze({ weight: 1, orders: 0 });

function costOf(c: Command, account: AccountKind): Cost {
  switch (c.kind) {
    case 'place':
      return PLACE_COST;
    case 'cancel':
      return account === 'spot' ? SPOT_CANCEL_COST : ONE_WEIGHT_COST;
    case 'query':
      return ONE_WEIGHT_COST;
    case 'read':
      return { weight: c.weight, orders: 0 };
    default: {
      const never: never = c;
      throw new RangeError(`command: ${String(never)}`);
    }
  }
}

function requestOf(o: PlaceIntent): OrderRequest {
  if (o.kind === 'placeSpot') {
    return { account: 'spot', symbol: o.symbol, clientOrderId: o.clientOrderId, side: o.side, type: o.type, quantity: o.quantity, price: o.price, timeInForce: o.timeInForce };
  }
  return {
    account: 'contract', symbol: o.symbol, clientOrderId: o.clientOrderId, side: o.side, orderType: o.orderType, priceType: o.priceType,
    quantity: o.quantity, price: o.price, triggerPrice: o.triggerPrice, leverage: o.leverage, timeInForce: o.timeInForce,
  };
}

/** The sizes footprint() reports. */
export interface ExecutorFootprint {
  readonly ordersLive: number;
  readonly ordersFinished: number;
  readonly feedLive: number;
  readonly feedFinished: number;
  readonly queued: number;
  readonly inFlight: number;
  readonly sentAt: number;
  readonly misses: number;
  readonly retries: number;
  readonly foreign: number;
  readonly tradeIds: number;
  readonly pendingFills: number;
}

/** The order executor; see the module comment. */
export class OrderExecutor {
  readonly store: OrderStore;
  /** What strategies see of their orders and fills (the one writer of it). */
  readonly feed: OrderFeed;
  /** Each strategy's own book, kept from the feed's fills. */
  readonly books: StrategyBooks;
  private readonly dayPnl: DayPnl;
  readonly budget: ExecutorBudget;
  private readonly reconciler: Reconciler;
  private readonly queue: Command[] = [];
  private readonly sentAt = new Map<string, number>();
  private readonly misses = new Map<string, number>();
  private readonly inFlight = new Set<string>();
  /** One pending query retry per order: removed when it fires, replaced by the next, cancelled when the order settles. */
  private readonly retries = new Map<string, TimerHandle>();
  private running = 0;
  private timer: TimerHandle | undefined;
  /** The pending check of a position event the fills do not explain, and whether one arrived since the last check. */
  private positionCheck: TimerHandle | undefined;
  private positionDoubt = false;
  /** The newest stream event of each contract position side while it was open: its margin is what a liquidation takes (fills do not carry it). One entry per symbol and side at most. */
  private readonly lastOpen = new Map<string, { qty: string; margin: string; ts: number }>();
  private readonly offs: (() => void)[] = [];
  private readonly settle: SettleOptions;
  private readonly maxInFlight: number;
  private readonly log: Logger;
  private idleWaiters: (() => void)[] = [];
  /** True while a stream report is applied; orders it settles are forgotten by afterDelivery (settled). */
  private streaming = false;
  private readonly settled: string[] = [];
  /** Fills the feed delivered to strategies and the executor's readers have not heard of yet (emptied by afterDelivery, in the same call). */
  private readonly delivered: OrderFill[] = [];
  private stopped = false;
  /**
   * Replacements held in the queue until the order they replace has ended (new clientOrderId → the one it
   * replaces): sent once that order is CANCELED or REJECTED, dropped (ORDER_FINISHED) when it FILLED before
   * the cancel reached it. At most one entry per queued placement.
   */
  private readonly held = new Map<string, string>();
  private releaseQueued = false;

  constructor(private readonly o: ExecutorOptions) {
    this.store = new OrderStore(o.clock, o.history);
    this.feed = new OrderFeed(o.clock, o.instruments, o.history);
    this.books = new StrategyBooks(o.instruments, o.portfolio);
    this.dayPnl = new DayPnl(o.clock, this.books);
    // The book takes a fill before any strategy hears of it, so a strategy's position already holds the fill it is told of;
    // the executor's own readers (tallies, logs) hear of it once the strategies have (afterDelivery).
    this.feed.on({
      fill: (fill) => {
        this.books.apply(fill);
        this.delivered.push(fill);
      },
    });
    this.budget = o.budget ?? new ExecutorBudget();
    this.settle = { windowMs: 5_000, checks: 3, everyMs: 1_000, ...o.settle };
    this.maxInFlight = o.maxInFlight ?? 1;
    this.log = o.logger ?? silentLogger();
    this.reconciler = new Reconciler({
      gateway: o.gateway, clock: o.clock, portfolio: o.portfolio, store: this.store, options: o.reconcile ?? {}, log: this.log,
      inFlight: () => this.inFlight,
      cancel: (report) => this.cancelReport(report),
      check: (clientOrderId) => this.enqueue({ kind: 'query', clientOrderId }),
      read: (label, weight, fn) => this.read(label, weight, fn),
      adopted: (before) => this.closeOutside(before),
      tradeFill: (fill) => {
        const apply = this.feed.tradeFill(fill);
        this.afterDelivery();
        return apply;
      },
    });
    this.store.on((ev) => {
      if (ev.type !== 'order') return;
      this.feed.onOrder(ev.order);
      if (!isTerminal(ev.order.phase)) return;
      // An order ended: the replacements it held are released or dropped once this change is delivered (never inside a submit).
      if (this.held.size > 0 && !this.releaseQueued) {
        this.releaseQueued = true;
        queueMicrotask(() => this.releaseHeld());
      }
      // A settled order is never queried again: what settling it needed is forgotten, after the delivery of a stream report.
      if (this.streaming) this.settled.push(ev.order.clientOrderId);
      else this.forget(ev.order.clientOrderId);
    });
  }

  /** Loads the venue's rate limits, reconciles, then follows the bus's order, balance, position and reconnected events and reconciles on the clock. */
  async start(): Promise<void> {
    const info = await this.o.gateway.exchangeInfo();
    if (info.rateLimits.length > 0) this.budget.setLimits(info.rateLimits);
    await this.reconciler.run(true);
    this.offs.push(
      this.o.bus.subscribe('order', (ev) => this.onStreamReport(ev), { label: 'executor' }),
      this.o.bus.subscribe('balance', (ev) => void this.o.portfolio.applyBalance(ev), { label: 'executor-balance' }),
      this.o.bus.subscribe('position', (ev) => this.onPositionEvent(ev), { label: 'executor-position' }),
      this.o.bus.subscribe('reconnected', () => void this.reconcile(), { label: 'executor-reconnected' }),
    );
    if (this.o.gate.hasDailyLossLimit()) {
      this.dayPnl.start();
      this.offs.push(() => this.dayPnl.stop());
    }
    const every = this.reconciler.everyMs;
    if (every > 0) {
      const t = this.o.clock.setInterval(() => void this.reconcile(), every);
      this.offs.push(() => t.cancel());
    }
  }

  /**
   * A position event whose quantity the counted fills do not explain is either late (its successor is
   * on the way) or a change without an own fill (a liquidation). Position events carry no venue time,
   * so the bot waits a moment and, when the newest event still disagrees, reconciles: once per doubting
   * event, never in a loop on one stale event.
   */
  private onPositionEvent(ev: PositionUpdateEvent): void {
    this.o.portfolio.applyPosition(ev);
    const key = `${ev.symbol}|${ev.side}`;
    const held = this.lastOpen.get(key);
    if (compareDecimal(ev.position, '0') > 0 && (held === undefined || ev.ts >= held.ts)) this.lastOpen.set(key, { qty: ev.position, margin: ev.margin, ts: ev.ts });
    if (!this.o.portfolio.positionsDisagree()) return;
    this.positionDoubt = true;
    this.positionCheck ??= this.o.clock.setTimeout(() => {
      this.positionCheck = undefined;
      if (!this.positionDoubt || !this.o.portfolio.positionsDisagree()) return;
      this.positionDoubt = false;
      void this.reconcile();
    }, POSITION_CHECK_MS);
  }

  /** After a snapshot: positions the venue closed without a fill (a liquidation) leave the books of the strategies that held them (see outside-close.ts). */
  private closeOutside(before: readonly ContractPosition[]): void {
    const now = this.o.clock.now();
    const marginOf = (p: ContractPosition): string => {
      const e = this.lastOpen.get(`${p.symbol}|${p.side}`);
      // The event's margin, scaled to the quantity the fills made when the two differ (a late or early frame).
      return e === undefined ? p.margin : new Decimal(e.margin).mul(p.qty).div(e.qty).toFixed();
    };
    for (const c of outsideCloses(before, this.o.portfolio.view().positions, (symbol, side) => this.books.heldOn(symbol, side), this.o.instruments, marginOf)) {
      this.books.closeOutside(c.strategyId, c.symbol, c.side, c.qty, c.loss, now);
      this.log.warn({ strategy: c.strategyId, symbol: c.symbol, side: c.side, qty: c.qty, marginLost: c.loss },
        'position closed by the venue without an order (a liquidation): taken out of the strategy\'s book, its margin charged to realized PnL');
    }
  }

  /** Stops listening and timers; calls in flight finish, queued commands stay unsent. */
  stop(): void {
    this.stopped = true;
    this.positionCheck?.cancel();
    this.positionCheck = undefined;
    for (const off of this.offs.splice(0)) off();
    for (const t of this.retries.values()) t.cancel();
    this.retries.clear();
    // Queued reads will never be sent: their callers (a reconciliation) end with an error instead of waiting forever.
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const c = this.queue[i]!;
      if (c.kind !== 'read') continue;
      this.queue.splice(i, 1);
      c.drop(new BhError('EXECUTOR_STOPPED', `${c.label}: the executor stopped before the read was sent`, 'denied', { context: { read: c.label } }));
    }
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Returns the next deterministic clientOrderId. */
  nextClientOrderId(): string {
    return this.o.ids.take();
  }

  /**
   * Submits an intent and returns its clientOrderId at once (for cancelAll, the empty string). Place,
   * replace and closePosition intents go through the RiskGate first; a denial is an ExecutionEvent.
   */
  submit(intent: OrderIntent): string {
    switch (intent.kind) {
      case 'cancel':
        // A finished order of its own passes (a no-op: its final report came or is coming); one it never placed is refused.
        if (this.refusedTarget(intent.clientOrderId, intent.strategyId, intent.clientOrderId, false)) return intent.clientOrderId;
        this.cancel(intent.clientOrderId);
        return intent.clientOrderId;
      case 'cancelAll':
        for (const ord of this.store.working(intent.strategyId)) {
          if (intent.symbol === undefined || ord.symbol === intent.symbol) this.cancel(ord.clientOrderId);
        }
        return '';
      case 'placeSpot':
      case 'placeContract':
      case 'closePosition':
      case 'replace':
        return this.gateAndPlace(intent);
      default: {
        const never: never = intent;
        throw new RangeError(`intent: ${String(never)}`);
      }
    }
  }

  /** Asks for a cancel: an order still in the queue is dropped, a sent one is cancelled on the venue (repeated by reconciliation until the venue says it is over). */
  cancel(clientOrderId: string): void {
    const ord = this.store.get(clientOrderId);
    if (ord === undefined || isTerminal(ord.phase)) return;
    const queued = this.queue.findIndex((c) => c.kind === 'place' && c.clientOrderId === clientOrderId);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.store.put(markCanceledUnsent(ord), 'local');
      return;
    }
    this.store.put(markCancelPending(ord), 'local');
    if (!this.inFlight.has(clientOrderId)) this.enqueue({ kind: 'cancel', clientOrderId });
  }

  /** Returns an order by clientOrderId. */
  order(clientOrderId: string): LocalOrder | undefined {
    return this.store.get(clientOrderId);
  }

  /** Returns every order. */
  orders(): readonly LocalOrder[] {
    return this.store.all();
  }

  /** Subscribes to execution events. */
  on(listener: (ev: ExecutionEvent) => void): () => void {
    return this.store.on(listener);
  }

  /** Runs one reconciliation now (joins the one running, if any). */
  reconcile(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.reconciler.run(false).catch((err: unknown) => this.log.warn({ err: String(err) }, 'reconciliation failed; next one on the clock'));
  }

  /** Reads fills now (after an order report showed more filled). */
  syncFills(): Promise<void> {
    return this.reconciler.syncFills();
  }

  /** Resolves when no venue call is in flight (queued commands may still wait for budget on the clock). */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Returns the size of everything the executor holds that could grow with traffic or time (each has a bound). */
  footprint(): ExecutorFootprint {
    const store = this.store.size();
    const feed = this.feed.size();
    return {
      ordersLive: store.live, ordersFinished: store.finished, feedLive: feed.live, feedFinished: feed.finished, queued: this.queue.length,
      inFlight: this.inFlight.size, sentAt: this.sentAt.size, misses: this.misses.size, retries: this.retries.size, foreign: this.foreign.size,
      tradeIds: this.reconciler.fills().seen.size, pendingFills: this.o.portfolio.pendingFills(),
    };
  }

  /** Returns true while an order this run placed (not one adopted from the venue) waits to be sent or for the venue's first answer. */
  placing(): boolean {
    return this.store.working().some((o) => !o.adopted && o.phase === 'PENDING_NEW');
  }

  /** Returns how many commands wait in the queue. */
  queued(): number {
    return this.queue.length;
  }

  /**
   * Runs a venue read through the executor's queue and budget (after cancels, beside order queries,
   * before new orders) and returns its answer; a 429 it earns pauses the executor like any other.
   */
  read<T>(label: string, weight: number, fn: () => Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(new BhError('EXECUTOR_STOPPED', `${label}: the executor is stopped`, 'denied', { context: { read: label } }));
    return new Promise<T>((resolve, reject) => {
      const run = async (): Promise<void> => {
        try {
          const v = await fn();
          this.budget.succeeded();
          resolve(v);
        } catch (err) {
          this.noteRateLimit(err);
          reject(err);
        }
      };
      this.enqueue({ kind: 'read', label, weight, run, drop: reject });
    });
  }

  /**
   * Refuses a cancel's or a replace's target that is not the strategy's working order, as a denial of `newId`:
   * UNKNOWN_ORDER when the executor holds no such order (never placed in this run, or finished and gone from
   * the history), NOT_OWNER when it is another strategy's, and with `finished`, ORDER_FINISHED when it has
   * ended (a replace of it would only place a second order). Returns true when refused.
   */
  private refusedTarget(clientOrderId: string, strategyId: string, newId: string, finished: boolean): boolean {
    const ord = this.store.get(clientOrderId);
    if (ord === undefined) {
      this.deny(newId, strategyId, 'UNKNOWN_ORDER', { clientOrderId, strategy: strategyId });
      return true;
    }
    if (ord.strategyId !== strategyId) {
      this.deny(newId, strategyId, 'NOT_OWNER', { clientOrderId, strategy: strategyId });
      return true;
    }
    if (finished && isTerminal(ord.phase)) {
      this.deny(newId, strategyId, 'ORDER_FINISHED', { clientOrderId, status: ord.phase });
      return true;
    }
    return false;
  }

  /** Tells the executor's readers of its own refusal of `clientOrderId`, with the `CODE: key=value` line. */
  private deny(clientOrderId: string, strategyId: string, code: string, values: Readonly<Record<string, string>>): void {
    const text = `${code}: ${Object.entries(values).map(([k, v]) => `${k}=${v}`).join(' ')}`;
    this.store.emit({ type: 'denied', clientOrderId, strategyId, denial: { code, values }, text });
  }

  private gateAndPlace(intent: OrderIntent & { kind: 'placeSpot' | 'placeContract' | 'closePosition' | 'replace' }): string {
    const id = intent.kind === 'replace' ? intent.order.clientOrderId : intent.clientOrderId;
    if (intent.kind === 'replace' && this.refusedTarget(intent.replaces, intent.strategyId, id, true)) return id;
    const now = this.o.clock.now();
    let base = withUnapplied(this.o.portfolio.snapshot(now, this.store.openCounts()), this.delivered);
    // The day's PnL with its unrealized move (day-pnl.ts), figured only for a strategy whose limit will read it.
    if (this.o.gate.dailyLossLimit(intent.strategyId) !== undefined) {
      base = { ...base, pnlToday: { ...base.pnlToday, [intent.strategyId]: this.dayPnl.of(intent.strategyId, base.pnlToday[intent.strategyId], now) } };
    }
    // A close closes only what the strategy's own fills hold on that side (spot holdings are its LONG).
    const snapshot = intent.kind === 'closePosition'
      ? { ...base, held: { [intent.strategyId]: { [intent.symbol]: ownSide(this.books.symbol(intent.strategyId, intent.symbol), intent.side) } } }
      : base;
    const r = this.o.gate.check(intent, snapshot);
    if (!r.ok) {
      this.store.emit({ type: 'denied', clientOrderId: id, strategyId: intent.strategyId, denial: r.denial, text: renderDenial(r.denial) });
      return id;
    }
    const out = r.intent;
    // Rounded to the instrument's filters (risk.rounding: round): the order's own fields show it, this line says why.
    if (r.adjusted.length > 0) this.log.debug({ strategy: intent.strategyId, clientOrderId: id, adjusted: r.adjusted.map(renderDenial) }, 'order rounded to the instrument\'s filters');
    if (out.kind === 'replace') {
      // A replacement of a replacement still held waits for what that one waited for (its cancel below only drops it from the queue).
      const before = this.held.get(out.replaces);
      this.cancel(out.replaces);
      // The replacement waits for the old order's end: sent when it is cancelled, dropped when it filled first.
      const old = this.store.get(out.replaces);
      const waitFor = old !== undefined && !isTerminal(old.phase) ? out.replaces : before;
      if (waitFor !== undefined) this.held.set(out.order.clientOrderId, waitFor);
      this.place(out.order);
    } else if (out.kind === 'placeSpot' || out.kind === 'placeContract') {
      this.place(out);
    }
    return id;
  }

  private place(p: PlaceIntent): void {
    const req = requestOf(p);
    const ord = newOrder({
      clientOrderId: p.clientOrderId, strategyId: p.strategyId, account: req.account, symbol: p.symbol,
      side: p.side, type: p.kind === 'placeSpot' ? p.type : p.orderType, price: p.price ?? '0', origQty: p.quantity,
    });
    this.store.put(ord, 'local');
    this.enqueue({ kind: 'place', clientOrderId: p.clientOrderId, req });
  }

  /**
   * Sends the held replacements whose old order was cancelled (or rejected: it never rested), and drops, as
   * REJECTED (not placed) with an ORDER_FINISHED denial, those whose old order FILLED: the strategy's replace
   * raced a fill it had not heard of yet. Runs on a microtask after an order ended.
   */
  private releaseHeld(): void {
    this.releaseQueued = false;
    for (const [id, replaces] of this.held) {
      const mine = this.store.get(id);
      if (mine === undefined || isTerminal(mine.phase)) {
        this.held.delete(id); // cancelled by its strategy meanwhile
        continue;
      }
      const old = this.store.get(replaces);
      if (old !== undefined && !isTerminal(old.phase)) continue;
      this.held.delete(id);
      if (old !== undefined && old.phase !== 'FILLED') continue;
      const at = this.queue.findIndex((c) => c.kind === 'place' && c.clientOrderId === id);
      if (at >= 0) this.queue.splice(at, 1);
      const status = old?.phase ?? 'UNKNOWN';
      this.store.put(markRejected(mine, 'not-placed', `ORDER_FINISHED: clientOrderId=${replaces} status=${status}`), 'local');
      this.deny(id, mine.strategyId, 'ORDER_FINISHED', { clientOrderId: replaces, status });
    }
    this.pump();
  }

  private cancelReport(r: OrderReport): void {
    const ord = this.store.get(r.clientOrderId);
    if (ord !== undefined && !isTerminal(ord.phase)) {
      this.cancel(r.clientOrderId);
      return;
    }
    // Not ours, or ours and over locally while the venue still lists it: cancel it as the venue names it.
    this.enqueueForeignCancel(r);
  }

  private readonly foreign = new Map<string, OrderLocator>();

  private enqueueForeignCancel(r: OrderReport): void {
    this.foreign.set(r.clientOrderId, { account: r.account, symbol: r.symbol, clientOrderId: r.clientOrderId, orderId: r.orderId });
    this.enqueue({ kind: 'cancel', clientOrderId: r.clientOrderId });
  }

  private enqueue(c: Command): void {
    if (c.kind !== 'read' && this.queue.some((q) => q.kind === c.kind && orderOf(q) === c.clientOrderId)) return;
    this.queue.push(c);
    this.pump();
  }

  private accountOf(c: Command): AccountKind {
    if (c.kind === 'read') return 'spot';
    return c.kind === 'place' ? c.req.account : this.store.get(c.clientOrderId)?.account ?? this.foreign.get(c.clientOrderId)?.account ?? 'spot';
  }

  private pump(): void {
    if (this.stopped) return;
    this.timer?.cancel();
    this.timer = undefined;
    const now = this.o.clock.now();
    let wait = Infinity;
    while (this.running < this.maxInFlight && this.queue.length > 0) {
      let pick = -1;
      for (let i = 0; i < this.queue.length; i++) {
        const c = this.queue[i]!;
        const id = orderOf(c);
        if (c.kind !== 'place' && id !== undefined && this.inFlight.has(id)) continue;
        if (c.kind === 'place' && this.held.has(c.clientOrderId)) continue;
        const ms = this.budget.waitFor(costOf(c, this.accountOf(c)), now);
        if (ms > 0) {
          wait = Math.min(wait, ms);
          continue;
        }
        if (pick < 0 || PRIORITY[c.kind] < PRIORITY[this.queue[pick]!.kind]) pick = i;
      }
      if (pick < 0) break;
      const [c] = this.queue.splice(pick, 1) as [Command];
      this.budget.charge(costOf(c, this.accountOf(c)), now);
      this.running += 1;
      const id = orderOf(c);
      if (id !== undefined) this.inFlight.add(id);
      void this.run(c).finally(() => {
        this.running -= 1;
        if (id !== undefined) this.inFlight.delete(id);
        this.pump();
        if (this.running === 0) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
    // A held replacement waits for an order's end, not for the clock.
    const waiting = this.held.size === 0 ? this.queue.length : this.queue.filter((c) => c.kind !== 'place' || !this.held.has(c.clientOrderId)).length;
    if (waiting > 0 && this.running === 0 && wait === Infinity) wait = this.settle.everyMs;
    if (this.queue.length > 0 && wait < Infinity) this.timer = this.o.clock.setTimeout(() => this.pump(), wait);
  }

  private noteRateLimit(err: unknown): void {
    const after = rateLimitIn(err);
    if (after === undefined) return;
    const pause = this.budget.rateLimited(this.o.clock.now(), after > 0 ? after : undefined);
    this.log.warn({ pauseMs: pause }, 'venue answered 429: executor pauses');
  }

  private async run(c: Command): Promise<void> {
    switch (c.kind) {
      case 'place':
        return this.runPlace(c.clientOrderId, c.req);
      case 'cancel':
        return this.runCancel(c.clientOrderId);
      case 'query':
        return this.runQuery(c.clientOrderId);
      case 'read':
        return c.run();
      default: {
        const never: never = c;
        throw new RangeError(`command: ${String(never)}`);
      }
    }
  }

  private update(clientOrderId: string, f: (o: LocalOrder) => LocalOrder, source: 'rest' | 'local'): LocalOrder | undefined {
    const ord = this.store.get(clientOrderId);
    if (ord === undefined) return undefined;
    const next = f(ord);
    this.store.put(next, source);
    return next;
  }

  private async runPlace(id: string, req: OrderRequest): Promise<void> {
    this.sentAt.set(id, this.o.clock.now());
    try {
      const report = await this.o.gateway.place(req);
      this.budget.succeeded();
      this.onReport(report, 'rest');
    } catch (err) {
      this.noteRateLimit(err);
      const out = outcomeOf(err);
      switch (out.kind) {
        case 'rejected':
          this.update(id, (o) => markRejected(o, 'rejected', out.reason), 'local');
          break;
        case 'not-sent':
          this.update(id, (o) => markRejected(o, 'not-placed', out.reason), 'local');
          break;
        case 'unknown':
          this.update(id, (o) => markUnknown(o, out.reason), 'local');
          this.enqueue({ kind: 'query', clientOrderId: id });
          break;
        default: {
          const never: never = out;
          throw new RangeError(`outcome: ${String(never)}`);
        }
      }
    }
    const ord = this.store.get(id);
    if (ord !== undefined && ord.cancelPending && !isTerminal(ord.phase)) this.enqueue({ kind: 'cancel', clientOrderId: id });
  }

  private locator(id: string): OrderLocator | undefined {
    const ord = this.store.get(id);
    if (ord !== undefined) return { account: ord.account, symbol: ord.symbol, clientOrderId: id };
    return this.foreign.get(id);
  }

  private async runCancel(id: string): Promise<void> {
    const ref = this.locator(id);
    if (ref === undefined) return;
    const ord = this.store.get(id);
    if (ord !== undefined && isTerminal(ord.phase) && !this.foreign.has(id)) return;
    try {
      const report = await this.o.gateway.cancel(ref);
      this.budget.succeeded();
      this.foreign.delete(id);
      this.onReport(report, 'rest');
    } catch (err) {
      this.noteRateLimit(err);
      const code = venueCodeOf(err);
      const out = outcomeOf(err);
      if (out.kind === 'unknown' || (code !== undefined && CANCEL_SETTLES.has(code))) {
        if (ord !== undefined) this.enqueue({ kind: 'query', clientOrderId: id });
      } else {
        // Refused for another reason: the order stays PENDING_CANCEL and reconciliation asks again.
        this.log.warn({ clientOrderId: id, err: out.reason }, 'cancel refused');
      }
    }
  }

  private async runQuery(id: string): Promise<void> {
    const ord = this.store.get(id);
    if (ord === undefined || isTerminal(ord.phase)) return;
    try {
      const report = await this.o.gateway.getOrder({ account: ord.account, symbol: ord.symbol, clientOrderId: id });
      this.budget.succeeded();
      this.misses.delete(id);
      this.dropRetry(id);
      this.onReport(report, 'rest');
      const now = this.store.get(id);
      if (now !== undefined && now.cancelPending && !isTerminal(now.phase)) this.enqueue({ kind: 'cancel', clientOrderId: id });
    } catch (err) {
      this.noteRateLimit(err);
      if (venueCodeOf(err) === NO_SUCH_ORDER) {
        const misses = (this.misses.get(id) ?? 0) + 1;
        this.misses.set(id, misses);
        const sent = this.sentAt.get(id) ?? 0;
        if (misses >= this.settle.checks && this.o.clock.now() - sent >= this.settle.windowMs) {
          this.misses.delete(id);
          this.update(id, (o) => markRejected(o, 'not-placed', `venue -2013 on ${misses} checks over ${this.o.clock.now() - sent} ms: never placed`), 'local');
          return;
        }
      }
      // Not settled yet (not found within the window, or the read failed): ask again on the clock.
      this.retryQuery(id);
    }
  }

  private retryQuery(id: string): void {
    if (this.stopped) return;
    this.retries.get(id)?.cancel();
    this.retries.set(id, this.o.clock.setTimeout(() => {
      this.retries.delete(id);
      this.enqueue({ kind: 'query', clientOrderId: id });
    }, this.settle.everyMs));
  }

  /** Forgets what settling an order needed (retries and misses are usually empty). */
  private forget(id: string): void {
    this.dropRetry(id);
    this.sentAt.delete(id);
    if (this.misses.size > 0) this.misses.delete(id);
  }

  private dropRetry(id: string): void {
    if (this.retries.size === 0) return;
    this.retries.get(id)?.cancel();
    this.retries.delete(id);
  }

  /** Applies a stream report: the order moves forward, then the fill it carries is counted at once (and applied to the portfolio when it names its trade id). */
  private onStreamReport(ev: OrderUpdateEvent): void {
    this.streaming = true;
    let next: LocalOrder | undefined;
    try {
      // As onReport, without making an OrderReport of the event first.
      const ord = this.store.get(ev.clientOrderId) ?? this.store.byVenueId(ev.orderId);
      if (ord !== undefined) {
        next = applyOrderEvent(ord, ev);
        this.store.put(next, 'stream', ord);
      }
    } finally {
      this.streaming = false;
    }
    // An unknown order (undefined) changed nothing, so nothing is left to forget.
    if (next === undefined) return;
    const fill = this.feed.streamFill(next, ev);
    // The fill has reached the strategies by now; the bookkeeping below is off their path.
    this.afterDelivery();
    if (fill !== undefined) this.o.portfolio.applyFills([fill]);
    this.checkFills(next);
  }

  /** Once strategies have their fills: the books fold them, and the executor's readers hear of them. */
  private afterDelivery(): void {
    this.store.settle();
    if (this.settled.length > 0) for (const id of this.settled.splice(0)) this.forget(id);
    this.books.settle();
    if (this.delivered.length === 0) return;
    for (const fill of this.delivered.splice(0)) this.store.emit({ type: 'fill', fill });
  }

  /** Applies a venue report to the order it names; more filled than the fills counted asks myTrades for the rest. */
  private onReport(r: OrderReport, source: 'stream' | 'rest' = 'stream', check = true): LocalOrder | undefined {
    const ord = this.store.get(r.clientOrderId) ?? this.store.byVenueId(r.orderId);
    if (ord === undefined) return undefined;
    const next = applyReport(ord, r);
    this.store.put(next, source, ord);
    if (check) this.checkFills(next);
    return next;
  }

  /** Reads myTrades soon when the venue says more was executed than the fills counted (a fill the stream did not bring). */
  private checkFills(o: LocalOrder): void {
    const got = this.feed.get(o.clientOrderId)?.executedQty ?? '0';
    if (compareDecimal(o.executedQty, got) > 0) this.reconciler.syncFillsSoon();
  }
}
