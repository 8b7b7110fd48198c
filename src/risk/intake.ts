/** The gate's first steps: find the instrument, refuse malformed intents (INVALID_INTENT) and symbols not trading, and turn a closePosition into the order it stands for. */
import {
  isContractOrderType,
  isContractSide,
  isContractTimeInForce,
  isPositionSide,
  isPriceType,
  isSpotNewOrderType,
  isSpotSide,
  isSpotTimeInForce,
  type Instrument,
} from '../model/index.ts';
import { deny, pass } from './denial.ts';
import { Decimal } from '../core/fixed.ts';
import { dec, isPositiveDecimal, show, toStep } from './num.ts';
import { lastPrice, positionQty } from './terms.ts';
import type { CheckResult, ClosePositionIntent, OrderIntent, PlaceContractIntent, PlaceIntent, PlaceSpotIntent, PortfolioSnapshot } from './types.ts';

type Problem = { field: string; rule: string; value?: unknown };

function invalid<T>(p: Problem): CheckResult<T> {
  const values: Record<string, string> = { field: p.field, rule: p.rule };
  if (p.value !== undefined) values['value'] = String(p.value);
  return deny('INVALID_INTENT', values);
}

// Only the plain form ("12", "0.5") is accepted: intents are sent as written, and "+1", ".5" or "3." are not wire decimals.
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** `required` says when the field is needed: a missing one is named as missing, not as a bad decimal. */
function positive(field: string, v: unknown, required = 'required'): Problem | undefined {
  if (v === undefined) return { field, rule: required };
  return typeof v === 'string' && PLAIN_DECIMAL.test(v) && isPositiveDecimal(v) ? undefined : { field, rule: 'must be a positive decimal string', value: v };
}

function nonEmpty(field: string, v: unknown): Problem | undefined {
  return typeof v === 'string' && v !== '' ? undefined : { field, rule: 'must be a non-empty string', value: v };
}

function spotProblem(o: PlaceSpotIntent, inst: Instrument): Problem | undefined {
  if (inst.kind !== 'spot') return { field: 'kind', rule: `placeSpot on a ${inst.kind} contract`, value: o.kind };
  if (!isSpotSide(o.side)) return { field: 'side', rule: 'must be BUY or SELL', value: o.side };
  if (!isSpotNewOrderType(o.type)) return { field: 'type', rule: 'must be LIMIT, MARKET or LIMIT_MAKER', value: o.type };
  if (o.timeInForce !== undefined && !isSpotTimeInForce(o.timeInForce)) return { field: 'timeInForce', rule: 'must be GTC, IOC or FOK', value: o.timeInForce };
  if (o.type !== 'MARKET') return positive('price', o.price, `required for a ${o.type} order`);
  return undefined;
}

function contractProblem(o: PlaceContractIntent, inst: Instrument): Problem | undefined {
  if (inst.kind === 'spot') return { field: 'kind', rule: 'placeContract on a spot symbol', value: o.kind };
  if (!isContractSide(o.side)) return { field: 'side', rule: 'must be BUY_OPEN, SELL_OPEN, BUY_CLOSE or SELL_CLOSE', value: o.side };
  if (!isContractOrderType(o.orderType)) return { field: 'orderType', rule: 'must be LIMIT or STOP', value: o.orderType };
  if (!isPriceType(o.priceType)) return { field: 'priceType', rule: 'must be INPUT, OPPONENT, QUEUE, OVER or MARKET', value: o.priceType };
  if (o.timeInForce !== undefined && !isContractTimeInForce(o.timeInForce)) return { field: 'timeInForce', rule: 'must be GTC, IOC, FOK or LIMIT_MAKER', value: o.timeInForce };
  if (o.priceType === 'INPUT') {
    const p = positive('price', o.price, 'required with priceType INPUT (give no price for MARKET)');
    if (p) return p;
  }
  if (o.orderType === 'STOP') {
    const p = positive('triggerPrice', o.triggerPrice, 'required for a STOP order');
    if (p) return p;
  }
  if (o.side === 'BUY_OPEN' || o.side === 'SELL_OPEN') return positive('leverage', o.leverage, `required to open (${o.side})`);
  return undefined;
}

function placeProblem(o: PlaceIntent, inst: Instrument): Problem | undefined {
  const basic = nonEmpty('clientOrderId', o.clientOrderId) ?? positive('quantity', o.quantity);
  if (basic) return basic;
  return o.kind === 'placeSpot' ? spotProblem(o, inst) : contractProblem(o, inst);
}

