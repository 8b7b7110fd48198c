/** Market data answers of the REST API: depth, klines, tickers, pairs, contract info, funding, insurance, index, server time. */
import { ParseError } from '../core/errors.ts';
import {
  asArray,
  asObject,
  at,
  decimalMap,
  decimalOf,
  levelOf,
  listOf,
  optDecimal,
  optString,
  optTime,
  reqDecimal,
  reqDecimalOrNumber,
  reqId,
  reqString,
  reqTime,
  type WireObject,
} from './wire.ts';

/** A book level: price and total quantity at that price, both decimal strings. */
export type Level = readonly [price: string, qty: string];

export interface Depth {
  /** Present on contract depth and on real spot depth. */
  readonly time?: number;
  /** Best to worst. */
  readonly bids: readonly Level[];
  /** Best to worst. */
  readonly asks: readonly Level[];
}

/** The open time and the prices and base volume of one candle, as every kline shape carries them. */
export interface Candle {
  readonly openTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

export interface Kline extends Candle {
  /** 0 on real servers (their published answers carry 0); the simulated venue and a backtest's history give the bucket's last millisecond. */
  readonly closeTime: number;
  readonly quoteVolume: string;
  readonly trades: number;
  readonly takerBuyBaseVolume: string;
  readonly takerBuyQuoteVolume: string;
}

export interface SpotTicker24h {
  readonly time: number;
  readonly symbol: string;
  /** Omitted in the all-symbols array. */
  readonly bestBidPrice?: string;
  readonly bestAskPrice?: string;
  readonly lastPrice: string;
  readonly openPrice: string;
  readonly highPrice: string;
  readonly lowPrice: string;
  readonly volume: string;
  readonly quoteVolume?: string;
}

export interface ContractTicker24h {
  readonly time: number;
  readonly symbol: string;
  readonly bestBidPrice: string;
  readonly bestAskPrice: string;
  readonly volume: string;
  readonly quoteVolume: string;
  readonly openInterest: string;
  readonly lastPrice: string;
  readonly highPrice: string;
  readonly lowPrice: string;
  readonly openPrice: string;
}

export interface PriceTicker {
  /** Absent when one symbol was asked for. */
  readonly symbol?: string;
  readonly price: string;
}

export interface BookTicker {
  readonly symbol: string;
  readonly bidPrice: string;
  readonly bidQty: string;
  readonly askPrice: string;
  readonly askQty: string;
}

export interface Pair {
  readonly symbol: string;
  readonly quoteToken: string;
  readonly baseToken: string;
}

export interface ContractInfo {
  readonly symbol: string;
  readonly symbolName: string;
  readonly baseToken: string;
  readonly quoteToken: string;
  readonly lastPrice: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
  readonly bid: string;
  readonly ask: string;
  readonly high: string;
  readonly low: string;
  readonly productType: string;
  readonly openInterest: string;
  readonly indexPrice: string;
  readonly index: string;
  readonly indexBaseToken: string;
  /** In seconds, as the venue sends it. */
  readonly startTs: number;
  /** In seconds. */
  readonly endTs: number;
  readonly fundingRate: string;
  readonly nextFundingRate: string;
  /** In seconds (venue-notes §5). */
  readonly nextFundingRateTs: number;
}

export interface FundingRate {
  readonly symbol: string;
  readonly intervalStart: number;
  readonly intervalEnd: number;
  readonly rate: string;
  /** Index price at settlement, where sent. */
  readonly index?: string;
}

export interface InsuranceRecord {
  readonly id: string;
  readonly timestamp: number;
  /** Fund balance (published as a JSON number; kept as its decimal text). */
  readonly value: string;
  readonly unit: string;
}

/** Insurance records keyed by asset. */
export type InsuranceRecords = Readonly<Record<string, readonly InsuranceRecord[]>>;

export interface IndexPrices {
  readonly index: Readonly<Record<string, string>>;
  /** Estimated delivery price per symbol. */
  readonly edp: Readonly<Record<string, string>>;
}

export interface ServerTime {
  readonly serverTime: number;
}

/** Answer of the contract batch cancel. */
export interface BatchCancelResult {
  readonly message: string;
  readonly timestamp: number;
}

/** Returns an order book snapshot. */
export function parseDepth(raw: unknown, path = 'depth'): Depth {
  const o = asObject(raw, path);
  return {
    time: optTime(o, 'time', path),
    bids: listOf(o['bids'], at(path, 'bids'), levelOf),
    asks: listOf(o['asks'], at(path, 'asks'), levelOf),
  };
}

function numberAt(arr: readonly unknown[], i: number, path: string): number {
  const v = arr[i];
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  throw new ParseError(at(path, i), `must be a non-negative integer, got ${JSON.stringify(v)}`);
}

/** Returns a kline from its 11-element array. */
export function parseKline(raw: unknown, path = 'kline'): Kline {
  const a = asArray(raw, path);
  if (a.length < 11) throw new ParseError(path, `must have 11 elements, got ${a.length}`);
  return {
    openTime: numberAt(a, 0, path),
    open: decimalOf(a[1], at(path, 1)),
    high: decimalOf(a[2], at(path, 2)),
    low: decimalOf(a[3], at(path, 3)),
    close: decimalOf(a[4], at(path, 4)),
    volume: decimalOf(a[5], at(path, 5)),
    closeTime: numberAt(a, 6, path),
    quoteVolume: decimalOf(a[7], at(path, 7)),
    trades: numberAt(a, 8, path),
    takerBuyBaseVolume: decimalOf(a[9], at(path, 9)),
    takerBuyQuoteVolume: decimalOf(a[10], at(path, 10)),
  };
}

/** Returns a list of klines. */
export function parseKlineList(raw: unknown, path = 'klines'): readonly Kline[] {
  return listOf(raw, path, parseKline);
}

/** Returns a spot 24h ticker. */
export function parseSpotTicker24h(raw: unknown, path = 'ticker'): SpotTicker24h {
  const o = asObject(raw, path);
  return {
    time: reqTime(o, 'time', path),
    symbol: reqString(o, 'symbol', path),
    bestBidPrice: optDecimal(o, 'bestBidPrice', path),
    bestAskPrice: optDecimal(o, 'bestAskPrice', path),
    lastPrice: reqDecimal(o, 'lastPrice', path),
    openPrice: reqDecimal(o, 'openPrice', path),
    highPrice: reqDecimal(o, 'highPrice', path),
    lowPrice: reqDecimal(o, 'lowPrice', path),
    volume: reqDecimal(o, 'volume', path),
    quoteVolume: optDecimal(o, 'quoteVolume', path),
  };
}

/** Returns the list form of spot 24h tickers. */
export function parseSpotTicker24hList(raw: unknown, path = 'tickers'): readonly SpotTicker24h[] {
  return listOf(raw, path, parseSpotTicker24h);
}

/** Returns a contract 24h ticker. */
export function parseContractTicker24h(raw: unknown, path = 'ticker'): ContractTicker24h {
  const o = asObject(raw, path);
  return {
    time: reqTime(o, 'time', path),
    symbol: reqString(o, 'symbol', path),
    bestBidPrice: reqDecimal(o, 'bestBidPrice', path),
    bestAskPrice: reqDecimal(o, 'bestAskPrice', path),
    volume: reqDecimal(o, 'volume', path),
    quoteVolume: reqDecimal(o, 'quoteVolume', path),
    openInterest: reqDecimal(o, 'openInterest', path),
    lastPrice: reqDecimal(o, 'lastPrice', path),
    highPrice: reqDecimal(o, 'highPrice', path),
    lowPrice: reqDecimal(o, 'lowPrice', path),
    openPrice: reqDecimal(o, 'openPrice', path),
  };
}

/** Returns the list form of contract 24h tickers. */
export function parseContractTicker24hList(raw: unknown, path = 'tickers'): readonly ContractTicker24h[] {
  return listOf(raw, path, parseContractTicker24h);
}

/** Returns a price ticker (`{price}` for one symbol, `{symbol, price}` in the list). */
export function parsePriceTicker(raw: unknown, path = 'ticker'): PriceTicker {
  const o = asObject(raw, path);
  return { symbol: optString(o, 'symbol', path), price: reqDecimal(o, 'price', path) };
}

/** Returns the list form of price tickers. */
export function parsePriceTickerList(raw: unknown, path = 'tickers'): readonly PriceTicker[] {
  return listOf(raw, path, parsePriceTicker);
}

/** Returns a book ticker. */
export function parseBookTicker(raw: unknown, path = 'bookTicker'): BookTicker {
  const o = asObject(raw, path);
  return {
    symbol: reqString(o, 'symbol', path),
    bidPrice: reqDecimal(o, 'bidPrice', path),
    bidQty: reqDecimal(o, 'bidQty', path),
    askPrice: reqDecimal(o, 'askPrice', path),
    askQty: reqDecimal(o, 'askQty', path),
  };
}

/** Returns the list form of book tickers. */
export function parseBookTickerList(raw: unknown, path = 'bookTickers'): readonly BookTicker[] {
  return listOf(raw, path, parseBookTicker);
}

/** Returns a trading pair. */
export function parsePair(raw: unknown, path = 'pair'): Pair {
  const o = asObject(raw, path);
  return { symbol: reqString(o, 'symbol', path), quoteToken: reqString(o, 'quoteToken', path), baseToken: reqString(o, 'baseToken', path) };
}

/** Returns the list of trading pairs. */
export function parsePairList(raw: unknown, path = 'pairs'): readonly Pair[] {
  return listOf(raw, path, parsePair);
}

/** Returns a contract info entry of /openapi/v1/contracts. */
export function parseContractInfo(raw: unknown, path = 'contract'): ContractInfo {
  const o = asObject(raw, path);
  const d = (k: string): string => reqDecimal(o, k, path);
  return {
    symbol: reqString(o, 'symbol', path),
    symbolName: reqString(o, 'symbolName', path),
    baseToken: reqString(o, 'baseToken', path),
    quoteToken: reqString(o, 'quoteToken', path),
    lastPrice: d('lastPrice'),
    baseVolume: d('baseVolume'),
    quoteVolume: d('quoteVolume'),
    bid: d('bid'),
    ask: d('ask'),
    high: d('high'),
    low: d('low'),
    productType: reqString(o, 'productType', path),
    openInterest: d('openInterest'),
    indexPrice: d('indexPrice'),
    index: reqString(o, 'index', path),
    indexBaseToken: reqString(o, 'indexBaseToken', path),
    startTs: reqTime(o, 'startTs', path),
    endTs: reqTime(o, 'endTs', path),
    fundingRate: d('fundingRate'),
    nextFundingRate: d('nextFundingRate'),
    nextFundingRateTs: reqTime(o, 'nextFundingRateTs', path),
  };
}

/** Returns the list of contract info entries. */
export function parseContractInfoList(raw: unknown, path = 'contracts'): readonly ContractInfo[] {
  return listOf(raw, path, parseContractInfo);
}

/** A UTC day in milliseconds: days start at multiples of it (the venue's daily limits, the day's PnL, daily returns). */
export const DAY_MS = 86_400_000;

/** Length of a funding interval: 8 hours, each ending on a multiple of 8 h since the epoch (00:00, 08:00, 16:00 UTC). */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;

/** Returns a funding-rate entry. */
export function parseFundingRate(raw: unknown, path = 'fundingRate'): FundingRate {
  const o = asObject(raw, path);
  return {
    symbol: reqString(o, 'symbol', path),
    intervalStart: reqTime(o, 'intervalStart', path),
    intervalEnd: reqTime(o, 'intervalEnd', path),
    rate: reqDecimal(o, 'rate', path),
    index: optDecimal(o, 'index', path),
  };
}

/** Returns a list of funding-rate entries. */
export function parseFundingRateList(raw: unknown, path = 'fundingRates'): readonly FundingRate[] {
  return listOf(raw, path, parseFundingRate);
}

/** Returns an insurance record. */
export function parseInsuranceRecord(raw: unknown, path = 'insurance'): InsuranceRecord {
  const o = asObject(raw, path);
  return {
    id: reqId(o, 'id', path),
    timestamp: reqTime(o, 'timestamp', path),
    value: reqDecimalOrNumber(o, 'value', path),
    unit: reqString(o, 'unit', path),
  };
}

/** Returns the insurance answer: records keyed by asset. */
export function parseInsuranceRecords(raw: unknown, path = 'insurance'): InsuranceRecords {
  const o = asObject(raw, path);
  const out: Record<string, readonly InsuranceRecord[]> = {};
  for (const asset of Object.keys(o)) out[asset] = listOf(o[asset], at(path, asset), parseInsuranceRecord);
  return out;
}

/** Returns the index answer: index prices and estimated delivery prices by symbol. */
export function parseIndexPrices(raw: unknown, path = 'index'): IndexPrices {
  const o = asObject(raw, path);
  return { index: decimalMap(o['index'], at(path, 'index')), edp: decimalMap(o['edp'] ?? {}, at(path, 'edp')) };
}

/** Returns the server time answer. */
export function parseServerTime(raw: unknown, path = 'time'): ServerTime {
  const o = asObject(raw, path);
  return { serverTime: reqTime(o, 'serverTime', path) };
}

/** Returns the contract batch-cancel answer. */
export function parseBatchCancelResult(raw: unknown, path = 'batchCancel'): BatchCancelResult {
  const o = asObject(raw, path);
  return { message: reqString(o, 'message', path), timestamp: reqTime(o, 'timestamp', path) };
}

/** Returns the empty object answered by ping, test order and listen-key keepalive or close. */
export function parseEmpty(raw: unknown, path = 'response'): WireObject {
  return asObject(raw, path);
}
