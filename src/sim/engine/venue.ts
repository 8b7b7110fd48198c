/** SimVenue: the in-process simulated venue — spot and contract trading, market data and the event log — with the REST interface's semantics and codes. */
import type { Clock } from '../../core/clock.ts';
import { scaleOf } from '../../core/fixed.ts';
import type { PositionWire } from '../contracts/index.ts';
import { fmtAmount, toAmount } from '../ledger/amount.ts';
import type { AccountId } from '../ledger/types.ts';
import type { SimVenueConfig } from './config.ts';
import { cancelContractOrder, emitPosition, endOrder, liquidate, placeContractOrder, planContractOrder, type ContractOrderParams } from './contract.ts';
import type { ContractInfoView, FundingRateView, InsuranceView } from './derivatives.ts';
import type { SimEvent, SimEventListener } from './events.ts';
import { ExternalMarket } from './external.ts';
import type { ExternalMatcher } from './matcher.ts';
import type { SimInstrument } from './instruments.ts';
import {
  bookTickerOf, clampLimit, depthOf, klinesOf, needInstrument, ticker24Of, tradesOf,
  type BookTickerView, type DepthView, type KlineView, type Ticker24, type TradeView,
} from './market.ts';
import type { SimOrder } from './order.ts';
import { contractAccountOf, contractOrders, myTrades, positionsOf, spotOrders, type ContractAccountView, type OrderQuery, type TradeQuery } from './queries.ts';
import { emptyParam, reject } from './reject.ts';
import { snapshotOf } from './snapshot.ts';
import { cancelSpotOrder, cancelSpotOrderCode, placeSpotOrder, planSpotOrder, type SpotOrderParams } from './spot.ts';
import { exportEngine, type VenueStateData } from './state.ts';
import { VenueAccounts } from './venue-accounts.ts';
import {
  contractOrderView, contractTradeView, type ContractOrderView, type ContractTradeView,
  spotCancelView, spotOrderView, spotPlacementView, spotTradeView,
  type SpotCancelView, type SpotOrderView, type SpotPlacementView, type SpotTradeView,
} from './views.ts';

export type { ContractAccountView, OrderQuery, TradeQuery } from './queries.ts';

/**
 * The simulated venue in one object. Every operation either succeeds or throws the venue's
 * VenueError having changed nothing (`snapshot()` is byte-identical before and after a refusal).
 * Every change is appended to one ordered event log (`subscribe`, `events`, `logHash`). The parts and
 * the account operations (users, deposits, transfers, withdrawals) come from VenueAccounts.
 */
export class SimVenue extends VenueAccounts {
  // ---- spot trading ----------------------------------------------------------------------------------

  /** Places a spot order for a type-1 account; returns the new-order answer. */
  newSpotOrder(accountId: AccountId, p: SpotOrderParams): SpotPlacementView {
    const plan = planSpotOrder(this.core, accountId, p);
    return spotPlacementView(placeSpotOrder(this.core, accountId, plan, p.quantity));
  }

  /** Validates a spot order exactly as newSpotOrder does, without placing it; returns {}. */
  testSpotOrder(accountId: AccountId, p: SpotOrderParams): Record<string, never> {
    planSpotOrder(this.core, accountId, p);
    return {};
  }

  /** Cancels a spot order by orderId or clientOrderId. */
  cancelSpotOrder(accountId: AccountId, by: { orderId?: string; clientOrderId?: string }): SpotCancelView {
    return spotCancelView(cancelSpotOrder(this.core, accountId, by.orderId, by.clientOrderId), this.core.exchangeId);
  }

  /**
   * Cancels a spot order like cancelSpotOrder but answers with a number instead of throwing: 0 when
   * cancelled, else the refusal code (-2013 unknown, -1139 filled, -1142 already cancelled) having
   * changed nothing. For drivers that cancel often and expect refusals (agents, backtests, the bench).
   */
  tryCancelSpotOrder(accountId: AccountId, by: { orderId?: string; clientOrderId?: string }): number {
    if (!by.orderId && !by.clientOrderId) return -1105;
    const r = cancelSpotOrderCode(this.core, accountId, by.orderId, by.clientOrderId);
    return typeof r === 'number' ? r : 0;
  }

