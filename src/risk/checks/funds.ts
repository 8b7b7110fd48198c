/** Whether the account can pay for the order: SPOT_BALANCE on spot, CONTRACT_MARGIN (initial margin plus open and close fees) on contracts. */
import { deny, pass } from '../denial.ts';
import { orderMarginNeed } from '../margin.ts';
import { addScaled, compareScaled, mulScaled, scaled } from '../../core/fixed.ts';
import { dec, scaledOf, show, showUp } from '../num.ts';
import { isQuoteAmount, valuePrice, type CheckContext } from '../terms.ts';
import type { CheckResult, PlaceContractIntent, PlaceIntent, PlaceSpotIntent } from '../types.ts';

function checkSpot(order: PlaceSpotIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { instrument: inst, snapshot, config } = ctx;
  const asset = order.side === 'BUY' ? inst.quoteAsset : inst.baseAsset;
  if (coversSpot(order, snapshot.spot[asset]?.free ?? '0', config.fees.spot)) return pass(order);
  const free = dec(snapshot.spot[asset]?.free ?? '0');
  const qty = dec(order.quantity);
  const values: Record<string, string> = { asset };
  let need = qty;
  if (order.side === 'BUY' && !isQuoteAmount(order)) {
    // A limit buy reserves price × qty and, to be safe whichever asset the venue takes it in, the fee on top in quote.
    const cost = dec(order.price ?? '0').mul(qty);
    const fee = cost.mul(dec(config.fees.spot));
    need = cost.add(fee);
    if (need.lte(free)) return pass(order);
    return deny('SPOT_BALANCE', { ...values, need: show(need), free: show(free), cost: show(cost), fee: show(fee) });
  }
  if (need.lte(free)) return pass(order);
  return deny('SPOT_BALANCE', { ...values, need: show(need), free: show(free) });
}

const ONE = scaled('1');

/** Returns true when `free` covers the order as checkSpot counts it, in scaled integers (the products are exact); false when it does not or a text is not plain (decimal.js then decides). */
function coversSpot(order: PlaceSpotIntent, freeText: string, feeRate: string): boolean {
  const free = scaledOf(freeText);
  const qty = scaledOf(order.quantity);
  if (free === undefined || qty === undefined) return false;
  if (order.side !== 'BUY' || isQuoteAmount(order)) return compareScaled(qty, free) <= 0;
  const price = scaledOf(order.price ?? '0');
  const fee = scaledOf(feeRate);
  if (price === undefined || fee === undefined) return false;
  return compareScaled(mulScaled(mulScaled(price, qty), addScaled(ONE, fee)), free) <= 0;
}

function checkContract(order: PlaceContractIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  // Closing releases margin; the close fee was reserved when the position was opened.
  if (order.side === 'BUY_CLOSE' || order.side === 'SELL_CLOSE') return pass(order);
  const { instrument: inst, snapshot, config } = ctx;
  const price = valuePrice(order, inst, snapshot);
  if (price === undefined) return deny('NO_PRICE', { symbol: order.symbol, need: 'last', for: 'CONTRACT_MARGIN' });
  const token = inst.marginToken ?? inst.quoteAsset;
  const available = dec(snapshot.contract[token]?.availableMargin ?? '0');
  const leverage = dec(order.leverage ?? '1');
  const m = orderMarginNeed(inst, dec(order.quantity), price, leverage, dec(config.fees.contract));
  if (m.total.lte(available)) return pass(order);
  const scale = inst.marginPrecision ?? 8;
  return deny('CONTRACT_MARGIN', {
    token,
    need: showUp(m.total, scale),
    available: show(available),
    margin: showUp(m.margin, scale),
    openFee: showUp(m.openFee, scale),
    closeFee: showUp(m.closeFee, scale),
    price: show(price),
    leverage: show(leverage),
  });
}

/** Returns the order when the account's free funds cover it: spot quote (price × qty + fee, or a market buy's amount) or base for a sell; contract margin plus open and close fees for an open. */
export function checkFunds(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  return order.kind === 'placeSpot' ? checkSpot(order, ctx) : checkContract(order, ctx);
}

