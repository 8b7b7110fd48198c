/** Trading rules from brokerInfo (spot symbols, contracts, filters, risk tiers, rate limits) and the Instrument view built from them. */
import { ParseError } from '../core/errors.ts';
import { scaleOf } from '../core/fixed.ts';
import {
  RATE_LIMIT_INTERVALS,
  RATE_LIMIT_TYPE_SPELLINGS,
  SYMBOL_STATUSES,
  normalizeRateLimitType,
  type RateLimitInterval,
  type RateLimitType,
  type SymbolStatus,
} from './enums.ts';
import {
  asObject,
  at,
  listOf,
  optBool,
  optId,
  optInt,
  optString,
  reqBool,
  reqDecimal,
  reqEnum,
  reqId,
  reqInt,
  reqString,
  reqTime,
  type WireObject,
} from './wire.ts';

export interface PriceFilter {
  readonly filterType: 'PRICE_FILTER';
  readonly minPrice: string;
  readonly maxPrice: string;
  readonly tickSize: string;
}

export interface LotSizeFilter {
  readonly filterType: 'LOT_SIZE';
  readonly minQty: string;
  readonly maxQty: string;
  readonly stepSize: string;
}

export interface MinNotionalFilter {
  readonly filterType: 'MIN_NOTIONAL';
  readonly minNotional: string;
}

/** A filter the model does not interpret (MAX_NUM_ORDERS, ICEBERG_PARTS …), kept with all its fields. */
export interface OtherFilter {
  readonly filterType: string;
  readonly fields: WireObject;
}

export type Filter = PriceFilter | LotSizeFilter | MinNotionalFilter | OtherFilter;

export interface RateLimit {
  /** Normalised: REQUESTS_WEIGHT on the wire becomes REQUEST_WEIGHT. */
  readonly rateLimitType: RateLimitType;
  readonly interval: RateLimitInterval;
  readonly limit: number;
  /** Number of intervals per window where the server sends it (2024 edition). */
  readonly intervalUnit?: number;
}

export interface RiskLimit {
  readonly riskLimitId: string;
  /** Positions below this quantity follow this tier's rates. */
  readonly quantity: string;
  readonly initialMargin: string;
  readonly maintMargin: string;
}

export interface SpotSymbol {
  readonly symbol: string;
  readonly symbolName?: string;
  readonly status: SymbolStatus;
  readonly exchangeId?: string;
  readonly baseAsset: string;
  readonly baseAssetName?: string;
  /** Quantity precision as a step such as "0.001". */
  readonly baseAssetPrecision: string;
  readonly quoteAsset: string;
  readonly quoteAssetName?: string;
  /** Price precision as a step such as "0.01". */
  readonly quotePrecision: string;
  readonly icebergAllowed: boolean;
  readonly isAggregate?: boolean;
  readonly allowMargin?: boolean;
  readonly filters: readonly Filter[];
}

export interface Contract {
  readonly symbol: string;
  readonly symbolName: string;
  readonly status: SymbolStatus;
  readonly exchangeId?: string;
  readonly baseAsset: string;
  readonly baseAssetPrecision: string;
  readonly quoteAsset: string;
  readonly quoteAssetPrecision: string;
  readonly icebergAllowed: boolean;
  readonly inverse: boolean;
  /** Index symbol whose price is at the index endpoint. */
  readonly index: string;
  readonly marginToken: string;
  readonly marginPrecision: string;
  readonly contractMultiplier: string;
  readonly underlying?: string;
  readonly filters: readonly Filter[];
  readonly riskLimits: readonly RiskLimit[];
}

export interface TokenChain {
  readonly chainType: string;
  readonly allowDeposit: boolean;
  readonly allowWithdraw: boolean;
}

export interface TokenInfo {
  readonly orgId?: string;
  readonly tokenId: string;
  readonly tokenName: string;
  readonly tokenFullName?: string;
  readonly allowWithdraw: boolean;
  readonly allowDeposit: boolean;
  readonly chainTypes: readonly TokenChain[];
}

