/** Facts about a placing order the checks share: direction, the position it touches, the prices it is valued at, and the limits that apply to it. */
import type { Instrument, PositionSide } from '../model/index.ts';
import type { RateWindow } from './rate-window.ts';
import { dec, Decimal, toStep } from './num.ts';
import type {
  PlaceContractIntent,
  PlaceIntent,
  PortfolioSnapshot,
  RiskConfig,
  StrategyRiskLimits,
  SymbolRiskLimits,
  TradingState,
} from './types.ts';

/** What every check is given besides the order. */
export interface CheckContext {
  readonly instrument: Instrument;
  readonly snapshot: PortfolioSnapshot;
  readonly config: RiskConfig;
  /** The trading state in force (the gate's, which may differ from the config's start value). */
  readonly tradingState: TradingState;
  readonly window: RateWindow;
  /** True when the order replaces an open one (the open-order count does not grow). */
  readonly replacing: boolean;
}

/** The venue's MARKET priceType band (venue-api.md): latest price × 1.05 for buys, × 0.95 for sells. */
export const MARKET_BAND = '0.05';

/** Returns true for a spot BUY or a contract BUY_OPEN / BUY_CLOSE. */
export function isBuy(order: PlaceIntent): boolean {
  return order.kind === 'placeSpot' ? order.side === 'BUY' : order.side === 'BUY_OPEN' || order.side === 'BUY_CLOSE';
}

/** Returns the position a contract side acts on: BUY_OPEN and SELL_CLOSE the long, SELL_OPEN and BUY_CLOSE the short. */
export function positionSideOf(order: PlaceContractIntent): PositionSide {
  return order.side === 'BUY_OPEN' || order.side === 'SELL_CLOSE' ? 'LONG' : 'SHORT';
}

/** Returns true for a spot MARKET BUY, whose quantity is the quote amount to spend. */
export function isQuoteAmount(order: PlaceIntent): boolean {
  return order.kind === 'placeSpot' && order.type === 'MARKET' && order.side === 'BUY';
}

/** Returns the limit price the order carries, or undefined for market-priced orders. */
export function limitPriceOf(order: PlaceIntent): string | undefined {
  if (order.kind === 'placeSpot') return order.type === 'MARKET' ? undefined : order.price;
  return order.priceType === 'INPUT' ? order.price : undefined;
}

/** Returns the contracts open on one side of a symbol (0 without a position). */
export function positionQty(snapshot: PortfolioSnapshot, symbol: string, side: PositionSide): Decimal {
  const p = snapshot.positions.find((x) => x.symbol === symbol && x.side === side);
  return p === undefined ? new Decimal(0) : dec(p.quantity);
}

/** Returns the base asset held on spot, free plus locked. */
export function heldBase(instrument: Instrument, snapshot: PortfolioSnapshot): Decimal {
  const b = snapshot.spot[instrument.baseAsset];
  return b === undefined ? new Decimal(0) : dec(b.free).add(dec(b.locked));
}

/**
 * Returns true when the order can only shrink exposure: a contract close, or a spot SELL of no more
 * base than is held.
 */
export function isReducing(order: PlaceIntent, instrument: Instrument, snapshot: PortfolioSnapshot): boolean {
  if (order.kind === 'placeContract') return order.side === 'BUY_CLOSE' || order.side === 'SELL_CLOSE';
  return order.side === 'SELL' && dec(order.quantity).lte(heldBase(instrument, snapshot));
}

/** Returns the snapshot's last price of the symbol, if known. */
export function lastPrice(snapshot: PortfolioSnapshot, symbol: string): Decimal | undefined {
  const s = snapshot.prices[symbol]?.last;
  return s === undefined ? undefined : dec(s);
}

/**
 * Returns the price the order's value is judged at: its limit price; for a spot market order the last
 * price; for a market-priced contract order the worse (larger value) of the last price and the
 * venue's MARKET band price (inverse values grow as the price falls, linear as it rises).
 * Undefined when the needed last price is unknown.
 */
export function valuePrice(order: PlaceIntent, instrument: Instrument, snapshot: PortfolioSnapshot): Decimal | undefined {
  const limit = limitPriceOf(order);
  if (limit !== undefined) return dec(limit);
  const last = lastPrice(snapshot, order.symbol);
  if (last === undefined || order.kind === 'placeSpot') return last;
  const band = isBuy(order) ? last.mul(dec(MARKET_BAND).add(1)) : last.mul(dec(MARKET_BAND).neg().add(1));
  const bandPrice = toStep(band, dec(instrument.tickSize), 'down');
  return instrument.kind === 'inverse' ? Decimal.min(last, bandPrice) : Decimal.max(last, bandPrice);
}

/** Returns the base quantity (contracts for contracts) an order adds; a spot MARKET BUY's amount is turned into base at `price`. */
export function baseQty(order: PlaceIntent, price: Decimal): Decimal {
  return isQuoteAmount(order) ? dec(order.quantity).div(price) : dec(order.quantity);
}

/**
 * Returns the value of `qty` at `price` in the settlement asset: spot qty × price (quote);
 * inverse qty × multiplier / price and linear qty × multiplier × price (margin token, venue-notes.md §6).
 */
export function valueOf(instrument: Instrument, qty: Decimal, price: Decimal): Decimal {
  switch (instrument.kind) {
    case 'spot':
      return qty.mul(price);
    case 'inverse':
      return qty.mul(dec(instrument.multiplier)).div(price);
    case 'linear':
      return qty.mul(dec(instrument.multiplier)).mul(price);
    default:
      return assertNever(instrument.kind);
  }
}

/** The merged limits already made, per config and name: several checks of every order ask, and a gate's config does not change. */
const symbolMerged = new WeakMap<RiskConfig, Map<string, SymbolRiskLimits>>();
const strategyMerged = new WeakMap<RiskConfig, Map<string, StrategyRiskLimits>>();

/** Returns the merged limits `cache` holds for `config`, by name (an empty map the first time). */
function mergedOf<T>(cache: WeakMap<RiskConfig, Map<string, T>>, config: RiskConfig): Map<string, T> {
  let byName = cache.get(config);
  if (byName === undefined) cache.set(config, (byName = new Map()));
  return byName;
}

/** Returns the limits of a symbol: its own entry over the defaults (made once, frozen: every check shares it). */
export function symbolLimits(config: RiskConfig, symbol: string): SymbolRiskLimits {
  const byName = mergedOf(symbolMerged, config);
  let out = byName.get(symbol);
  if (out === undefined) byName.set(symbol, (out = Object.freeze(Object.assign({}, config.defaults, config.symbols?.[symbol]))));
  return out;
}

/** Returns the limits of a strategy: its own entry over the shared ones (made once, frozen: every check shares it). */
export function strategyLimits(config: RiskConfig, strategyId: string): StrategyRiskLimits {
  const byName = mergedOf(strategyMerged, config);
  let out = byName.get(strategyId);
  if (out === undefined) byName.set(strategyId, (out = Object.freeze(Object.assign({}, config.strategy, config.strategies?.[strategyId]))));
  return out;
}

/** Throws on a value a switch should never see. */
export function assertNever(x: never): never {
  throw new Error(`unexpected value ${String(x)}`);
}
