/** Fills: the user's spot and contract trades, and public recent trades. */
import { CONTRACT_SIDES, type ContractSide } from './enums.ts';
import {
  asObject,
  at,
  listOf,
  optDecimal,
  optId,
  optString,
  reqBool,
  reqDecimal,
  reqEnum,
  reqId,
  reqString,
  reqTime,
} from './wire.ts';

/** The nested fee object of real spot trades (2020 capture). */
export interface TradeFee {
  readonly feeTokenId: string;
  readonly feeTokenName?: string;
  readonly fee: string;
}

/** One of the user's spot fills (my trades). */
export interface SpotTrade {
  readonly id: string;
  readonly symbol: string;
  readonly orderId: string;
  readonly matchOrderId?: string;
  readonly price: string;
  readonly qty: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly time: number;
  readonly isBuyer: boolean;
  readonly isMaker: boolean;
  /** Fee token and amount, from the nested `fee` object or the flat `feeTokenId`/`feeAmount` pair. */
  readonly fee?: TradeFee;
}

/** One of the user's contract fills (my trades). */
export interface ContractTrade {
  readonly time: number;
  readonly tradeId: string;
  readonly orderId: string;
  readonly matchOrderId?: string;
  readonly accountId: string;
  /** Contract name (the wire calls it symbolId). */
  readonly symbol: string;
  readonly price: string;
  readonly quantity: string;
  readonly feeTokenId: string;
  readonly fee: string;
  /** Order type of the fill's order. */
  readonly type: string;
  readonly side: ContractSide;
  readonly pnl?: string;
}

/** A public recent trade (spot or contract). */
export interface PublicTrade {
  readonly price: string;
  readonly qty: string;
  readonly time: number;
  readonly isBuyerMaker: boolean;
}

function tradeFee(raw: unknown, path: string): TradeFee {
  const o = asObject(raw, path);
  return { feeTokenId: reqString(o, 'feeTokenId', path), feeTokenName: optString(o, 'feeTokenName', path), fee: reqDecimal(o, 'fee', path) };
}

/** Returns one of the user's spot trades; accepts string or number ids and times and both fee forms. */
export function parseSpotTrade(raw: unknown, path = 'trade'): SpotTrade {
  const o = asObject(raw, path);
  let fee: TradeFee | undefined;
  if (o['fee'] !== undefined && o['fee'] !== null) fee = tradeFee(o['fee'], at(path, 'fee'));
  else if (o['feeTokenId'] !== undefined) {
    fee = { feeTokenId: reqString(o, 'feeTokenId', path), fee: optDecimal(o, 'feeAmount', path) ?? reqDecimal(o, 'commission', path) };
  }
  return {
    id: reqId(o, 'id', path),
    symbol: reqString(o, 'symbol', path),
    orderId: reqId(o, 'orderId', path),
    matchOrderId: optId(o, 'matchOrderId', path),
    price: reqDecimal(o, 'price', path),
    qty: reqDecimal(o, 'qty', path),
    commission: reqDecimal(o, 'commission', path),
    commissionAsset: reqString(o, 'commissionAsset', path),
    time: reqTime(o, 'time', path),
    isBuyer: reqBool(o, 'isBuyer', path),
    isMaker: reqBool(o, 'isMaker', path),
    ...(fee === undefined ? {} : { fee }),
  };
}

/** Returns a list of the user's spot trades. */
export function parseSpotTradeList(raw: unknown, path = 'trades'): readonly SpotTrade[] {
  return listOf(raw, path, parseSpotTrade);
}

/** Returns one of the user's contract trades. */
export function parseContractTrade(raw: unknown, path = 'trade'): ContractTrade {
  const o = asObject(raw, path);
  return {
    time: reqTime(o, 'time', path),
    tradeId: reqId(o, 'tradeId', path),
    orderId: reqId(o, 'orderId', path),
    matchOrderId: optId(o, 'matchOrderId', path),
    accountId: reqId(o, 'accountId', path),
    symbol: optString(o, 'symbolId', path) ?? reqString(o, 'symbol', path),
    price: reqDecimal(o, 'price', path),
    quantity: reqDecimal(o, 'quantity', path),
    feeTokenId: reqString(o, 'feeTokenId', path),
    fee: reqDecimal(o, 'fee', path),
    type: reqString(o, 'type', path),
    side: reqEnum(o, 'side', path, CONTRACT_SIDES),
    pnl: optDecimal(o, 'pnl', path),
  };
}

/** Returns a list of the user's contract trades. */
export function parseContractTradeList(raw: unknown, path = 'trades'): readonly ContractTrade[] {
  return listOf(raw, path, parseContractTrade);
}

/** Returns a public recent trade. */
export function parsePublicTrade(raw: unknown, path = 'trade'): PublicTrade {
  const o = asObject(raw, path);
  return {
    price: reqDecimal(o, 'price', path),
    qty: reqDecimal(o, 'qty', path),
    time: reqTime(o, 'time', path),
    isBuyerMaker: reqBool(o, 'isBuyerMaker', path),
  };
}

/** Returns a list of public recent trades. */
export function parsePublicTradeList(raw: unknown, path = 'trades'): readonly PublicTrade[] {
  return listOf(raw, path, parsePublicTrade);
}