export interface BrokerInfo {
  readonly timezone: string;
  readonly serverTime: number;
  readonly rateLimits: readonly RateLimit[];
  readonly brokerFilters: readonly WireObject[];
  /** Spot symbols; empty when the answer holds only contracts. */
  readonly symbols: readonly SpotSymbol[];
  /** Option symbols (same shape as spot) where the server sends them. */
  readonly options: readonly SpotSymbol[];
  readonly contracts: readonly Contract[];
  readonly tokens?: readonly TokenInfo[];
}

/** Returns a filter: PRICE_FILTER, LOT_SIZE and MIN_NOTIONAL typed, any other kept as a generic record. */
export function parseFilter(raw: unknown, path = 'filter'): Filter {
  const o = asObject(raw, path);
  const filterType = reqString(o, 'filterType', path);
  switch (filterType) {
    case 'PRICE_FILTER':
      return { filterType, minPrice: reqDecimal(o, 'minPrice', path), maxPrice: reqDecimal(o, 'maxPrice', path), tickSize: reqDecimal(o, 'tickSize', path) };
    case 'LOT_SIZE':
      return { filterType, minQty: reqDecimal(o, 'minQty', path), maxQty: reqDecimal(o, 'maxQty', path), stepSize: reqDecimal(o, 'stepSize', path) };
    case 'MIN_NOTIONAL':
      return { filterType, minNotional: reqDecimal(o, 'minNotional', path) };
    default:
      return { filterType, fields: o };
  }
}

/** Returns a list of filters. */
export function parseFilterList(raw: unknown, path = 'filters'): readonly Filter[] {
  return listOf(raw, path, parseFilter);
}

/** Returns a rate-limit entry with its type normalised to REQUEST_WEIGHT or ORDERS. */
export function parseRateLimit(raw: unknown, path = 'rateLimit'): RateLimit {
  const o = asObject(raw, path);
  const spelled = reqEnum(o, 'rateLimitType', path, RATE_LIMIT_TYPE_SPELLINGS);
  const rateLimitType = normalizeRateLimitType(spelled);
  if (rateLimitType === undefined) throw new ParseError(at(path, 'rateLimitType'), `unknown rate limit type ${spelled}`);
  const intervalUnit = optInt(o, 'intervalUnit', path);
  const limit = reqInt(o, 'limit', path);
  if (limit < 0) throw new ParseError(at(path, 'limit'), `must not be negative, got ${limit}`);
  return {
    rateLimitType,
    interval: reqEnum(o, 'interval', path, RATE_LIMIT_INTERVALS),
    limit,
    ...(intervalUnit === undefined ? {} : { intervalUnit }),
  };
}

/** Returns a list of rate-limit entries. */
export function parseRateLimitList(raw: unknown, path = 'rateLimits'): readonly RateLimit[] {
  return listOf(raw, path, parseRateLimit);
}

/** Returns a risk-limit tier. */
export function parseRiskLimit(raw: unknown, path = 'riskLimit'): RiskLimit {
  const o = asObject(raw, path);
  return {
    riskLimitId: reqId(o, 'riskLimitId', path),
    quantity: reqDecimal(o, 'quantity', path),
    initialMargin: reqDecimal(o, 'initialMargin', path),
    maintMargin: reqDecimal(o, 'maintMargin', path),
  };
}

/** Returns a list of risk-limit tiers. */
export function parseRiskLimitList(raw: unknown, path = 'riskLimits'): readonly RiskLimit[] {
  return listOf(raw, path, parseRiskLimit);
}

/** Returns a spot (or option) symbol entry of brokerInfo. */
export function parseSpotSymbol(raw: unknown, path = 'symbol'): SpotSymbol {
  const o = asObject(raw, path);
  return {
    symbol: reqString(o, 'symbol', path),
    symbolName: optString(o, 'symbolName', path),
    status: reqEnum(o, 'status', path, SYMBOL_STATUSES),
    exchangeId: optId(o, 'exchangeId', path),
    baseAsset: reqString(o, 'baseAsset', path),
    baseAssetName: optString(o, 'baseAssetName', path),
    baseAssetPrecision: reqDecimal(o, 'baseAssetPrecision', path),
    quoteAsset: reqString(o, 'quoteAsset', path),
    quoteAssetName: optString(o, 'quoteAssetName', path),
    quotePrecision: reqDecimal(o, 'quotePrecision', path),
    icebergAllowed: reqBool(o, 'icebergAllowed', path),
    isAggregate: optBool(o, 'isAggregate', path),
    allowMargin: optBool(o, 'allowMargin', path),
    filters: o['filters'] === undefined ? [] : parseFilterList(o['filters'], at(path, 'filters')),
  };
}