  /** Returns one spot order by orderId or clientOrderId; -2013 when the account has no such order. */
  getSpotOrder(accountId: AccountId, by: { orderId?: string; clientOrderId?: string }): SpotOrderView {
    if (!by.orderId && !by.clientOrderId) throw emptyParam('orderId or clientOrderId');
    const o = this.core.findOrder(accountId, by.orderId, by.clientOrderId);
    if (!o || o.market !== 'spot') throw reject(-2013, [], { ...by });
    return spotOrderView(o, this.core.exchangeId);
  }

  /** Returns open spot orders, newest first (orderId: only those below it). */
  openSpotOrders(accountId: AccountId, q: OrderQuery = {}): SpotOrderView[] {
    if (q.symbol !== undefined) needInstrument(this.core.instruments, q.symbol, 'spot');
    return spotOrders(this.core, accountId, q, true).map((o) => spotOrderView(o, this.core.exchangeId));
  }

  /** Returns finished spot orders (FILLED, CANCELED, REJECTED), newest first. */
  spotHistory(accountId: AccountId, q: OrderQuery = {}): SpotOrderView[] {
    return spotOrders(this.core, accountId, q, false).map((o) => spotOrderView(o, this.core.exchangeId));
  }

  /** Returns the account's spot trades by the fromId/toId table of venue-api.md. */
  spotMyTrades(accountId: AccountId, q: TradeQuery = {}): SpotTradeView[] {
    return myTrades(this.core, accountId, 'spot', q).map(spotTradeView);
  }

  /** Returns a type-1 account's balances as the spot account endpoint answers them (free and locked per asset). */
  spotAccount(accountId: AccountId): { balances: { asset: string; free: string; locked: string }[] } {
    return { balances: this.ledger.balances(accountId).map((b) => ({ asset: b.asset, free: fmtAmount(b.free), locked: fmtAmount(b.locked) })) };
  }

  // ---- contract trading ------------------------------------------------------------------------------

  /** Places a contract order for a type-3 account; returns the order. */
  newContractOrder(accountId: AccountId, p: ContractOrderParams): ContractOrderView {
    const plan = planContractOrder(this.desk, accountId, p);
    return this.contractView(placeContractOrder(this.desk, accountId, plan));
  }

  /** Cancels a contract order (LIMIT or STOP) by orderId or clientOrderId. */
  cancelContractOrder(accountId: AccountId, by: { orderId?: string; clientOrderId?: string }): ContractOrderView {
    return this.contractView(cancelContractOrder(this.desk, accountId, by.orderId, by.clientOrderId));
  }

  /** Returns one contract order in any state; -2013 when the account has no such order. */
  getContractOrder(accountId: AccountId, by: { orderId?: string; clientOrderId?: string }): ContractOrderView {
    if (!by.orderId && !by.clientOrderId) throw emptyParam('orderId or clientOrderId');
    const o = this.core.findOrder(accountId, by.orderId, by.clientOrderId);
    if (!o || o.market !== 'contract') throw reject(-2013, [], { ...by });
    return this.contractView(o);
  }

  /** Returns open contract orders of `orderType` (LIMIT: working orders; STOP: waiting stops), newest first (default 20). */
  openContractOrders(accountId: AccountId, q: OrderQuery & { orderType?: string } = {}): ContractOrderView[] {
    return contractOrders(this.core, accountId, q, true).map((o) => this.contractView(o));
  }

  /** Returns finished contract orders of `orderType`, newest first. */
  contractHistory(accountId: AccountId, q: OrderQuery & { orderType?: string } = {}): ContractOrderView[] {
    return contractOrders(this.core, accountId, q, false).map((o) => this.contractView(o));
  }

  /** Returns the account's contract trades by the fromId/toId table (default 20). */
  contractMyTrades(accountId: AccountId, q: TradeQuery = {}): ContractTradeView[] {
    return myTrades(this.core, accountId, 'contract', q).map(contractTradeView);
  }

  /** Cancels every working contract order of a symbol (all symbols when absent). */
  batchCancel(accountId: AccountId, symbol?: string): { message: string; timestamp: number } {
    if (symbol !== undefined) needInstrument(this.core.instruments, symbol, 'contract');
    for (const o of [...(this.core.ordersByAccount.get(accountId) ?? [])]) {
      if (o.market === 'contract' && o.active && !o.waiting && (symbol === undefined || o.inst.symbol === symbol)) {
        endOrder(this.desk, o, 'CANCELED');
        this.core.finish(o.inst, false);
      }
    }
    return { message: 'success', timestamp: this.clock.now() };
  }

