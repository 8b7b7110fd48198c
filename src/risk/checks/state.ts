/** Checks on the trader's standing rather than the order's numbers: TRADING_STATE, DAILY_LOSS and ORDER_RATE. */
import { deny, pass } from '../denial.ts';
import { dec, show } from '../num.ts';
import { assertNever, isReducing, strategyLimits, type CheckContext } from '../terms.ts';
import type { CheckResult, OrderIntent, PlaceIntent } from '../types.ts';

function sideOf(intent: OrderIntent): Record<string, string> {
  switch (intent.kind) {
    case 'placeSpot':
    case 'placeContract':
    case 'closePosition':
      return { side: intent.side };
    case 'replace':
      return { side: intent.order.side };
    case 'cancel':
    case 'cancelAll':
      return {};
    default:
      return assertNever(intent);
  }
}

// True when the intent can only shrink exposure in the snapshot: cancels, closes, contract closes, spot sells of base held.
function reduces(intent: OrderIntent, ctx: CheckContext): boolean {
  switch (intent.kind) {
    case 'cancel':
    case 'cancelAll':
    case 'closePosition':
      return true;
    case 'placeSpot':
    case 'placeContract':
      return isReducing(intent, ctx.instrument, ctx.snapshot);
    case 'replace':
      return isReducing(intent.order, ctx.instrument, ctx.snapshot);
    default:
      return assertNever(intent);
  }
}

/** Returns the intent when the trading state lets it through (active: all; reducing: reducing orders, closes, cancels; halted: cancels), else TRADING_STATE. */
export function checkTradingState(intent: OrderIntent, ctx: CheckContext): CheckResult<OrderIntent> {
  if (intent.kind === 'cancel' || intent.kind === 'cancelAll') return pass(intent);
  switch (ctx.tradingState) {
    case 'active':
      return pass(intent);
    case 'reducing':
      if (reduces(intent, ctx)) return pass(intent);
      return deny('TRADING_STATE', { state: ctx.tradingState, kind: intent.kind, ...sideOf(intent), symbol: intent.symbol });
    case 'halted':
      return deny('TRADING_STATE', { state: ctx.tradingState, kind: intent.kind, ...sideOf(intent), symbol: intent.symbol });
    default:
      return assertNever(ctx.tradingState);
  }
}

/** Returns the order unless it adds risk while the strategy's PnL today is below −dailyLossLimit (DAILY_LOSS); reducing orders always pass. */
export function checkDailyLoss(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { dailyLossLimit } = strategyLimits(ctx.config, order.strategyId);
  if (dailyLossLimit === undefined || isReducing(order, ctx.instrument, ctx.snapshot)) return pass(order);
  const pnl = dec(ctx.snapshot.pnlToday[order.strategyId] ?? '0');
  const limit = dec(dailyLossLimit);
  if (pnl.gte(limit.neg())) return pass(order);
  return deny('DAILY_LOSS', { strategy: order.strategyId, pnl: show(pnl), limit: show(limit) });
}

const WINDOWS = [
  { key: 'perSecond', ms: 1_000, label: '1s' },
  { key: 'perMinute', ms: 60_000, label: '1m' },
] as const;

/** Returns the order when the strategy's accepted orders in the last second and minute (snapshot clock) leave room for it, else ORDER_RATE. */
export function checkOrderRate(order: PlaceIntent, ctx: CheckContext): CheckResult<PlaceIntent> {
  const { orderRate } = strategyLimits(ctx.config, order.strategyId);
  if (orderRate === undefined) return pass(order);
  for (const w of WINDOWS) {
    const limit = orderRate[w.key];
    if (limit === undefined) continue;
    const count = ctx.window.count(order.strategyId, ctx.snapshot.now, w.ms);
    if (count >= limit) return deny('ORDER_RATE', { strategy: order.strategyId, count: String(count), limit: String(limit), window: w.label });
  }
  return pass(order);
}
