/**
 * The exchange of bar mode, for data that holds only klines: the strategy's orders fill along each
 * bar's path (bars.ts: open, the nearer extreme, the other extreme, close) in full, with the same
 * accounts, venue rules, latencies and reports as the L2 exchange. A bar reaches this exchange at its
 * open (the runner feeds it then) and walks its path on the clock: the open at once, each later point
 * a third of the bar on. An order that arrives during a bar works from the start of the leg it
 * arrives in; one that arrives between bars waits for the next open. The mark (contracts: funding,
 * liquidation) follows the path's points. Coarser than L2: no depth, no queue, no partial fills.
 */
import type { VirtualClock } from '../core/clock.ts';
import type { SimInstrument } from '../sim/engine/instruments.ts';
import { fmtAmount } from '../sim/ledger/amount.ts';
import { barPath, fillFrom, type Bar, type BarOrder } from './bars.ts';
import { noAccount, type AccountOrder, type ExchangeAccount } from './exchange/account.ts';
import type { LatencyModel } from './exchange/latency.ts';
import { checkOrder } from './exchange/rules.ts';
import type { ExecutionReport, OrderRequest, OrderStatus } from './exchange/types.ts';
import { ReportSender } from './exchange/report-sender.ts';

/** One of the strategy's orders in bar mode. */
class BarExchOrder implements AccountOrder {
  status: OrderStatus = 'NEW';
  executedLots = 0;
  limitTicks = 0;
  /** Quote left to spend of a spot MARKET BUY by amount, in qunits; −1 for other orders. */
  budget: number;
  /** A STOP that has not triggered yet. */
  waiting: boolean;

  constructor(
    readonly orderId: string,
    readonly req: OrderRequest,
  ) {
    this.budget = req.quoteBudget ?? -1;
    this.waiting = req.type === 'STOP';
  }

  get leavesLots(): number {
    return this.budget >= 0 ? 0 : this.req.lots - this.executedLots;
  }

  get active(): boolean {
    return this.status === 'NEW' || this.status === 'PARTIALLY_FILLED';
  }

  get buy(): boolean {
    return this.req.side === 'BUY' || this.req.side === 'BUY_OPEN' || this.req.side === 'BUY_CLOSE';
  }
}

/** What the bar exchange needs. */
export interface BarExchangeOptions {
  readonly clock: VirtualClock;
  readonly inst: SimInstrument;
  readonly latency: LatencyModel;
  readonly onReport: (r: ExecutionReport) => void;
  readonly account?: ExchangeAccount;
  /** Called at each bar's close, after its last fills (the runner samples equity then). */
  readonly onClose?: (bar: Bar) => void;
  /** Finished orders remembered for duplicate-id and cancel answers (default 10 000). */
  readonly keepFinished?: number;
}

const UNKNOWN_ORDER = -2013;
const ALREADY_FILLED = -1139;
const ALREADY_CANCELED = -1142;
const DUPLICATE_ID = -1141;
/** The venue's refusal of a maker-only order that would take. */
const WOULD_TAKE = -1158;

/** The exchange of one instrument in bar mode. */
export class BarExchange {
  private readonly account: ExchangeAccount;
  private nextId = 1n;
  private readonly byClientId = new Map<string, BarExchOrder>();
  private readonly finished: BarExchOrder[] = [];
  private readonly keepFinished: number;
  /** Open orders in arrival order. */
  private working: BarExchOrder[] = [];
  private bar: Bar | undefined;
  private path: readonly number[] = [];
  /** The last path point reached of the current bar (0–3). */
  private point = 0;
  private last: number | undefined;
  private readonly reports: ReportSender;
  /** Fills due at a later point of the current bar, by point. */
  private due: { x: BarExchOrder; priceTicks: number; isMaker: boolean; triggered: boolean }[][] = [[], [], [], []];

  constructor(private readonly o: BarExchangeOptions) {
    this.reports = new ReportSender(o);
    this.account = o.account ?? noAccount;
    this.keepFinished = o.keepFinished ?? 10_000;
  }

  /** Returns how many orders the exchange remembers (open and recently finished). */
  get remembered(): number {
    return this.byClientId.size;
  }