/** Returns the intent when it is well formed for `inst`, else INVALID_INTENT naming the field and the rule. */
export function checkWellFormed(intent: OrderIntent, inst: Instrument): CheckResult<OrderIntent> {
  const p = ((): Problem | undefined => {
    const common = nonEmpty('strategyId', intent.strategyId);
    if (common) return common;
    switch (intent.kind) {
      case 'placeSpot':
      case 'placeContract':
        return placeProblem(intent, inst);
      case 'replace':
        if (intent.order.symbol !== intent.symbol) return { field: 'order.symbol', rule: `must be the replaced order's symbol ${intent.symbol}`, value: intent.order.symbol };
        if (intent.order.strategyId !== intent.strategyId) return { field: 'order.strategyId', rule: `must be ${intent.strategyId}`, value: intent.order.strategyId };
        return nonEmpty('replaces', intent.replaces) ?? placeProblem(intent.order, inst);
      case 'closePosition':
        if (!isPositionSide(intent.side)) return { field: 'side', rule: 'must be LONG or SHORT', value: intent.side };
        if (inst.kind === 'spot' && intent.side !== 'LONG') return { field: 'side', rule: 'spot holdings close only as LONG', value: intent.side };
        return nonEmpty('clientOrderId', intent.clientOrderId)
          ?? (intent.quantity === undefined ? undefined : positive('quantity', intent.quantity))
          ?? (intent.price === undefined ? undefined : positive('price', intent.price));
      case 'cancel':
      case 'cancelAll':
        return undefined;
    }
  })();
  return p === undefined ? pass(intent) : invalid(p);
}

/** Returns the order unless the symbol is not TRADING (SYMBOL_STATUS). */
export function checkSymbolStatus(order: PlaceIntent, inst: Instrument): CheckResult<PlaceIntent> {
  return inst.status === 'TRADING' ? pass(order) : deny('SYMBOL_STATUS', { symbol: inst.symbol, status: inst.status });
}

/**
 * Returns the concrete order a closePosition stands for: spot, a LIMIT IOC SELL of `quantity` or of
 * what the strategy itself holds from its own fills (never more, never the account's other base),
 * rounded down to the step, at `price` or `closeDistancePct` below the last price (NO_PRICE without
 * one); contracts, a SELL_CLOSE (LONG) or BUY_CLOSE (SHORT) of `quantity` or of the side the strategy
 * holds from its own fills (never more, and never more than the account holds: another strategy's
 * contracts on that side stay open), LIMIT at `price` when given, else at market (IOC); the whole account's
 * side when the snapshot says nothing of the strategy's own. NO_POSITION when nothing is held.
 */
export function resolveClose(intent: ClosePositionIntent, inst: Instrument, snapshot: PortfolioSnapshot, closeDistancePct = '1'): CheckResult<PlaceIntent> {
  const { strategyId, symbol, clientOrderId, price } = intent;
  if (inst.kind === 'spot') {
    const held = dec(snapshot.held?.[strategyId]?.[symbol] ?? '0');
    const want = intent.quantity === undefined ? held : Decimal.min(dec(intent.quantity), held);
    const qty = toStep(want, dec(inst.stepSize), 'down');
    if (held.lte(0) || qty.lte(0)) return deny('NO_POSITION', { symbol, side: intent.side, held: show(held) });
    let limit = price;
    if (limit === undefined) {
      const last = lastPrice(snapshot, symbol);
      if (last === undefined) return deny('NO_PRICE', { symbol });
      limit = show(toStep(last.mul(dec('100').minus(closeDistancePct)).div(100), dec(inst.tickSize), 'up'));
    }
    return pass({ kind: 'placeSpot', strategyId, symbol, clientOrderId, side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', price: limit, quantity: show(qty) });
  }
  const account = positionQty(snapshot, symbol, intent.side);
  const own = snapshot.held?.[strategyId]?.[symbol];
  const held = own === undefined ? account : Decimal.min(dec(own), account);
  const qty = intent.quantity === undefined ? held : Decimal.min(dec(intent.quantity), held);
  if (held.lte(0) || qty.lte(0)) return deny('NO_POSITION', { symbol, side: intent.side, held: show(held) });
  const order: PlaceContractIntent = {
    kind: 'placeContract',
    strategyId,
    symbol,
    clientOrderId,
    side: intent.side === 'LONG' ? 'SELL_CLOSE' : 'BUY_CLOSE',
    orderType: 'LIMIT',
    priceType: price === undefined ? 'MARKET' : 'INPUT',
    quantity: show(qty),
    // At market, what the book cannot take now must not rest at the venue's band price (5% through the last), where the next buyer takes it.
    ...(price === undefined ? { timeInForce: 'IOC' as const } : { price }),
  };
  return pass(order);
}
