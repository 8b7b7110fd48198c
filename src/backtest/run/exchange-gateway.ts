/**
 * The bot's Gateway over the backtest exchanges (one per traded symbol, spot or contract): orders and
 * cancels reach an exchange after its entry latency, its reports come back after the response latency
 * both as the REST answer and, as the user stream delivers them, as order, balance and (contracts)
 * position events on the sink.
 */
import type { VirtualClock } from '../../core/clock.ts';
import { VenueError } from '../../core/errors.ts';
import {
  balanceUpdateEvent, orderUpdateEvent, positionUpdateEvent, type AccountKind, type Balances, type BrokerInfo, type BusEvent, type ContractBalance, type FillReport,
  type Gateway, type OrderLocator, type OrderReport, type OrderRequest as ModelOrderRequest, type Position, type SpotOrderRequest, type ContractOrderRequest, type PositionSide, type ReportOrderStatus,
} from '../../model/index.ts';
import { positionView, positionWire } from '../../sim/contracts/view.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { venueMessage } from '../../sim/engine/reject.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
import { fmtAmount } from '../../sim/ledger/amount.ts';
import { venueCodeInfo, venueErrorFor } from '../../venue/errors.ts';
import { ContractAccount } from '../exchange/contract-account.ts';
import type { SpotAccount } from '../exchange/spot-account.ts';
import type { ExecutionReport, OrderRequest } from '../exchange/types.ts';

/** Where the gateway sends a symbol's orders and cancels: the L2 BacktestExchange, or the BarExchange of bar mode. */
export interface OrderTaker {
  submit(req: OrderRequest): void;
  cancel(clientOrderId: string): void;
}

/** One traded symbol: its instrument, exchange and account (a spot account, or a contracts account for a contract). */
export interface GatewayMarket {
  readonly inst: SimInstrument;
  readonly exchange: OrderTaker;
  readonly account: SpotAccount | ContractAccount;
}

/** An order as the gateway tracks it from its reports. */
interface Tracked {
  readonly symbol: string;
  readonly req: ModelOrderRequest;
  readonly market: GatewayMarket;
  orderId: string;
  status: ReportOrderStatus;
  executedLots: number;
  /** Quote transacted so far, an exact Amount (10^18 scale). */
  cumQuote: bigint;
  readonly createdTs: number;
  updateTs: number;
}

/** One fill the gateway reports, kept for tradesSince and the results. */
export interface GatewayFill extends FillReport {
  readonly clientOrderId: string;
  readonly maker: boolean;
}

/** A contract's position sides, in the order their events go out. */
const POSITION_SIDES = ['LONG', 'SHORT'] as const;

/** Code the venue answers for an order it does not know. */
const UNKNOWN_ORDER = -2013;
/** What the gateway remembers (defaults: 1 000 finished orders, as the exchange; 1 000 fills, more than the reads between two reconciliations ask for). */
export interface GatewayBounds {
  readonly finishedOrders: number;
  readonly fills: number;
}
const DEFAULT_BOUNDS: GatewayBounds = { finishedOrders: 1_000, fills: 1_000 };

type Waiter = { resolve: (r: OrderReport) => void; reject: (e: unknown) => void };

/** The Gateway of a backtest. */
export class ExchangeGateway implements Gateway {
  private readonly markets = new Map<string, GatewayMarket>();
  private readonly orders = new Map<string, Tracked>();
  /** The orders of `orders` not finished (FILLED, CANCELED, REJECTED), in the same order: what openOrders walks, not the finished ones kept. */
  private readonly live = new Map<string, Tracked>();
  private readonly finished: string[] = [];
  private readonly placing = new Map<string, Waiter>();
  private readonly cancelling = new Map<string, Waiter[]>();
  private readonly fills: GatewayFill[] = [];
  private nextTradeId = 1;
  /** The balance last reported per market (by symbol) and asset (two per traded spot symbol, one per contract): the market tells the account. */
  private readonly lastBalance = new Map<string, Map<string, { free: bigint; locked: bigint }>>();
  /** The position last reported per contract side, as its event's text. */
  private readonly lastPosition = new Map<string, string>();

  constructor(
    private readonly clock: VirtualClock,
    markets: readonly GatewayMarket[],
    private readonly sink: (ev: BusEvent) => void,
    /** Called with every order as it changes and every fill (the results). */
    private readonly record: { order(o: OrderReport, req: ModelOrderRequest): void; fill(f: GatewayFill): void },
    private readonly bounds: GatewayBounds = DEFAULT_BOUNDS,
  ) {
    for (const m of markets) this.markets.set(m.inst.symbol, m);
  }

