/** Configured exposure limits per symbol: PRICE_BAND, MAX_OPEN_ORDERS, MAX_POSITION and MAX_NOTIONAL. Orders that only reduce are not held to the size limits. */
import { deny, pass } from '../denial.ts';
import { dec, decimalsOf, scaledOf, show, showUp, type Decimal } from '../num.ts';
import { addScaled, compareScaled, mulScaled, scaled, subScaled } from '../../core/fixed.ts';
import {
  baseQty,
  heldBase,
  isReducing,
  limitPriceOf,
  positionQty,
  positionSideOf,
  symbolLimits,
  valueOf,
  valuePrice,
  type CheckContext,
} from '../terms.ts';
import type { Instrument } from '../../model/index.ts';
import type { CheckResult, PlaceIntent, SymbolPrices } from '../types.ts';

const HUNDRED = dec('100');

/**
 * Returns the order when its limit price lies within ±priceBandPct % of the reference price, else
 * PRICE_BAND. The reference is the last trade for spot (the book's mid until the first trade) and the
 * mark for contracts (a contract's last trade until its first mark), unless priceBandRef names one. Market-priced orders have the venue's own band.
 */
export function checkPriceBand(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { priceBandPct, priceBandRef } = symbolLimits(ctx.config, order.symbol);
  const limit = limitPriceOf(order);
  if (priceBandPct === undefined || priceBandPct === 'off' || limit === undefined) return pass(order);
  const prices = ctx.snapshot.prices[order.symbol];
  const ref = priceBandRef ?? defaultRef(ctx.instrument.kind, prices);
  const refText = prices?.[ref];
  if (refText === undefined) return deny('NO_PRICE', { symbol: order.symbol, need: ref, for: 'PRICE_BAND' });
  if (withinBand(limit, refText, priceBandPct)) return pass(order);
  const refPrice = dec(refText);
  const pct = dec(priceBandPct);
  const low = refPrice.mul(HUNDRED.sub(pct)).div(HUNDRED);
  const high = refPrice.mul(HUNDRED.add(pct)).div(HUNDRED);
  const price = dec(limit);
  if (price.gte(low) && price.lte(high)) return pass(order);
  return deny('PRICE_BAND', { price: show(price), ref, refPrice: show(refPrice), bandPct: show(pct), low: show(low), high: show(high) });
}

const HUNDRED_SCALED = scaled('100');

/** Returns true when `price` × 100 lies within `ref` × (100 ∓ pct), in scaled integers (the band's bounds without a division); false when it does not or a text is not plain (decimal.js then decides). */
function withinBand(price: string, ref: string, pct: string): boolean {
  const p = scaledOf(price);
  const r = scaledOf(ref);
  const c = scaledOf(pct);
  if (p === undefined || r === undefined || c === undefined) return false;
  const p100 = mulScaled(p, HUNDRED_SCALED);
  return compareScaled(p100, mulScaled(r, subScaled(HUNDRED_SCALED, c))) >= 0 && compareScaled(p100, mulScaled(r, addScaled(HUNDRED_SCALED, c))) <= 0;
}

// Contracts band around the mark once known; spot around the last trade, or the book's mid before the first trade.
function defaultRef(kind: Instrument['kind'], prices: SymbolPrices | undefined): 'last' | 'mark' | 'mid' {
  if (kind !== 'spot') return prices?.mark !== undefined ? 'mark' : 'last';
  return prices?.last === undefined && prices?.mid !== undefined ? 'mid' : 'last';
}

/** Returns the order when the symbol's open orders (all strategies), with this one, stay within maxOpenOrders; a replace does not add one. */
export function checkMaxOpenOrders(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { maxOpenOrders } = symbolLimits(ctx.config, order.symbol);
  if (maxOpenOrders === undefined) return pass(order);
  const bySymbol = ctx.snapshot.openOrders[order.symbol] ?? {};
  const open = Object.values(bySymbol).reduce((a, n) => a + n, 0);
  const after = ctx.replacing ? open : open + 1;
  if (after <= maxOpenOrders) return pass(order);
  return deny('MAX_OPEN_ORDERS', { symbol: order.symbol, open: String(open), max: String(maxOpenOrders) });
}

interface Exposure {
  readonly position: Decimal;
  readonly added: Decimal;
  readonly price: Decimal;
}

// The position the order adds to (spot base held, or contracts on the side it opens) and what it adds.
function exposureOf(order: PlaceIntent, ctx: CheckContext): Exposure | 'no-price' {
  const price = valuePrice(order, ctx.instrument, ctx.snapshot);
  if (price === undefined) return 'no-price';
  const position = order.kind === 'placeSpot' ? heldBase(ctx.instrument, ctx.snapshot) : positionQty(ctx.snapshot, order.symbol, positionSideOf(order));
  return { position, added: baseQty(order, price), price };
}

/** Returns the order when the position after it stays within maxPosition, else MAX_POSITION. */
export function checkMaxPosition(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { maxPosition } = symbolLimits(ctx.config, order.symbol);
  if (maxPosition === undefined || isReducing(order, ctx.instrument, ctx.snapshot)) return pass(order);
  const e = exposureOf(order, ctx);
  if (e === 'no-price') return deny('NO_PRICE', { symbol: order.symbol, need: 'last', for: 'MAX_POSITION' });
  const after = e.position.add(e.added);
  const max = dec(maxPosition);
  if (after.lte(max)) return pass(order);
  // A market buy's quantity is an estimate from a quote amount: shown rounded up past the step's decimals.
  const scale = ctx.instrument.qtyPrecision + 8;
  return deny('MAX_POSITION', { symbol: order.symbol, position: show(e.position), order: showUp(e.added, scale), resulting: showUp(after, scale), max: show(max) });
}

/** Returns the order when the value of the position after it stays within maxNotional (quote on spot, margin token on contracts), else MAX_NOTIONAL. */
export function checkMaxNotional(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { maxNotional } = symbolLimits(ctx.config, order.symbol);
  if (maxNotional === undefined || isReducing(order, ctx.instrument, ctx.snapshot)) return pass(order);
  const e = exposureOf(order, ctx);
  if (e === 'no-price') return deny('NO_PRICE', { symbol: order.symbol, need: 'last', for: 'MAX_NOTIONAL' });
  const after = e.position.add(e.added);
  const notional = valueOf(ctx.instrument, after, e.price);
  const max = dec(maxNotional);
  if (notional.lte(max)) return pass(order);
  const scale = Math.max(decimalsOf(maxNotional), ctx.instrument.marginPrecision ?? 0, 8);
  return deny('MAX_NOTIONAL', { symbol: order.symbol, resulting: showUp(after, ctx.instrument.qtyPrecision + 8), price: show(e.price), notional: showUp(notional, scale), max: show(max) });
}

