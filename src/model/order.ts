/** Spot and contract orders as the venue reports them: placement acks, query/open/history entries, cancel results. */
import {
  CONTRACT_ORDER_STATUSES,
  CONTRACT_ORDER_TYPES,
  CONTRACT_SIDES,
  CONTRACT_TIME_IN_FORCES,
  PRICE_TYPES,
  SPOT_NEW_ORDER_TYPES,
  SPOT_ORDER_STATUSES,
  SPOT_SIDES,
  SPOT_TIME_IN_FORCES,
  type ContractOrderStatus,
  type ContractOrderType,
  type ContractSide,
  type ContractTimeInForce,
  type PriceType,
  type SpotNewOrderType,
  type SpotOrderStatus,
  type SpotSide,
  type SpotTimeInForce,
} from './enums.ts';
import {
  asObject,
  at,
  listOf,
  optDecimal,
  optEnum,
  optId,
  optString,
  optTime,
  reqBool,
  reqDecimal,
  reqEnum,
  reqId,
  reqString,
  reqTime,
} from './wire.ts';

/**
 * The answer to a spot new order. The official sample carries only the two ids; real servers send
 * the whole placement object, so every other field is optional.
 */
export interface SpotOrderAck {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly symbol?: string;
  readonly transactTime?: number;
  readonly price?: string;
  /** For a MARKET BUY this is the quote amount. */
  readonly origQty?: string;
  readonly executedQty?: string;
  readonly status?: SpotOrderStatus;
  readonly timeInForce?: SpotTimeInForce;
  readonly type?: SpotNewOrderType;
  readonly side?: SpotSide;
}

/** A spot order from query order, open orders or history orders. */
export interface SpotOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly exchangeId?: string;
  readonly symbol: string;
  readonly price: string;
  readonly origQty: string;
  readonly executedQty: string;
  /** Below 0 on some historical orders, meaning the figure is unavailable. */
  readonly cummulativeQuoteQty: string;
  readonly avgPrice: string;
  readonly status: SpotOrderStatus;
  readonly timeInForce: SpotTimeInForce;
  /** Reported as LIMIT or MARKET; LIMIT_MAKER is accepted too since it is a valid input type. */
  readonly type: SpotNewOrderType;
  readonly side: SpotSide;
  readonly stopPrice?: string;
  readonly icebergQty?: string;
  readonly time: number;
  /** 0 when the order was never updated. */
  readonly updateTime: number;
  readonly isWorking: boolean;
}

/** The answer to a spot cancel. */
export interface SpotCancel {
  readonly exchangeId?: string;
  readonly symbol: string;
  /** "0" when the order was placed without one. */
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly status: SpotOrderStatus;
}

export interface ContractFee {
  readonly feeToken: string;
  readonly fee: string;
}

/** A contract order, as every contract order endpoint returns it. */
export interface ContractOrder {
  readonly time: number;
  /** 0 when the order was never updated. */
  readonly updateTime: number;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly price: string;
  /** Absent when the venue sends none or an empty string (a close order may carry no leverage; venue-notes.md: accept both forms). */
  readonly leverage?: string;
  readonly origQty: string;
  readonly executedQty: string;
  readonly avgPrice: string;
  readonly marginLocked: string;
  readonly orderType: ContractOrderType;
  readonly priceType: PriceType;
  readonly side: ContractSide;
  readonly status: ContractOrderStatus;
  readonly timeInForce: ContractTimeInForce;
  readonly fees: readonly ContractFee[];
  readonly triggerPrice?: string;
}

/** Returns the answer of a spot new order (the two-id form or the whole placement object). */
export function parseSpotOrderAck(raw: unknown, path = 'order'): SpotOrderAck {
  const o = asObject(raw, path);
  return {
    orderId: reqId(o, 'orderId', path),
    clientOrderId: reqId(o, 'clientOrderId', path),
    symbol: optString(o, 'symbol', path),
    transactTime: optTime(o, 'transactTime', path),
    price: optDecimal(o, 'price', path),
    origQty: optDecimal(o, 'origQty', path),
    executedQty: optDecimal(o, 'executedQty', path),
    status: optEnum(o, 'status', path, SPOT_ORDER_STATUSES),
    timeInForce: optEnum(o, 'timeInForce', path, SPOT_TIME_IN_FORCES),
    type: optEnum(o, 'type', path, SPOT_NEW_ORDER_TYPES),
    side: optEnum(o, 'side', path, SPOT_SIDES),
  };
}