  /** Returns the account's positions as the positions endpoint shows them. */
  positions(accountId: AccountId, q: { symbol?: string; side?: string } = {}): PositionWire[] {
    return positionsOf(this.desk, accountId, q);
  }

  /** Adds (positive) or removes (negative) position margin; -1111 past the margin token's precision, -1161 when a removal is forbidden. */
  modifyMargin(accountId: AccountId, p: { symbol: string; side: string; amount: string }): { symbol: string; margin: string; timestamp: number } {
    const inst = needInstrument(this.core.instruments, p.symbol, 'contract');
    if (p.side !== 'LONG' && p.side !== 'SHORT') throw reject(-1155, [], { side: p.side });
    const spec = this.desk.positions.spec(p.symbol);
    const mark = this.desk.mark(inst);
    const pos = this.desk.positions.get(accountId, p.symbol, p.side);
    // Past the margin token's precision the amount is refused, never rounded: a 19th decimal would not even fit an Amount.
    if (scaleOf(p.amount, 'amount') > spec.marginDecimals) throw reject(-1111, [], { amount: p.amount, marginDecimals: spec.marginDecimals });
    const margin = this.desk.positions.modifyMargin(accountId, p.symbol, p.side, toAmount(p.amount, 'amount'), mark ?? pos?.avgPrice ?? 1n);
    this.core.touch(accountId, spec.marginToken);
    emitPosition(this.desk, accountId, inst, p.side);
    this.core.finish(inst, false);
    return { symbol: p.symbol, margin: fmtAmount(margin, spec.marginDecimals), timestamp: this.clock.now() };
  }

  /** Returns the contract account of each margin token: total, availableMargin, positionMargin, orderMargin (marginPrecision, rounded down). */
  contractAccount(accountId: AccountId): Record<string, ContractAccountView> {
    return contractAccountOf(this.desk, accountId);
  }

  /** Sets the index price of an index symbol (decimal string); moves the marks of its contracts (index + basis) and liquidates the positions they cross. */
  setIndexPrice(index: string, price: string): void {
    this.market.setIndex(index, toAmount(price, 'price'));
  }

  /** Returns the index and EDP of index symbols (`symbols` comma-separated; all when absent). */
  indexPrices(symbols?: string): { index: Record<string, string>; edp: Record<string, string> } {
    return this.market.indexView(symbols);
  }

  /** Returns the mark price of a contract as a decimal string ("0" before any index or trade). */
  markPrice(symbol: string): string {
    const inst = needInstrument(this.core.instruments, symbol, 'contract');
    const m = this.desk.mark(inst);
    return m === undefined ? '0' : fmtAmount(m, this.desk.positions.spec(symbol).priceDecimals);
  }

  /** Returns the contract-info entries of /openapi/v1/contracts (nextFundingRateTs in seconds). */
  contracts(): ContractInfoView[] {
    return this.market.contractInfo(this.clock.now());
  }

  /** Returns funding-rate entries: state current (default, the running interval's predicted rate) or past (settled, newest first). */
  fundingRates(q: { symbol?: string; state?: string; from?: number; endTime?: number; limit?: number } = {}): FundingRateView[] {
    return this.market.fundingRates(q);
  }

  /** Returns insurance-fund records keyed by margin token, newest first. */
  insurance(q: { symbol?: string; fromId?: string; toId?: string; limit?: number } = {}): Record<string, InsuranceView[]> {
    return this.market.insurance(q);
  }

  /** Stops the venue's own timers (funding); resting orders and balances stay. */
  close(): void {
    this.market.funding.stop();
  }

  /** Sets the mark price of a contract (from the index); liquidates positions it crosses. */
  setMarkPrice(symbol: string, price: string): void {
    const inst = needInstrument(this.core.instruments, symbol, 'contract');
    this.desk.marks.set(symbol, toAmount(price, 'price'));
    liquidate(this.desk, inst);
    this.core.finish(inst, false);
  }

  private contractView(o: SimOrder): ContractOrderView {
    return contractOrderView(o, this.desk.positions.spec(o.inst.symbol).marginDecimals);
  }

