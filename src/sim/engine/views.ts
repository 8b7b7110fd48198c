/** Wire-shaped views of orders and trades as the REST interface answers them (ids and times of trading responses as strings, venue-notes §1). */
import { fmtAmount } from '../ledger/amount.ts';
import type { OwnTrade } from './trade-log.ts';
import type { SimOrder } from './order.ts';

/** The spot new-order answer. */
export interface SpotPlacementView {
  orderId: string;
  clientOrderId: string;
  symbol: string;
  transactTime: string;
  price: string;
  origQty: string;
  executedQty: string;
  type: string;
  side: string;
  status: string;
  timeInForce: string;
}

/** A spot order as query, open orders and history orders answer it. */
export interface SpotOrderView {
  orderId: string;
  clientOrderId: string;
  exchangeId: string;
  symbol: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  avgPrice: string;
  status: string;
  timeInForce: string;
  type: string;
  side: string;
  stopPrice: string;
  icebergQty: string;
  time: string;
  updateTime: string;
  isWorking: boolean;
}

/** The spot cancel answer. */
export interface SpotCancelView {
  exchangeId: string;
  symbol: string;
  clientOrderId: string;
  orderId: string;
  status: 'CANCELED';
}

/** One spot my-trades entry. */
export interface SpotTradeView {
  symbol: string;
  id: string;
  orderId: string;
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  time: string;
  isBuyer: boolean;
  isMaker: boolean;
}

/** A contract order as every contract order endpoint answers it. */
export interface ContractOrderView {
  time: string;
  updateTime: string;
  orderId: string;
  clientOrderId: string;
  symbol: string;
  price: string;
  leverage: string;
  origQty: string;
  executedQty: string;
  avgPrice: string;
  marginLocked: string;
  orderType: string;
  priceType: string;
  side: string;
  status: string;
  timeInForce: string;
  fees: { feeToken: string; fee: string }[];
}

/** One contract my-trades entry. */
export interface ContractTradeView {
  time: string;
  tradeId: string;
  orderId: string;
  accountId: string;
  symbolId: string;
  price: string;
  quantity: string;
  feeTokenId: string;
  fee: string;
  type: string;
  side: string;
}

function reportedType(o: SimOrder): string {
  return o.type === 'LIMIT_MAKER' ? 'LIMIT' : o.type;
}

function priceOut(o: SimOrder): string {
  return o.quoteBudget !== Infinity || o.type === 'MARKET' ? '0' : o.inst.priceText(o.priceTicks);
}

let lastTime = NaN;
let lastTimeText = '';

/** Returns the text of a time in ms; the last one is remembered, since many answers share the clock's time. */
function timeText(t: number): string {
  if (t !== lastTime) {
    lastTime = t;
    lastTimeText = String(t);
  }
  return lastTimeText;
}

/** Returns the spot new-order answer of `o`. */
export function spotPlacementView(o: SimOrder): SpotPlacementView {
  return {
    orderId: o.orderId, clientOrderId: o.clientOrderId, symbol: o.inst.symbol, transactTime: timeText(o.time),
    price: priceOut(o), origQty: o.origQtyOut(), executedQty: o.inst.qtyText(o.executedLots),
    type: reportedType(o), side: o.side, status: o.status, timeInForce: o.timeInForce,
  };
}

/** Returns the spot query view of `o`. */
export function spotOrderView(o: SimOrder, exchangeId: string): SpotOrderView {
  return {
    orderId: o.orderId, clientOrderId: o.clientOrderId, exchangeId, symbol: o.inst.symbol, price: priceOut(o),
    origQty: o.origQtyOut(), executedQty: o.inst.qtyText(o.executedLots), cummulativeQuoteQty: o.cumQuoteText(),
    avgPrice: o.avgPriceText(), status: o.status, timeInForce: o.timeInForce, type: reportedType(o), side: o.side,
    stopPrice: '0', icebergQty: '0', time: String(o.time), updateTime: String(o.updateTime), isWorking: o.active,
  };
}