  /** Receives an exchange's report at its local time (the exchange's onReport). */
  onReport(symbol: string, r: ExecutionReport): void {
    const t = this.orders.get(r.clientOrderId);
    if (r.execType === 'CANCEL_REJECTED') {
      if (this.cancelling.has(r.clientOrderId)) this.settleCancel(r.clientOrderId, undefined, refusal(r.code, [], { clientOrderId: r.clientOrderId }));
      return;
    }
    if (t === undefined || t.symbol !== symbol) return;
    const now = this.clock.now();
    t.orderId = r.orderId;
    t.status = r.status;
    t.updateTs = now;
    const m = t.market;
    if (r.execType === 'TRADE') {
      t.executedLots = r.executedLots;
      t.cumQuote += m.inst.quoteAmount(r.lastPriceTicks, r.lastLots);
    }
    const report = this.reportOf(t);
    this.record.order(report, t.req);
    if (r.execType === 'REJECTED') {
      this.forget(r.clientOrderId);
      this.placing.get(r.clientOrderId)?.reject(refusal(r.code, paramOf(r.code, t.req), { clientOrderId: r.clientOrderId }));
      this.placing.delete(r.clientOrderId);
      return;
    }
    const fillQty = r.execType === 'TRADE' ? m.inst.qtyText(r.lastLots) : '0';
    const fillPrice = r.execType === 'TRADE' ? m.inst.priceText(r.lastPriceTicks) : '0';
    let fill: GatewayFill | undefined;
    if (r.execType === 'TRADE') {
      fill = {
        account: t.req.account, symbol, tradeId: String(this.nextTradeId++), orderId: r.orderId, clientOrderId: r.clientOrderId, side: t.req.side, price: fillPrice, qty: fillQty,
        fee: r.fee, feeAsset: r.feeAsset, maker: r.isMaker, time: now,
      };
      this.fills.push(fill);
      if (this.fills.length > 2 * this.bounds.fills) this.fills.splice(0, this.fills.length - this.bounds.fills);
      this.record.fill(fill);
    }
    const req = t.req;
    const contract = req.account === 'contract';
    this.sink(orderUpdateEvent({
      ts: r.exchTime, recvTs: now, account: req.account, symbol, clientOrderId: r.clientOrderId, orderId: r.orderId, status: r.status,
      side: req.side, type: req.account === 'spot' ? req.type : req.orderType, timeInForce: req.timeInForce ?? 'GTC', price: report.price, origQty: report.origQty, executedQty: report.executedQty,
      cumQuote: fmtAmount(t.cumQuote), lastQty: fillQty, lastPrice: fillPrice, tradeId: fill?.tradeId, fee: r.fee, feeAsset: r.execType === 'TRADE' ? r.feeAsset : undefined,
      maker: r.isMaker, createdTs: t.createdTs, closeOrder: contract ? req.side === 'BUY_CLOSE' || req.side === 'SELL_CLOSE' : undefined,
      leverage: contract ? req.leverage : undefined,
    }));
    // The balances are read now, when the report reaches the bot: they already hold what the exchange did since the report was made (a later fill still on its way), so they carry now's time, or that fill would count twice.
    this.accountEvents(m, now);
    const w = this.placing.get(r.clientOrderId);
    if (w) {
      this.placing.delete(r.clientOrderId);
      w.resolve(report);
    }
    if (r.execType === 'CANCELED' || r.execType === 'EXPIRED') this.settleCancel(r.clientOrderId, report, undefined);
    if (r.status === 'CANCELED' || r.status === 'FILLED' || r.status === 'REJECTED') this.retire(r.clientOrderId);
  }

  /**
   * Sends what an account change moved, as the venue's account events do: each balance that changed
   * (one event per asset) and, for a contract, each position side that changed. The runner calls it
   * after funding and liquidations too, which no order report carries.
   */
  accountEvents(m: GatewayMarket, ts: number): void {
    const now = this.clock.now();
    const acc = m.account;
    if (acc instanceof ContractAccount) {
      const b = acc.ledger.balance(acc.accountId, acc.token);
      this.balanceEvent('contract', acc.token, m.inst.symbol, b, ts, now);
      for (const side of POSITION_SIDES) this.positionEvent(m, acc, side, ts, now);
      return;
    }
    this.balanceEvent('spot', m.inst.baseAsset, m.inst.symbol, acc.balance(m.inst.baseAsset), ts, now);
    this.balanceEvent('spot', m.inst.quoteAsset, m.inst.symbol, acc.balance(m.inst.quoteAsset), ts, now);
  }

