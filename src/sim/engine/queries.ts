/** What the query endpoints answer from the engine's state: open and finished orders, own trades, positions and the contract account, with the venue's default and maximum limits. */
import { positionView, positionWire, type PositionWire } from '../contracts/index.ts';
import { fmtAmount } from '../ledger/amount.ts';
import type { AccountId } from '../ledger/types.ts';
import type { ContractDesk } from './contract.ts';
import type { EngineCore } from './core.ts';
import { clampLimit } from './market.ts';
import type { SimOrder } from './order.ts';
import { reject } from './reject.ts';
import type { OwnTrade } from './trade-log.ts';
import { selectOrders, selectTrades } from './views.ts';

/** Query of open or history orders. */
export interface OrderQuery {
  symbol?: string;
  orderId?: string;
  startTime?: number;
  endTime?: number;
  limit?: number;
}

/** Query of my trades (fromId/toId as venue-api.md's table). */
export interface TradeQuery {
  symbol?: string;
  fromId?: string;
  toId?: string;
  startTime?: number;
  endTime?: number;
  limit?: number;
}

/** A contract account of one margin token as GET /openapi/contract/v1/account answers it. */
export interface ContractAccountView {
  total: string;
  availableMargin: string;
  positionMargin: string;
  orderMargin: string;
  tokenId: string;
}

/** Returns open (`open`) or finished spot orders of an account, newest first (default 500, max 1000); finished ones filtered by time. */
export function spotOrders(core: EngineCore, accountId: AccountId, q: OrderQuery, open: boolean): SimOrder[] {
  const list = core.ordersByAccount.get(accountId) ?? [];
  const pred = open
    ? (o: SimOrder) => o.market === 'spot' && o.active && (q.symbol === undefined || o.inst.symbol === q.symbol)
    : (o: SimOrder) => o.market === 'spot' && !o.active && (q.symbol === undefined || o.inst.symbol === q.symbol) &&
      (q.startTime === undefined || o.time >= q.startTime) && (q.endTime === undefined || o.time <= q.endTime);
  return selectOrders(list, pred, q.orderId, clampLimit(q.limit, 500, 1000));
}

/**
 * Returns open contract orders of `orderType` (LIMIT: working orders, STOP: waiting stops; default 20)
 * or finished ones of that type (default 500), newest first.
 */
export function contractOrders(core: EngineCore, accountId: AccountId, q: OrderQuery & { orderType?: string }, open: boolean): SimOrder[] {
  const list = core.ordersByAccount.get(accountId) ?? [];
  if (open) {
    const stop = q.orderType === 'STOP';
    return selectOrders(list, (o) => o.market === 'contract' && o.active && o.waiting === stop && (q.symbol === undefined || o.inst.symbol === q.symbol), q.orderId, clampLimit(q.limit, 20, 1000));
  }
  const type = q.orderType ?? 'LIMIT';
  return selectOrders(list, (o) => o.market === 'contract' && !o.active && o.type === type && (q.symbol === undefined || o.inst.symbol === q.symbol), q.orderId, clampLimit(q.limit, 500, 1000));
}

/** Returns an account's own trades of one market by the fromId/toId table (default 500 for spot, 20 for contracts; max 1000). */
export function myTrades(core: EngineCore, accountId: AccountId, market: 'spot' | 'contract', q: TradeQuery): OwnTrade[] {
  const list = core.ownTrades(accountId, (o) => o.market === market && (q.symbol === undefined || o.inst.symbol === q.symbol));
  return selectTrades(list, { ...q, limit: clampLimit(q.limit, market === 'spot' ? 500 : 20, 1000) });
}

/** Returns the account's positions as the positions endpoint shows them (side LONG or SHORT, else -1155). */
export function positionsOf(desk: ContractDesk, accountId: AccountId, q: { symbol?: string; side?: string }): PositionWire[] {
  if (q.side !== undefined && q.side !== 'LONG' && q.side !== 'SHORT') throw reject(-1155, [], { side: q.side });
  return desk.positions.list(accountId, q.symbol).filter((p) => q.side === undefined || p.side === q.side).map((p) => {
    const inst = desk.core.instruments.get(p.symbol)!;
    const spec = desk.positions.spec(p.symbol);
    const mark = desk.mark(inst) ?? p.avgPrice;
    const last = inst.klines.lastPrice();
    return positionWire(spec, positionView(spec, p, mark, last === undefined ? mark : BigInt(last) * inst.tick.amount));
  });
}

/** Returns the contract account of each margin token: total, availableMargin, positionMargin, orderMargin (marginPrecision, rounded down). */
export function contractAccountOf(desk: ContractDesk, accountId: AccountId): Record<string, ContractAccountView> {
  const out: Record<string, ContractAccountView> = {};
  const decimals = new Map(desk.positions.allSpecs().map((s) => [s.marginToken, s.marginDecimals]));
  for (const [token, b] of Object.entries(desk.positions.contractAccount(accountId))) {
    const d = decimals.get(token) ?? 18;
    out[token] = { total: fmtAmount(b.total, d), availableMargin: fmtAmount(b.availableMargin, d), positionMargin: fmtAmount(b.positionMargin, d), orderMargin: fmtAmount(b.orderMargin, d), tokenId: token };
  }
  return out;
}