  // ---- market data -----------------------------------------------------------------------------------

  /** Hands a spot symbol's market to a driver outside the engine (a replayed recording) whose `matcher` matches the venue's orders on it; returns the market the driver sets. */
  externalMarket(symbol: string, matcher: ExternalMatcher): ExternalMarket {
    return new ExternalMarket(this.core, needInstrument(this.core.instruments, symbol, 'spot'), matcher);
  }

  /** Returns the depth of a symbol (default and max 100 levels, larger limits truncated). */
  depth(symbol: string, limit?: number): DepthView {
    return depthOf(needInstrument(this.core.instruments, symbol), clampLimit(limit, 100, 100), this.clock.now());
  }

  /** Returns the recent public trades of a symbol, oldest first (default 500, max 1000). */
  trades(symbol: string, limit?: number): TradeView[] {
    return tradesOf(needInstrument(this.core.instruments, symbol), clampLimit(limit, 500, 1000));
  }

  /** Returns klines of any interval of venue-api.md (default 1000, max 1000). */
  klines(symbol: string, interval: string, q: { startTime?: number; endTime?: number; limit?: number } = {}): KlineView[] {
    return klinesOf(needInstrument(this.core.instruments, symbol), interval, clampLimit(q.limit, 1000, 1000), q.startTime, q.endTime);
  }

  /** Returns the 24h ticker of one symbol, or of every symbol of the market. */
  ticker24h(symbol?: string, market: 'spot' | 'contract' = 'spot'): Ticker24 | Ticker24[] {
    const now = this.clock.now();
    if (symbol !== undefined) return ticker24Of(needInstrument(this.core.instruments, symbol, market), now);
    return this.instrumentsOf(market).map((i) => ticker24Of(i, now));
  }

  /** Returns the book ticker of one spot symbol, or of all. */
  bookTicker(symbol?: string): BookTickerView | BookTickerView[] {
    if (symbol !== undefined) return bookTickerOf(needInstrument(this.core.instruments, symbol));
    return this.instrumentsOf('spot').map(bookTickerOf);
  }

  /** Returns the last price of one spot symbol ({price}), or [{symbol, price}] of all. */
  priceTicker(symbol?: string): { price: string } | { symbol: string; price: string }[] {
    const last = (i: SimInstrument): string => {
      const p = i.klines.lastPrice();
      return p === undefined ? '0' : i.priceText(p);
    };
    if (symbol !== undefined) return { price: last(needInstrument(this.core.instruments, symbol)) };
    return this.instrumentsOf('spot').map((i) => ({ symbol: i.symbol, price: last(i) }));
  }

  // ---- events and state ------------------------------------------------------------------------------

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(fn: SimEventListener): () => void {
    return this.core.log.subscribe(fn);
  }

  /** Returns the kept events after `afterSeq`. */
  events(afterSeq = 0): readonly SimEvent[] {
    return this.core.log.since(afterSeq);
  }

  /** Returns the SHA-256 of the serialized event log. */
  logHash(): string {
    return this.core.log.hash();
  }

  /**
   * Returns the venue's state as one canonical JSON string: ledger balances, flows and ids, positions,
   * open orders in their queue places, id counters, the order and trade history queries answer from,
   * market data (trades, klines, index samples, funding records). `SimVenue.fromState` starts a venue from it.
   */
  exportState(): string {
    return JSON.stringify(exportEngine(this.core, this.desk, this.market, this.users, this.ledger.exportState()));
  }

  /** Returns a venue started from `state` (exportState of a venue with the same instruments); its timers run on `clock`. */
  static fromState(config: SimVenueConfig, clock: Clock, state: string): SimVenue {
    return new SimVenue(config, clock, JSON.parse(state) as VenueStateData);
  }

  /** Returns the whole state as one canonical string: equal strings mean equal states. */
  snapshot(): string {
    const stops = [...this.desk.stops.entries()].map(([k, v]) => [k, v.map((o) => o.orderId)]);
    const marks = [...this.desk.marks.entries()].map(([k, v]) => [k, v.toString()]);
    return snapshotOf(this.core, this.ledger.snapshot(), { positions: this.desk.positions.snapshotData(), stops, marks });
  }
}
