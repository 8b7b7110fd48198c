/** RestGateway: the Gateway of model/gateway.ts over the venue's signed REST client. */
import { ConfigError } from '../core/errors.ts';
import type {
  AccountKind,
  Balances,
  BrokerInfo,
  ContractOrder,
  ContractTrade,
  FillReport,
  Gateway,
  OrderLocator,
  OrderReport,
  OrderRequest,
  Position,
  SpotOrder,
  SpotOrderAck,
  SpotOrderRequest,
  SpotTrade,
} from '../model/index.ts';
import type { VenueRestClient } from './rest-client.ts';

/** Most trades one myTrades page holds (venue-api.md: max 1000). */
const PAGE = 1000;
/** Pages read per tradesSince call: bounded, the next call goes on from the last id seen. */
const MAX_PAGES = 20;

/** Returns the OrderReport of a spot order from query, open orders or history. */
export function reportOfSpotOrder(o: SpotOrder): OrderReport {
  return {
    account: 'spot', symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, status: o.status, side: o.side,
    type: o.type, price: o.price, origQty: o.origQty, executedQty: o.executedQty, avgPrice: o.avgPrice,
    time: o.updateTime > 0 ? o.updateTime : o.time,
  };
}

/** Returns the OrderReport of a contract order (every contract order endpoint answers this shape). */
export function reportOfContractOrder(o: ContractOrder): OrderReport {
  return {
    account: 'contract', symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, status: o.status, side: o.side,
    type: o.orderType, price: o.price, origQty: o.origQty, executedQty: o.executedQty, avgPrice: o.avgPrice,
    time: o.updateTime > 0 ? o.updateTime : o.time,
  };
}

/**
 * Returns the OrderReport of a spot placement answer. The official answer carries only the ids, so the
 * rest comes from the request: an order the venue took is at least NEW with nothing filled, and a
 * later report moves it on.
 */
export function reportOfSpotAck(a: SpotOrderAck, req: SpotOrderRequest, now: number): OrderReport {
  return {
    account: 'spot', symbol: a.symbol ?? req.symbol, orderId: a.orderId, clientOrderId: a.clientOrderId, status: a.status ?? 'NEW',
    side: a.side ?? req.side, type: a.type ?? req.type, price: a.price ?? req.price ?? '0', origQty: a.origQty ?? req.quantity,
    executedQty: a.executedQty ?? '0', avgPrice: '0', time: a.transactTime ?? now,
  };
}

/** Returns the FillReport of a spot trade; the side is the user's (isBuyer). */
export function fillOfSpotTrade(t: SpotTrade): FillReport {
  return {
    account: 'spot', symbol: t.symbol, tradeId: t.id, orderId: t.orderId, side: t.isBuyer ? 'BUY' : 'SELL', price: t.price,
    qty: t.qty, fee: t.commission, feeAsset: t.commissionAsset, maker: t.isMaker, time: t.time,
  };
}

/** Returns the FillReport of a contract trade. */
export function fillOfContractTrade(t: ContractTrade): FillReport {
  const base = {
    account: 'contract' as const, symbol: t.symbol, tradeId: t.tradeId, orderId: t.orderId, side: t.side, price: t.price,
    qty: t.quantity, fee: t.fee, feeAsset: t.feeTokenId, maker: undefined, time: t.time,
  };
  return t.pnl === undefined ? base : Object.assign(base, { realizedPnl: t.pnl });
}

function ascendingById<T extends { tradeId: string }>(xs: T[]): T[] {
  return xs.sort((a, b) => (BigInt(a.tradeId) < BigInt(b.tradeId) ? -1 : BigInt(a.tradeId) > BigInt(b.tradeId) ? 1 : 0));
}

/** The REST calls a RestGateway makes: VenueRestClient over HTTP, or an in-process client answering the same parsed shapes (the backtester's SimGateway). */
export type GatewayRest = Pick<VenueRestClient,
  | 'newSpotOrder' | 'cancelSpotOrder' | 'getSpotOrder' | 'openSpotOrders' | 'spotMyTrades' | 'spotAccount'
  | 'newContractOrder' | 'cancelContractOrder' | 'getContractOrder' | 'openContractOrders' | 'contractMyTrades' | 'contractPositions' | 'contractAccount'
  | 'brokerInfo'>;