/** Returns the spot cancel answer of `o`. */
export function spotCancelView(o: SimOrder, exchangeId: string): SpotCancelView {
  return { exchangeId, symbol: o.inst.symbol, clientOrderId: o.clientOrderId, orderId: o.orderId, status: 'CANCELED' };
}

/** Returns the spot my-trades entry of `t`. */
export function spotTradeView(t: OwnTrade): SpotTradeView {
  const inst = t.order.inst;
  return {
    symbol: inst.symbol, id: t.tradeId, orderId: t.order.orderId, price: inst.priceText(t.price), qty: inst.qtyText(t.lots),
    commission: fmtAmount(t.fee), commissionAsset: t.feeAsset, time: String(t.time), isBuyer: t.order.side === 'BUY', isMaker: t.isMaker,
  };
}

/** Returns the contract order view of `o`. */
export function contractOrderView(o: SimOrder, marginDecimals: number): ContractOrderView {
  return {
    time: String(o.time), updateTime: String(o.updateTime), orderId: o.orderId, clientOrderId: o.clientOrderId,
    symbol: o.inst.symbol, price: o.inst.priceText(o.priceTicks), leverage: o.leverage, origQty: o.inst.qtyText(o.origLots),
    executedQty: o.inst.qtyText(o.executedLots), avgPrice: o.avgPriceText(), marginLocked: fmtAmount(o.locked, marginDecimals),
    orderType: o.type, priceType: o.priceType, side: o.side, status: o.status, timeInForce: o.timeInForce,
    fees: o.fee === 0n ? [] : [{ feeToken: o.feeAsset, fee: fmtAmount(o.fee) }],
  };
}

/** Returns the contract my-trades entry of `t`. */
export function contractTradeView(t: OwnTrade): ContractTradeView {
  const inst = t.order.inst;
  return {
    time: String(t.time), tradeId: t.tradeId, orderId: t.order.orderId, accountId: t.order.accountId, symbolId: inst.symbol,
    price: inst.priceText(t.price), quantity: inst.qtyText(t.lots), feeTokenId: t.feeAsset, fee: fmtAmount(t.fee),
    type: t.order.type, side: t.order.side,
  };
}

/**
 * Returns own trades by the venue's fromId/toId table: fromId only → ids below it, descending; toId only →
 * ids above it, ascending; both → between them, descending; neither → the most recent, descending.
 */
export function selectTrades(list: readonly OwnTrade[], q: { fromId?: string; toId?: string; startTime?: number; endTime?: number; limit: number }): OwnTrade[] {
  const from = q.fromId ? BigInt(q.fromId) : undefined;
  const to = q.toId ? BigInt(q.toId) : undefined;
  const keep = (t: OwnTrade): boolean =>
    (from === undefined || BigInt(t.tradeId) < from) &&
    (to === undefined || BigInt(t.tradeId) > to) &&
    (q.startTime === undefined || t.time >= q.startTime) &&
    (q.endTime === undefined || t.time <= q.endTime);
  const out: OwnTrade[] = [];
  if (from === undefined && to !== undefined) {
    for (let i = 0; i < list.length && out.length < q.limit; i++) if (keep(list[i]!)) out.push(list[i]!);
    return out;
  }
  for (let i = list.length - 1; i >= 0 && out.length < q.limit; i--) if (keep(list[i]!)) out.push(list[i]!);
  return out;
}

/** Returns orders below `orderId` (all when absent), the most recent `limit` of them, newest first. */
export function selectOrders(list: readonly SimOrder[], pred: (o: SimOrder) => boolean, orderId: string | undefined, limit: number): SimOrder[] {
  const below = orderId ? BigInt(orderId) : undefined;
  const out: SimOrder[] = [];
  for (let i = list.length - 1; i >= 0 && out.length < limit; i--) {
    const o = list[i]!;
    if (!pred(o)) continue;
    if (below !== undefined && BigInt(o.orderId) >= below) continue;
    out.push(o);
  }
  return out;
}