  private balanceEvent(account: AccountKind, asset: string, symbol: string, b: { free: bigint; locked: bigint }, ts: number, now: number): void {
    let byAsset = this.lastBalance.get(symbol);
    if (byAsset === undefined) this.lastBalance.set(symbol, (byAsset = new Map()));
    const last = byAsset.get(asset);
    if (last !== undefined && last.free === b.free && last.locked === b.locked) return;
    byAsset.set(asset, b);
    this.sink(balanceUpdateEvent({ ts, recvTs: now, account, asset, free: fmtAmount(b.free), locked: fmtAmount(b.locked) }));
  }

  private positionEvent(m: GatewayMarket, acc: ContractAccount, side: PositionSide, ts: number, now: number): void {
    const p = acc.positions.get(acc.accountId, m.inst.symbol, side);
    const spec = acc.positions.spec(m.inst.symbol);
    const mark = p === undefined ? 0n : acc.markPrice() ?? p.avgPrice;
    const w = p === undefined ? undefined : positionWire(spec, positionView(spec, p, mark, mark));
    const text = w === undefined ? '' : `${w.position} ${w.avgPrice} ${w.margin} ${w.available} ${w.realizedPnL}`;
    const key = `${m.inst.symbol} ${side}`;
    if ((this.lastPosition.get(key) ?? '') === text) return;
    this.lastPosition.set(key, text);
    this.sink(positionUpdateEvent({
      symbol: m.inst.symbol, accountId: acc.accountId, side, avgPrice: w?.avgPrice ?? '0', position: w?.position ?? '0', available: w?.available ?? '0',
      liquidationPrice: w?.flp ?? '0', margin: w?.margin ?? '0', realizedPnl: w?.realizedPnL ?? '0', ts, recvTs: now,
    }));
  }

  place(req: ModelOrderRequest): Promise<OrderReport> {
    const m = this.markets.get(req.symbol);
    if (m === undefined || (req.account === 'contract') !== (m.inst.contract !== undefined)) return Promise.reject(refusal(-1121, [], { symbol: req.symbol, account: req.account }));
    if (this.orders.has(req.clientOrderId)) return Promise.reject(refusal(-1141, [], { clientOrderId: req.clientOrderId }));
    const x = req.account === 'spot' ? spotRequest(m, req) : contractRequest(m, req);
    if (x instanceof VenueError) return Promise.reject(x);
    const now = this.clock.now();
    const t: Tracked = { symbol: req.symbol, req, market: m, orderId: '', status: 'NEW', executedLots: 0, cumQuote: 0n, createdTs: now, updateTs: now };
    this.orders.set(req.clientOrderId, t);
    this.live.set(req.clientOrderId, t);
    return new Promise<OrderReport>((resolve, reject) => {
      this.placing.set(req.clientOrderId, { resolve, reject });
      m.exchange.submit(x);
    });
  }
  cancel(ref: OrderLocator): Promise<OrderReport> {
    const t = this.find(ref);
    if (t === undefined) return Promise.reject(refusal(UNKNOWN_ORDER, [], { ...ref }));
    return new Promise<OrderReport>((resolve, reject) => {
      const list = this.cancelling.get(t.req.clientOrderId) ?? [];
      list.push({ resolve, reject });
      this.cancelling.set(t.req.clientOrderId, list);
      t.market.exchange.cancel(t.req.clientOrderId);
    });
  }

  getOrder(ref: OrderLocator): Promise<OrderReport> {
    const t = this.find(ref);
    if (t === undefined || t.orderId === '') return Promise.reject(refusal(UNKNOWN_ORDER, [], { ...ref }));
    return Promise.resolve(this.reportOf(t));
  }

  openOrders(account: AccountKind, symbol?: string): Promise<readonly OrderReport[]> {
    const open = [...this.live.values()].filter((t) => t.req.account === account && t.orderId !== '' && (t.status === 'NEW' || t.status === 'PARTIALLY_FILLED') && (symbol === undefined || t.symbol === symbol));
    return Promise.resolve(open.map((t) => this.reportOf(t)));
  }

  tradesSince(account: AccountKind, afterTradeId?: string): Promise<readonly FillReport[]> {
    // Trade ids count up from 1 over both accounts with no gap: the first one after `after` is found by its distance from the oldest kept.
    const first = this.fills.length === 0 ? 1 : Number(this.fills[0]!.tradeId);
    const after = afterTradeId === undefined ? this.fills.slice(-1000) : this.fills.slice(Math.max(0, Number(afterTradeId) + 1 - first));
    return Promise.resolve(after.filter((f) => f.account === account));
  }