/** The live Gateway: each method is one or a few REST calls of venue-api.md, answers mapped to model reports. */
export class RestGateway implements Gateway {
  constructor(private readonly rest: GatewayRest, private readonly now: () => number = () => 0) {}

  /** Places a spot or contract order under the request's clientOrderId. */
  async place(req: OrderRequest): Promise<OrderReport> {
    if (req.account === 'spot') {
      const ack = await this.rest.newSpotOrder({
        symbol: req.symbol, side: req.side, type: req.type, quantity: req.quantity, price: req.price,
        timeInForce: req.timeInForce, newClientOrderId: req.clientOrderId,
      });
      return reportOfSpotAck(ack, req, this.now());
    }
    const o = await this.rest.newContractOrder({
      clientOrderId: req.clientOrderId, symbol: req.symbol, side: req.side, orderType: req.orderType, quantity: req.quantity,
      leverage: req.leverage, price: req.price, priceType: req.priceType, triggerPrice: req.triggerPrice, timeInForce: req.timeInForce,
    });
    return reportOfContractOrder(o);
  }

  /** Cancels by clientOrderId when known, else by orderId; spot answers carry no quantities, so the order is read back. */
  async cancel(ref: OrderLocator): Promise<OrderReport> {
    const id = refOf(ref);
    if (ref.account === 'spot') {
      await this.rest.cancelSpotOrder(id);
      return this.getOrder(ref);
    }
    return reportOfContractOrder(await this.rest.cancelContractOrder(id));
  }

  /** Returns the order by clientOrderId (origClientOrderId on spot GET) or orderId. */
  async getOrder(ref: OrderLocator): Promise<OrderReport> {
    if (ref.account === 'spot') {
      const q = ref.orderId !== undefined ? { orderId: ref.orderId } : { origClientOrderId: ref.clientOrderId ?? '' };
      return reportOfSpotOrder(await this.rest.getSpotOrder(q));
    }
    return reportOfContractOrder(await this.rest.getContractOrder(refOf(ref)));
  }

  /** Returns open orders; contract LIMIT and STOP orders are listed separately by the venue, so both are asked. */
  async openOrders(account: AccountKind, symbol?: string): Promise<readonly OrderReport[]> {
    if (account === 'spot') return (await this.rest.openSpotOrders({ symbol, limit: 1000 })).map(reportOfSpotOrder);
    // One after the other: a second request sent while a 429 answer is on its way earns a ban (418).
    const limits = await this.rest.openContractOrders({ symbol, orderType: 'LIMIT', limit: 1000 });
    const stops = await this.rest.openContractOrders({ symbol, orderType: 'STOP', limit: 1000 });
    return [...limits, ...stops].map(reportOfContractOrder);
  }

  /** Returns fills above `afterTradeId` oldest first (toId pages ascend); without it the most recent page. */
  async tradesSince(account: AccountKind, afterTradeId?: string): Promise<readonly FillReport[]> {
    const page = async (toId: string | undefined): Promise<FillReport[]> => account === 'spot'
      ? (await this.rest.spotMyTrades({ toId, limit: PAGE })).map(fillOfSpotTrade)
      : (await this.rest.contractMyTrades({ toId, limit: PAGE })).map(fillOfContractTrade);
    if (afterTradeId === undefined) return ascendingById(await page(undefined));
    const out: FillReport[] = [];
    let after = afterTradeId;
    for (let i = 0; i < MAX_PAGES; i++) {
      const got = ascendingById(await page(after));
      out.push(...got);
      if (got.length < PAGE) break;
      after = got[got.length - 1]!.tradeId;
    }
    return out;
  }

  /** Returns every open contract position. */
  positions(): Promise<readonly Position[]> {
    return this.rest.contractPositions({});
  }

  /** Returns the spot balances and the contract account. */
  async balances(): Promise<Balances> {
    const spot = await this.rest.spotAccount();
    const contract = await this.rest.contractAccount();
    return { spot: spot.balances, contract };
  }

  /** Returns brokerInfo (instruments and rate limits). */
  exchangeInfo(): Promise<BrokerInfo> {
    return this.rest.brokerInfo();
  }
}

function refOf(ref: OrderLocator): { orderId: string } | { clientOrderId: string } {
  if (ref.clientOrderId !== undefined) return { clientOrderId: ref.clientOrderId };
  if (ref.orderId !== undefined) return { orderId: ref.orderId };
  throw new ConfigError('order.ref', `${ref.symbol}: clientOrderId or orderId is required`);
}
