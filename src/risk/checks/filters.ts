/**
 * The exchange filters of the instrument: PRICE_FILTER, LOT_SIZE, MIN_NOTIONAL. In rounding mode a
 * price off the tick moves to the tick on the passive side (buys down, sells up) and a quantity off
 * the step moves down to the step; in deny mode either is refused. Bounds are never rounded into.
 */
import type { Instrument } from '../../model/index.ts';
import { deny, pass } from '../denial.ts';
import { cmp, dec, decimalsOf, isBound, onStep, onStepText, show, showDown, toStep, type Decimal } from '../num.ts';
import { isBuy, isQuoteAmount, limitPriceOf, valueOf, valuePrice, type CheckContext } from '../terms.ts';
import type { Adjustment, CheckResult, Denial, PlaceIntent, RoundingMode } from '../types.ts';

type Fit = { ok: true; value: string; adjusted?: Adjustment } | { ok: false; denial: Denial };

function fitPrice(field: string, raw: string, buy: boolean, inst: Instrument, mode: RoundingMode): Fit {
  // Most prices are on the tick and within the bounds: that is told from the texts alone.
  if (onStepText(raw, inst.tickSize) && (!isBound(inst.minPrice) || cmp(raw, inst.minPrice) >= 0) && (!isBound(inst.maxPrice) || cmp(raw, inst.maxPrice) <= 0)) {
    return { ok: true, value: raw };
  }
  const price = dec(raw);
  const tick = dec(inst.tickSize);
  let fitted = price;
  let adjusted: Adjustment | undefined;
  if (tick.gt(0) && !onStep(price, tick)) {
    if (mode === 'deny') return { ok: false, denial: { code: 'PRICE_FILTER', values: { [field]: show(price), tickSize: show(tick) } } };
    fitted = toStep(price, tick, buy ? 'down' : 'up');
    adjusted = { code: 'PRICE_FILTER', values: { [field]: show(price), rounded: show(fitted), tickSize: show(tick) } };
  }
  // Written out only for a denial: most orders pass.
  const shown = (): Record<string, string> => (adjusted === undefined ? { [field]: show(price) } : { [field]: show(price), rounded: show(fitted) });
  if (isBound(inst.minPrice) && fitted.lt(dec(inst.minPrice))) return { ok: false, denial: { code: 'PRICE_FILTER', values: { ...shown(), minPrice: show(dec(inst.minPrice)) } } };
  if (isBound(inst.maxPrice) && fitted.gt(dec(inst.maxPrice))) return { ok: false, denial: { code: 'PRICE_FILTER', values: { ...shown(), maxPrice: show(dec(inst.maxPrice)) } } };
  return adjusted === undefined ? { ok: true, value: raw } : { ok: true, value: show(fitted), adjusted };
}

/** Returns the order with its price (and trigger price) on the tick and within minPrice..maxPrice, or a PRICE_FILTER denial. */
export function checkPriceFilter(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { instrument, config } = ctx;
  const buy = isBuy(order);
  let out = order;
  let adjusted: Adjustment | undefined;
  const limit = limitPriceOf(order);
  if (limit !== undefined) {
    const fit = fitPrice('price', limit, buy, instrument, config.rounding);
    if (!fit.ok) return { ok: false, denial: fit.denial };
    out = { ...out, price: fit.value };
    adjusted = fit.adjusted;
  }
  if (out.kind === 'placeContract' && out.triggerPrice !== undefined) {
    const fit = fitPrice('triggerPrice', out.triggerPrice, buy, instrument, config.rounding);
    if (!fit.ok) return { ok: false, denial: fit.denial };
    out = { ...out, triggerPrice: fit.value };
    adjusted ??= fit.adjusted;
  }
  return pass(out, adjusted);
}

/**
 * Returns the order with its quantity on the step and within minQty..maxQty, or a LOT_SIZE denial. A
 * spot MARKET BUY's quantity is a quote amount, not a lot: it is held to the tick instead, as the
 * venue holds it (a longer one is -1148, "Market order amount decimal too long").
 */