  /** Returns the last price the path reached, ticks. */
  get lastPrice(): number | undefined {
    return this.last;
  }

  submit(req: OrderRequest): void {
    const clock = this.o.clock;
    clock.setTimeout(() => this.arrive(req), this.o.latency.entry(clock.now(), { clientOrderId: req.clientOrderId, op: 'place', request: req }));
  }

  cancel(clientOrderId: string): void {
    const clock = this.o.clock;
    clock.setTimeout(() => this.arriveCancel(clientOrderId), this.o.latency.entry(clock.now(), { clientOrderId, op: 'cancel' }));
  }

  /** Starts a bar at the clock's time (its open): open orders work from the open, later points come on the clock. */
  onBar(bar: Bar): void {
    this.bar = bar;
    this.path = barPath(bar);
    this.point = 0;
    this.due = [[], [], [], []];
    this.reach(0);
    for (const x of [...this.working]) this.work(x, 0);
    const clock = this.o.clock;
    const leg = (bar.closeTime - bar.openTime) / 3;
    for (const k of [1, 2, 3]) {
      clock.setTimeout(() => {
        if (this.bar !== bar) return;
        this.point = k;
        for (const f of this.due[k]!) if (f.x.active) this.fill(f.x, f.priceTicks, f.isMaker, f.triggered);
        this.reach(k);
        if (k === 3) {
          this.bar = undefined;
          this.o.onClose?.(bar);
        }
      }, Math.max(0, Math.floor(bar.openTime + k * leg) - clock.now()));
    }
  }

  /** The path reached point `k`: the last price and the mark move there. */
  private reach(k: number): void {
    const p = this.path[k]!;
    this.last = p;
    this.account.onMark?.(fmtAmount(BigInt(p) * this.o.inst.tick.amount))?.forEach((side) => {
      for (const x of [...this.working]) if ((x.req.side === 'SELL_CLOSE' && side === 'LONG') || (x.req.side === 'BUY_CLOSE' && side === 'SHORT')) this.end(x, 'EXPIRED');
    });
  }

  private arrive(req: OrderRequest): void {
    const x = new BarExchOrder((this.nextId++).toString(), req);
    let code = checkOrder(this.o.inst, req);
    if (code === 0 && this.byClientId.has(req.clientOrderId)) code = DUPLICATE_ID;
    const now = this.last;
    if (code === 0) x.limitTicks = this.limitOf(x, now);
    if (code === 0 && x.limitTicks <= 0 && req.type !== 'MARKET') code = -1149;
    if (code === 0 && this.account.check) code = this.account.check(x);
    if (code === 0 && makerOnly(req) && now !== undefined && (x.buy ? x.limitTicks >= now : x.limitTicks <= now)) code = WOULD_TAKE;
    if (code === 0 && req.type !== 'STOP') code = this.account.reserve(x);
    if (code !== 0) {
      x.status = 'REJECTED';
      this.reports.report(x, 'REJECTED', 0, 0, false, code);
      return;
    }
    this.byClientId.set(req.clientOrderId, x);
    this.working.push(x);
    this.reports.report(x, 'NEW');
    const bar = this.bar;
    if (bar === undefined) {
      if (!waits(req)) this.end(x, 'EXPIRED');
      return;
    }
    // Within the bar, the order works from the start of the leg it arrived in.
    const leg = (bar.closeTime - bar.openTime) / 3;
    const from = Math.min(2, Math.max(this.point, Math.floor((this.o.clock.now() - bar.openTime) / leg)));
    this.work(x, from);
  }

  /** Returns the price an order is priced at on arrival: its own (INPUT), else the path's price now (a spot MARKET order: 0). */
  private limitOf(x: BarExchOrder, now: number | undefined): number {
    const r = x.req;
    // A spot MARKET order has no limit, as on the L2 exchange: a buy pays what it takes, a sell locks its base.
    if (r.type === 'MARKET') return x.buy ? Infinity : 0;
    if (r.type === 'STOP') return r.priceTicks > 0 ? r.priceTicks : r.triggerTicks ?? 0;
    return (r.priceType ?? 'INPUT') === 'INPUT' ? r.priceTicks : now ?? 0;
  }