  positions(): Promise<readonly Position[]> {
    const out: Position[] = [];
    for (const m of this.markets.values()) {
      const acc = m.account;
      if (!(acc instanceof ContractAccount)) continue;
      const spec = acc.positions.spec(m.inst.symbol);
      for (const p of acc.positions.list(acc.accountId, m.inst.symbol)) {
        const mark = acc.markPrice() ?? p.avgPrice;
        out.push({ ...positionWire(spec, positionView(spec, p, mark, mark)), side: p.side });
      }
    }
    return Promise.resolve(out);
  }

  balances(): Promise<Balances> {
    const spot = new Map<string, { asset: string; free: string; locked: string }>();
    const contract: Record<string, ContractBalance> = {};
    for (const m of this.markets.values()) {
      const acc = m.account;
      if (acc instanceof ContractAccount) {
        const b = acc.positions.contractAccount(acc.accountId)[acc.token];
        if (b === undefined) continue;
        contract[acc.token] = {
          token: acc.token, total: fmtAmount(b.total), availableMargin: fmtAmount(b.availableMargin), positionMargin: fmtAmount(b.positionMargin), orderMargin: fmtAmount(b.orderMargin),
        };
        continue;
      }
      for (const asset of [m.inst.baseAsset, m.inst.quoteAsset]) {
        const b = acc.balance(asset);
        spot.set(asset, { asset, free: fmtAmount(b.free), locked: fmtAmount(b.locked) });
      }
    }
    return Promise.resolve({ spot: [...spot.values()], contract });
  }

  exchangeInfo(): Promise<BrokerInfo> {
    const markets = [...this.markets.values()];
    return Promise.resolve({
      timezone: 'UTC', serverTime: this.clock.now(), rateLimits: [], brokerFilters: [], options: [],
      symbols: markets.flatMap((m) => (m.inst.spot ? [m.inst.spot] : [])), contracts: markets.flatMap((m) => (m.inst.contract ? [m.inst.contract] : [])),
    });
  }

  /** Returns how many orders and fills the gateway remembers. */
  remembered(): { orders: number; fills: number } {
    return { orders: this.orders.size, fills: this.fills.length };
  }

  private find(ref: OrderLocator): Tracked | undefined {
    if (ref.clientOrderId !== undefined) return this.orders.get(ref.clientOrderId);
    for (const t of this.orders.values()) if (t.orderId === ref.orderId) return t;
    return undefined;
  }

  private reportOf(t: Tracked): OrderReport {
    const inst = t.market.inst;
    const req = t.req;
    const byQuote = req.account === 'spot' && req.type === 'MARKET' && req.side === 'BUY';
    return {
      account: req.account, symbol: t.symbol, orderId: t.orderId, clientOrderId: req.clientOrderId, status: t.status, side: req.side, type: req.account === 'spot' ? req.type : req.orderType,
      price: req.price ?? '0', origQty: byQuote ? '0' : req.quantity, executedQty: inst.qtyText(t.executedLots),
      avgPrice: t.executedLots === 0 ? '0' : avgPrice(inst, t.cumQuote, t.executedLots), time: t.updateTs,
    };
  }

  private settleCancel(id: string, report: OrderReport | undefined, err: VenueError | undefined): void {
    const list = this.cancelling.get(id);
    if (!list) return;
    this.cancelling.delete(id);
    for (const w of list) {
      if (report) w.resolve(report);
      else w.reject(err);
    }
  }

  private forget(id: string): void {
    this.orders.delete(id);
    this.live.delete(id);
  }

  /** Keeps the latest finished orders for queries; older ones are forgotten (bounded). */
  private retire(id: string): void {
    this.live.delete(id);
    this.finished.push(id);
    const keep = this.bounds.finishedOrders;
    if (this.finished.length > 2 * keep) for (const old of this.finished.splice(0, this.finished.length - keep)) this.orders.delete(old);
  }
}

/**
 * Returns the venue's error for an order or cancel the gateway or exchange refused, worded as the simulated
 * venue words `code` (its own table, `%s` filled by `args`: `venue -1158: create limit maker order failed`,
 * the same text as live), or for a code the simulated venue never sends (-1121) as venue-errors.md does;
 * what the gateway knows besides goes in the error's context. Made without a stack trace: such a refusal
 * is an answer, as the venue's is, not a fault, and the stack (the replay's, many frames deep) would cost
 * more than the rest of the report; the executor reads only its codes.
 */