/** Returns a list of spot symbols. */
export function parseSpotSymbolList(raw: unknown, path = 'symbols'): readonly SpotSymbol[] {
  return listOf(raw, path, parseSpotSymbol);
}

/** Returns a contract entry of brokerInfo. */
export function parseContract(raw: unknown, path = 'contract'): Contract {
  const o = asObject(raw, path);
  return {
    symbol: reqString(o, 'symbol', path),
    symbolName: optString(o, 'symbolName', path) ?? reqString(o, 'symbol', path),
    status: reqEnum(o, 'status', path, SYMBOL_STATUSES),
    exchangeId: optId(o, 'exchangeId', path),
    baseAsset: reqString(o, 'baseAsset', path),
    baseAssetPrecision: reqDecimal(o, 'baseAssetPrecision', path),
    quoteAsset: reqString(o, 'quoteAsset', path),
    quoteAssetPrecision: reqDecimal(o, 'quoteAssetPrecision', path),
    icebergAllowed: reqBool(o, 'icebergAllowed', path),
    inverse: reqBool(o, 'inverse', path),
    index: reqString(o, 'index', path),
    marginToken: reqString(o, 'marginToken', path),
    marginPrecision: reqDecimal(o, 'marginPrecision', path),
    contractMultiplier: reqDecimal(o, 'contractMultiplier', path),
    underlying: optString(o, 'underlying', path),
    filters: o['filters'] === undefined ? [] : parseFilterList(o['filters'], at(path, 'filters')),
    riskLimits: o['riskLimits'] === undefined ? [] : parseRiskLimitList(o['riskLimits'], at(path, 'riskLimits')),
  };
}

/** Returns a list of contracts. */
export function parseContractList(raw: unknown, path = 'contracts'): readonly Contract[] {
  return listOf(raw, path, parseContract);
}

/** Returns a token entry of brokerInfo (2024 edition). */
export function parseTokenInfo(raw: unknown, path = 'token'): TokenInfo {
  const o = asObject(raw, path);
  return {
    orgId: optId(o, 'orgId', path),
    tokenId: reqString(o, 'tokenId', path),
    tokenName: reqString(o, 'tokenName', path),
    tokenFullName: optString(o, 'tokenFullName', path),
    allowWithdraw: reqBool(o, 'allowWithdraw', path),
    allowDeposit: reqBool(o, 'allowDeposit', path),
    chainTypes: o['chainTypes'] === undefined
      ? []
      : listOf(o['chainTypes'], at(path, 'chainTypes'), (el, p) => {
        const c = asObject(el, p);
        return { chainType: reqString(c, 'chainType', p), allowDeposit: reqBool(c, 'allowDeposit', p), allowWithdraw: reqBool(c, 'allowWithdraw', p) };
      }),
  };
}

function optList<T>(o: WireObject, key: string, path: string, parse: (el: unknown, p: string) => T): readonly T[] {
  const v = o[key];
  return v === undefined || v === null ? [] : listOf(v, at(path, key), parse);
}