  /** Works an order on the current bar from point `from`: fills now, at a later point, or not on this bar. */
  private work(x: BarExchOrder, from: number): void {
    const f = fillFrom(this.path, from, barOrderOf(x));
    if (f === undefined || (f.isMaker && !waits(x.req)) || (!f.isMaker && makerOnly(x.req) && !x.waiting)) {
      if (!waits(x.req)) this.end(x, 'EXPIRED');
      return;
    }
    const triggered = x.waiting;
    if (f.leg <= from) this.fill(x, f.priceTicks, f.isMaker, triggered);
    else this.due[f.leg]!.push({ x, priceTicks: f.priceTicks, isMaker: f.isMaker, triggered });
  }

  /** Fills the whole order at `priceTicks` (a STOP triggers first, and reserves then as on the venue). */
  private fill(x: BarExchOrder, priceTicks: number, isMaker: boolean, triggered: boolean): void {
    if (triggered && x.waiting) {
      x.waiting = false;
      this.reports.report(x, 'TRIGGERED');
      if (x.limitTicks <= 0) x.limitTicks = priceTicks;
      if (this.account.reserve(x) !== 0) return this.end(x, 'EXPIRED');
    }
    let lots = x.leavesLots;
    if (x.budget >= 0) lots = Math.floor(x.budget / priceTicks);
    if (lots <= 0) return this.end(x, 'EXPIRED');
    const s = this.account.fill(x, priceTicks, lots, isMaker);
    x.executedLots += lots;
    x.budget = x.budget >= 0 ? 0 : -1;
    x.status = 'FILLED';
    this.remove(x);
    this.account.release(x);
    this.reports.report(x, 'TRADE', priceTicks, lots, isMaker, 0, s.fee, s.feeAsset);
  }

  private end(x: BarExchOrder, why: 'CANCELED' | 'EXPIRED'): void {
    x.status = 'CANCELED';
    x.waiting = false;
    this.remove(x);
    this.account.release(x);
    this.reports.report(x, why);
  }

  private remove(x: BarExchOrder): void {
    this.working = this.working.filter((y) => y !== x);
    this.finished.push(x);
    if (this.finished.length > 2 * this.keepFinished) {
      for (const y of this.finished.splice(0, this.finished.length - this.keepFinished)) {
        if (this.byClientId.get(y.req.clientOrderId) === y) this.byClientId.delete(y.req.clientOrderId);
      }
    }
  }

  private arriveCancel(clientOrderId: string): void {
    const x = this.byClientId.get(clientOrderId);
    const code = !x ? UNKNOWN_ORDER : x.status === 'FILLED' ? ALREADY_FILLED : !x.active ? ALREADY_CANCELED : 0;
    if (code === 0) return this.end(x!, 'CANCELED');
    this.reports.cancelRejected(clientOrderId, x, code);
  }
}

/** Returns true for an order that may wait for the path (GTC and maker-only limits, and STOPs), false for MARKET, IOC and FOK. */
function waits(r: OrderRequest): boolean {
  if (r.type === 'STOP') return true;
  if (r.type === 'MARKET' || (r.priceType !== undefined && r.priceType !== 'INPUT' && r.priceType !== 'QUEUE')) return false;
  return r.timeInForce !== 'IOC' && r.timeInForce !== 'FOK';
}

function makerOnly(r: OrderRequest): boolean {
  return r.type === 'LIMIT_MAKER' || r.timeInForce === 'LIMIT_MAKER';
}

/** Returns the order as the bar path rules take it: a market order, a limit at its price, or a stop (a stop-limit when it has a price). */
function barOrderOf(x: BarExchOrder): BarOrder {
  const r = x.req;
  const side = x.buy ? 'BUY' : 'SELL';
  const priced = (r.priceType ?? 'INPUT') === 'INPUT' && r.priceTicks > 0;
  if (r.type === 'STOP') return { id: x.orderId, side, type: 'STOP', triggerTicks: r.triggerTicks ?? 0, ...(priced ? { priceTicks: r.priceTicks } : {}) };
  if (r.type === 'MARKET' || !waits(r) && !priced) return { id: x.orderId, side, type: 'MARKET' };
  return { id: x.orderId, side, type: 'LIMIT', priceTicks: x.limitTicks };
}