function refusal(code: number, args: readonly string[] = [], context: Record<string, unknown> = {}): VenueError {
  const msg = venueMessage(code, args) ?? venueCodeInfo(code)?.msg ?? venueMessage(-1000)!;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return venueErrorFor(code, msg, { httpStatus: 400, context });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** True for a decimal parameter the venue counts as empty: absent, blank, zero or negative. */
function emptyDecimal(v: string | undefined): boolean {
  return v === undefined || v === '' || v.startsWith('-') || !/[1-9]/.test(v);
}

/**
 * Returns the parameter the simulated venue names in the message of `code` (-1105 empty, -1130 not valid)
 * for this request, checked in the venue's order; the exchange reports only the code. Other codes name none.
 */
function paramOf(code: number, req: ModelOrderRequest): string[] {
  if (code === -1130) return [req.account === 'contract' ? 'leverage' : 'quantity'];
  if (code !== -1105) return [];
  if (req.account === 'spot') return [emptyDecimal(req.quantity) ? 'quantity' : 'price'];
  const open = req.side === 'BUY_OPEN' || req.side === 'SELL_OPEN';
  if (req.clientOrderId === '') return ['clientOrderId'];
  if (emptyDecimal(req.quantity)) return ['quantity'];
  if ((open || req.leverage !== undefined) && emptyDecimal(req.leverage)) return ['leverage'];
  if (req.orderType === 'STOP' && emptyDecimal(req.triggerPrice)) return ['triggerPrice'];
  return [req.priceType === 'OVER' ? 'overPrice' : 'price'];
}

/** Returns the average fill price (quote ÷ quantity), rounded down to the instrument's tick as prices are shown. */
function avgPrice(inst: SimInstrument, quote: bigint, lots: number): string {
  return inst.priceText(Number(quote / (BigInt(lots) * inst.qunit.amount)));
}

/** Returns a spot order in the exchange's integer units, or the venue's error for a bad price or quantity. */
function spotRequest(m: GatewayMarket, req: SpotOrderRequest): OrderRequest | VenueError {
  const byQuote = req.type === 'MARKET' && req.side === 'BUY';
  let priceTicks = 0;
  if (req.type !== 'MARKET') {
    priceTicks = m.inst.checkPrice(req.price ?? '');
    if (priceTicks < 0) return refusal(priceTicks, ['price'], { price: req.price });
  }
  let lots = 0;
  let quoteBudget: number | undefined;
  if (byQuote) {
    quoteBudget = decimalUnits(req.quantity, m.inst.qunit);
    if (quoteBudget <= 0) return refusal(-1137, [], { quantity: req.quantity, rule: `must be a positive multiple of ${m.inst.qunit.text}` });
  } else {
    lots = m.inst.checkQty(req.quantity);
    if (lots < 0) return refusal(lots, ['quantity'], { quantity: req.quantity });
  }
  return {
    clientOrderId: req.clientOrderId, side: req.side, type: req.type, priceTicks, lots,
    ...(req.timeInForce === undefined ? {} : { timeInForce: req.timeInForce }),
    ...(quoteBudget === undefined ? {} : { quoteBudget }),
  };
}

/** Returns a contract order in the exchange's integer units (the exchange runs the venue's own checks on the rest), or the venue's error for a bad price, trigger or quantity. */
function contractRequest(m: GatewayMarket, req: ContractOrderRequest): OrderRequest | VenueError {
  const priceType = req.priceType;
  let priceTicks = 0;
  if (priceType === 'INPUT' || req.price !== undefined) {
    priceTicks = m.inst.checkPrice(req.price ?? '');
    if (priceTicks < 0) return refusal(priceTicks, ['price'], { price: req.price });
  }
  let triggerTicks: number | undefined;
  if (req.triggerPrice !== undefined) {
    triggerTicks = m.inst.checkPrice(req.triggerPrice);
    if (triggerTicks < 0) return refusal(triggerTicks, ['triggerPrice'], { triggerPrice: req.triggerPrice });
  }
  const lots = m.inst.checkQty(req.quantity);
  if (lots < 0) return refusal(lots, ['quantity'], { quantity: req.quantity });
  return {
    clientOrderId: req.clientOrderId, side: req.side, type: req.orderType, priceType, priceTicks, lots,
    ...(req.timeInForce === undefined ? {} : { timeInForce: req.timeInForce }),
    ...(triggerTicks === undefined ? {} : { triggerTicks }),
    ...(req.leverage === undefined ? {} : { leverage: req.leverage }),
  };
}