export function checkLotSize(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { instrument: inst, config } = ctx;
  if (isQuoteAmount(order)) return fitAmount(order, inst, config.rounding);
  // Most quantities are on the step and within the bounds: that is told from the texts alone.
  if (onStepText(order.quantity, inst.stepSize) && (isBound(inst.minQty) ? cmp(order.quantity, inst.minQty) >= 0 : cmp(order.quantity, '0') > 0)
    && (!isBound(inst.maxQty) || cmp(order.quantity, inst.maxQty) <= 0)) return pass(order);
  const qty = dec(order.quantity);
  const step = dec(inst.stepSize);
  let fitted = qty;
  let adjusted: Adjustment | undefined;
  if (step.gt(0) && !onStep(qty, step)) {
    if (config.rounding === 'deny') return deny('LOT_SIZE', { qty: show(qty), stepSize: show(step) });
    fitted = toStep(qty, step, 'down');
    adjusted = { code: 'LOT_SIZE', values: { qty: show(qty), rounded: show(fitted), stepSize: show(step) } };
  }
  const shown = (): Record<string, string> => (adjusted === undefined ? { qty: show(qty) } : { qty: show(qty), rounded: show(fitted) });
  if (isBound(inst.minQty) ? fitted.lt(dec(inst.minQty)) : fitted.lte(0)) return deny('LOT_SIZE', { ...shown(), minQty: show(dec(inst.minQty ?? '0')) });
  if (isBound(inst.maxQty) && fitted.gt(dec(inst.maxQty))) return deny('LOT_SIZE', { ...shown(), maxQty: show(dec(inst.maxQty)) });
  return adjusted === undefined ? pass(order) : pass({ ...order, quantity: show(fitted) }, adjusted);
}

/** Returns a spot MARKET BUY with its amount on the tick: rounded down (spending less, never more) or denied, per the rounding mode. */
function fitAmount(order: PlaceIntent, inst: Instrument, mode: RoundingMode): CheckResult<PlaceIntent> {
  if (onStepText(order.quantity, inst.tickSize)) return pass(order);
  const amount = dec(order.quantity);
  const tick = dec(inst.tickSize);
  if (mode === 'deny') return deny('LOT_SIZE', { amount: show(amount), tickSize: show(tick) });
  const fitted = toStep(amount, tick, 'down');
  if (fitted.lte(0)) return deny('LOT_SIZE', { amount: show(amount), rounded: show(fitted), tickSize: show(tick) });
  return pass({ ...order, quantity: show(fitted) }, { code: 'LOT_SIZE', values: { amount: show(amount), rounded: show(fitted), tickSize: show(tick) } });
}

/**
 * Returns the order when its notional reaches minNotional, else a MIN_NOTIONAL denial. Notional is
 * qty × price on spot (a MARKET BUY's quote amount as it is; a MARKET SELL at the last price) and
 * the value in the margin token for contracts (venue-notes.md §6: the published minimum 0.000001
 * only makes sense there). Never rounded: raising a quantity to the minimum would add risk.
 */
export function checkMinNotional(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { instrument: inst, snapshot } = ctx;
  if (!isBound(inst.minNotional)) return pass(order);
  const min = dec(inst.minNotional);
  let notional: Decimal;
  const values: Record<string, string> = {};
  if (isQuoteAmount(order)) {
    notional = dec(order.quantity);
  } else {
    const price = valuePrice(order, inst, snapshot);
    if (price === undefined) return deny('NO_PRICE', { symbol: order.symbol, need: 'last', for: 'MIN_NOTIONAL' });
    notional = valueOf(inst, dec(order.quantity), price);
    values['qty'] = show(dec(order.quantity));
    values['price'] = show(price);
  }
  if (notional.gte(min)) return pass(order);
  // Divisions (inverse) are shown rounded down at enough decimals to stay below the minimum.
  values['notional'] = showDown(notional, Math.max(decimalsOf(inst.minNotional), inst.marginPrecision ?? 0, 8));
  values['minNotional'] = show(min);
  return deny('MIN_NOTIONAL', values);
}