/** Returns a spot order of query order, open orders or history orders. */
export function parseSpotOrder(raw: unknown, path = 'order'): SpotOrder {
  const o = asObject(raw, path);
  return {
    orderId: reqId(o, 'orderId', path),
    clientOrderId: reqId(o, 'clientOrderId', path),
    exchangeId: optId(o, 'exchangeId', path),
    symbol: reqString(o, 'symbol', path),
    price: reqDecimal(o, 'price', path),
    origQty: reqDecimal(o, 'origQty', path),
    executedQty: reqDecimal(o, 'executedQty', path),
    cummulativeQuoteQty: reqDecimal(o, 'cummulativeQuoteQty', path),
    avgPrice: reqDecimal(o, 'avgPrice', path),
    status: reqEnum(o, 'status', path, SPOT_ORDER_STATUSES),
    timeInForce: reqEnum(o, 'timeInForce', path, SPOT_TIME_IN_FORCES),
    type: reqEnum(o, 'type', path, SPOT_NEW_ORDER_TYPES),
    side: reqEnum(o, 'side', path, SPOT_SIDES),
    stopPrice: optDecimal(o, 'stopPrice', path),
    icebergQty: optDecimal(o, 'icebergQty', path),
    time: reqTime(o, 'time', path),
    updateTime: reqTime(o, 'updateTime', path),
    isWorking: reqBool(o, 'isWorking', path),
  };
}

/** Returns a list of spot orders (open orders, history orders). */
export function parseSpotOrderList(raw: unknown, path = 'orders'): readonly SpotOrder[] {
  return listOf(raw, path, parseSpotOrder);
}

/** Returns the answer of a spot cancel. */
export function parseSpotCancel(raw: unknown, path = 'cancel'): SpotCancel {
  const o = asObject(raw, path);
  return {
    exchangeId: optId(o, 'exchangeId', path),
    symbol: reqString(o, 'symbol', path),
    clientOrderId: reqId(o, 'clientOrderId', path),
    orderId: reqId(o, 'orderId', path),
    status: reqEnum(o, 'status', path, SPOT_ORDER_STATUSES),
  };
}

/** Returns a contract fee entry. */
export function parseContractFee(raw: unknown, path = 'fee'): ContractFee {
  const o = asObject(raw, path);
  return { feeToken: reqString(o, 'feeToken', path), fee: reqDecimal(o, 'fee', path) };
}

/** Returns a contract order (new, query, cancel, open and history orders all answer this shape). */
export function parseContractOrder(raw: unknown, path = 'order'): ContractOrder {
  const o = asObject(raw, path);
  return {
    time: reqTime(o, 'time', path),
    updateTime: reqTime(o, 'updateTime', path),
    orderId: reqId(o, 'orderId', path),
    clientOrderId: reqId(o, 'clientOrderId', path),
    symbol: reqString(o, 'symbol', path),
    price: reqDecimal(o, 'price', path),
    leverage: optDecimal(o, 'leverage', path, true),
    origQty: reqDecimal(o, 'origQty', path),
    executedQty: reqDecimal(o, 'executedQty', path),
    avgPrice: reqDecimal(o, 'avgPrice', path),
    marginLocked: reqDecimal(o, 'marginLocked', path),
    // venue-notes §5: orderType defaults to LIMIT where omitted.
    orderType: optEnum(o, 'orderType', path, CONTRACT_ORDER_TYPES) ?? 'LIMIT',
    priceType: optEnum(o, 'priceType', path, PRICE_TYPES) ?? 'INPUT',
    side: reqEnum(o, 'side', path, CONTRACT_SIDES),
    status: reqEnum(o, 'status', path, CONTRACT_ORDER_STATUSES),
    timeInForce: optEnum(o, 'timeInForce', path, CONTRACT_TIME_IN_FORCES) ?? 'GTC',
    fees: o['fees'] === undefined || o['fees'] === null ? [] : listOf(o['fees'], at(path, 'fees'), parseContractFee),
    triggerPrice: optDecimal(o, 'triggerPrice', path),
  };
}

/** Returns a list of contract orders (open orders, history orders). */
export function parseContractOrderList(raw: unknown, path = 'orders'): readonly ContractOrder[] {
  return listOf(raw, path, parseContractOrder);
}