/** Returns the brokerInfo answer: rules for spot symbols, option symbols and contracts, and the rate limits. */
export function parseBrokerInfo(raw: unknown, path = 'brokerInfo'): BrokerInfo {
  const o = asObject(raw, path);
  const tokens = o['tokens'] === undefined ? undefined : listOf(o['tokens'], at(path, 'tokens'), parseTokenInfo);
  return {
    timezone: reqString(o, 'timezone', path),
    serverTime: reqTime(o, 'serverTime', path),
    rateLimits: optList(o, 'rateLimits', path, parseRateLimit),
    brokerFilters: optList(o, 'brokerFilters', path, asObject),
    symbols: optList(o, 'symbols', path, parseSpotSymbol),
    options: optList(o, 'options', path, parseSpotSymbol),
    contracts: optList(o, 'contracts', path, parseContract),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

/** The trading rules of one symbol in the form the rest of the framework uses. */
export interface Instrument {
  readonly symbol: string;
  readonly kind: 'spot' | 'inverse' | 'linear';
  readonly status: SymbolStatus;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly tickSize: string;
  readonly stepSize: string;
  readonly minPrice: string | undefined;
  readonly maxPrice: string | undefined;
  readonly minQty: string | undefined;
  readonly maxQty: string | undefined;
  readonly minNotional: string | undefined;
  /** Decimals of the tick (scaleOf(tickSize)). */
  readonly pricePrecision: number;
  /** Decimals of the step (scaleOf(stepSize)). */
  readonly qtyPrecision: number;
  /** Contract multiplier; "1" for spot. */
  readonly multiplier: string;
  /** Margin (and settlement) token of a contract. */
  readonly marginToken?: string;
  /** Decimals margins are shown at (contracts). */
  readonly marginPrecision?: number;
  readonly index?: string;
  readonly riskLimits: readonly RiskLimit[];
}

function filterOf<K extends 'PRICE_FILTER' | 'LOT_SIZE' | 'MIN_NOTIONAL'>(filters: readonly Filter[], kind: K): Extract<Filter, { filterType: K }> | undefined {
  return filters.find((f): f is Extract<Filter, { filterType: K }> => f.filterType === kind && !('fields' in f));
}

function view(
  base: Pick<Instrument, 'symbol' | 'kind' | 'status' | 'baseAsset' | 'quoteAsset' | 'multiplier' | 'riskLimits'>,
  filters: readonly Filter[],
  priceStep: string,
  qtyStep: string,
): Omit<Instrument, 'marginToken' | 'marginPrecision' | 'index'> {
  const price = filterOf(filters, 'PRICE_FILTER');
  const lot = filterOf(filters, 'LOT_SIZE');
  const notional = filterOf(filters, 'MIN_NOTIONAL');
  // The filter's tick and step are what orders are checked against; the precision fields are the fallback.
  const tickSize = price?.tickSize ?? priceStep;
  const stepSize = lot?.stepSize ?? qtyStep;
  return Object.assign({}, base, {
    tickSize,
    stepSize,
    minPrice: price?.minPrice,
    maxPrice: price?.maxPrice,
    minQty: lot?.minQty,
    maxQty: lot?.maxQty,
    minNotional: notional?.minNotional,
    pricePrecision: scaleOf(tickSize, `${base.symbol}.tickSize`),
    qtyPrecision: scaleOf(stepSize, `${base.symbol}.stepSize`),
  });
}

/** Returns the Instrument view of a spot symbol. */
export function instrumentFromSpot(s: SpotSymbol): Instrument {
  return view(
    { symbol: s.symbol, kind: 'spot', status: s.status, baseAsset: s.baseAsset, quoteAsset: s.quoteAsset, multiplier: '1', riskLimits: [] },
    s.filters,
    s.quotePrecision,
    s.baseAssetPrecision,
  );
}

/** Returns the Instrument view of a contract (inverse or linear by its `inverse` flag). */
export function instrumentFromContract(c: Contract): Instrument {
  return Object.assign(view(
    { symbol: c.symbol, kind: c.inverse ? 'inverse' : 'linear', status: c.status, baseAsset: c.baseAsset, quoteAsset: c.quoteAsset, multiplier: c.contractMultiplier, riskLimits: c.riskLimits },
    c.filters,
    c.quoteAssetPrecision,
    c.baseAssetPrecision,
  ), {
    marginToken: c.marginToken,
    marginPrecision: scaleOf(c.marginPrecision, `${c.symbol}.marginPrecision`),
    index: c.index,
  });
}

/** Returns every spot symbol and contract of brokerInfo as Instruments keyed by symbol. */
export function instrumentsOf(info: BrokerInfo): ReadonlyMap<string, Instrument> {
  const out = new Map<string, Instrument>();
  for (const s of info.symbols) out.set(s.symbol, instrumentFromSpot(s));
  for (const c of info.contracts) out.set(c.symbol, instrumentFromContract(c));
  return out;
}
