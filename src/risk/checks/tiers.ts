/** RISK_LIMIT_TIER: the position an opening contract order leads to must fit a risk-limit tier, and the order's leverage must be one that tier's initial margin allows. */
import type { RiskLimit } from '../../model/index.ts';
import { deny, pass } from '../denial.ts';
import { dec, show, showDown } from '../num.ts';
import { positionQty, positionSideOf, type CheckContext } from '../terms.ts';
import type { CheckResult, PlaceIntent } from '../types.ts';

/** Returns the tier a position of `qty` contracts falls in (the first whose quantity is not below it), or undefined beyond the highest. */
export function tierOf(tiers: readonly RiskLimit[], qty: string): RiskLimit | undefined {
  const q = dec(qty);
  const sorted = [...tiers].sort((a, b) => dec(a.quantity).comparedTo(dec(b.quantity)));
  return sorted.find((t) => q.lte(dec(t.quantity)));
}

/** Returns the order when the resulting position fits a tier whose 1 / initialMargin is at least the leverage, else RISK_LIMIT_TIER. */
export function checkRiskLimitTier(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  if (order.kind !== 'placeContract' || (order.side !== 'BUY_OPEN' && order.side !== 'SELL_OPEN')) return pass(order);
  const tiers = ctx.instrument.riskLimits;
  if (tiers.length === 0) return pass(order);
  const resulting = positionQty(ctx.snapshot, order.symbol, positionSideOf(order)).add(dec(order.quantity));
  const tier = tierOf(tiers, show(resulting));
  if (tier === undefined) {
    const top = tiers.reduce((a, b) => (dec(b.quantity).gt(dec(a.quantity)) ? b : a));
    return deny('RISK_LIMIT_TIER', { symbol: order.symbol, resulting: show(resulting), maxQty: show(dec(top.quantity)) });
  }
  const leverage = dec(order.leverage ?? '1');
  const im = dec(tier.initialMargin);
  // leverage × initialMargin > 1 is the exact form of leverage > 1 / initialMargin.
  if (leverage.mul(im).lte(1)) return pass(order);
  return deny('RISK_LIMIT_TIER', {
    symbol: order.symbol,
    resulting: show(resulting),
    tier: tier.riskLimitId,
    initialMargin: show(im),
    leverage: show(leverage),
    maxLeverage: showDown(dec('1').div(im), 8),
  });
}
