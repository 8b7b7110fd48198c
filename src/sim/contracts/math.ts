/**
 * Contract arithmetic of venue-notes.md §6 as pure functions over Amounts: value, PnL, margin,
 * margin rate, forced-liquidation price, risk tiers, order margin and fees, for inverse and linear
 * contracts. Every division names its rounding: what the venue pays a trader rounds toward −∞,
 * what it charges or locks rounds toward +∞.
 */
import { divRound, fmtAmount, mulAmount, ONE, roundToStep, type Amount, type Rounding } from '../ledger/amount.ts';
import { invalidParam } from '../ledger/errors.ts';
import type { ContractSpec, RiskLimit } from './spec.ts';

/** Position direction. */
export type PositionSide = 'LONG' | 'SHORT';

/** Decimals of marginRate on the wire: the published sample shows 0.1449… as "0.14". */
export const MARGIN_RATE_DECIMALS = 2;

const ONE2 = ONE * ONE;

/**
 * Returns the value of `qty` contracts at `price` in the margin token: inverse qty × multiplier / price,
 * linear qty × multiplier × price; rounded as asked (default floor).
 */
export function positionValue(spec: ContractSpec, qty: Amount, price: Amount, rounding: Rounding = 'floor'): Amount {
  if (price <= 0n) throw invalidParam('price', 'must be positive', { price: price.toString() });
  const qm = qty * spec.multiplier; // scale 36
  return spec.inverse ? divRound(qm, price, rounding) : divRound(qm * price, ONE2, rounding);
}

/**
 * Returns the PnL of `qty` contracts opened at `avgPrice` and valued at `price`, in the margin
 * token: inverse long qty × m × (1/avg − 1/price), linear long qty × m × (price − avg); shorts the
 * negative. Rounded as asked (default floor: never more than the exact gain, never less than the exact loss).
 */
export function pnl(spec: ContractSpec, side: PositionSide, qty: Amount, avgPrice: Amount, price: Amount, rounding: Rounding = 'floor'): Amount {
  const sign = side === 'LONG' ? 1n : -1n;
  const qm = qty * spec.multiplier; // scale 36
  if (spec.inverse) {
    // qm × (price − avg) / (avg × price): scale 36 + 18 − 36 = 18, one rounding.
    return divRound(sign * qm * (price - avgPrice), avgPrice * price, rounding);
  }
  return divRound(sign * qm * (price - avgPrice), ONE2, rounding);
}

/** Returns (margin + unrealizedPnL) / positionValue, truncated (format with MARGIN_RATE_DECIMALS for the wire). */
export function marginRate(margin: Amount, unrealizedPnl: Amount, value: Amount): Amount {
  if (value <= 0n) return 0n;
  return divRound((margin + unrealizedPnl) * ONE, value, 'trunc');
}

/** Returns the risk-limit tier of a position of `qty` contracts: the first whose quantity is not below it, else the last. */
export function riskTier(spec: ContractSpec, qty: Amount): RiskLimit {
  for (const t of spec.riskLimits) if (qty <= t.quantity) return t;
  return spec.riskLimits[spec.riskLimits.length - 1]!;
}

/** Returns the largest leverage a tier allows: 1 / initialMargin, rounded down. */
export function maxLeverage(tier: RiskLimit): Amount {
  return divRound(ONE * ONE, tier.initialMargin, 'floor');
}

/** Throws -1130 for 'leverage' when it is not positive or above what the tier of `qty` contracts allows. */
export function checkLeverage(spec: ContractSpec, qty: Amount, leverage: Amount): void {
  const max = maxLeverage(riskTier(spec, qty));
  if (leverage <= 0n || leverage > max) {
    throw invalidParam('leverage', `must be above 0 and at most ${fmtAmount(max)} for ${fmtAmount(qty)} contracts`, { leverage: leverage.toString() });
  }
}

/**
 * Returns the forced-liquidation price: where position margin + unrealized PnL equals
 * maintMargin × position value. Inverse long qty×m×(1+mm) / (margin + qty×m/avg); inverse short
 * qty×m×(1−mm) / (qty×m/avg − margin); linear long (qty×m×avg − margin) / (qty×m×(1−mm)); linear
 * short (qty×m×avg + margin) / (qty×m×(1+mm)). Longs round down to the tick (as published: 7523.6546 → 7523.65),
 * shorts round up: both move the price away from the entry, in the trader's favour, by less than a tick.
 * Returns 0 for a long that cannot be liquidated (margin covers a fall to zero) and undefined for a
 * short that cannot be (inverse margin covering an unbounded rise).
 */
export function liquidationPrice(spec: ContractSpec, side: PositionSide, qty: Amount, avgPrice: Amount, margin: Amount, maintMargin: Amount): Amount | undefined {
  if (qty <= 0n) return undefined;
  const qm = qty * spec.multiplier; // scale 36
  let num: bigint;
  let den: bigint;
  if (spec.inverse) {
    // Both over scale 36 · 10^18: num = qm × (1 ± mm) [scale 54], den = margin × 10^18 ± qm × 10^18 / avg [scale 36 → ×10^18 for 54 − 36 = 18].
    const entryValue36 = (qm * ONE) / avgPrice; // qty×m/avg at scale 36 (exact enough: one more floor, far below a tick)
    num = qm * (side === 'LONG' ? ONE + maintMargin : ONE - maintMargin);
    den = side === 'LONG' ? margin * ONE + entryValue36 : entryValue36 - margin * ONE;
    if (den <= 0n) return side === 'LONG' ? 0n : undefined;
  } else {
    num = side === 'LONG' ? qm * avgPrice - margin * ONE2 : qm * avgPrice + margin * ONE2; // scale 54
    den = qm * (side === 'LONG' ? ONE - maintMargin : ONE + maintMargin); // scale 54 → result scale 0, so scale num by 10^18
    num *= ONE;
    if (num <= 0n) return 0n;
  }
  const exact = divRound(num, den, side === 'LONG' ? 'floor' : 'ceil');
  return roundToStep(exact, spec.tickSize, side === 'LONG' ? 'floor' : 'ceil');
}

/** Returns the fee on `qty` contracts at `price` at `rate`: position value × rate, rounded up. */
export function contractFee(spec: ContractSpec, qty: Amount, price: Amount, rate: Amount): Amount {
  return divRound(positionValue(spec, qty, price, 'ceil') * rate, ONE, 'ceil');
}

/** The margin an open order locks (its marginLocked) and its parts. */
export interface OrderMargin {
  /** Initial margin: value / leverage. */
  readonly margin: Amount;
  readonly openFee: Amount;
  readonly closeFee: Amount;
  /** margin + openFee + closeFee. */
  readonly total: Amount;
}

/**
 * Returns what an open order of `qty` contracts at `price` and `leverage` locks: initial margin
 * (value / leverage) plus the fee to open and the fee to close at `feeRate`, each rounded up so the
 * lock always covers them. (Published: 5 BTC-PERP-REV at 8200, leverage 12.08, no fee → 0.00005047.)
 */
export function orderMargin(spec: ContractSpec, qty: Amount, price: Amount, leverage: Amount, feeRate: Amount): OrderMargin {
  if (leverage <= 0n) throw invalidParam('leverage', 'must be positive', { leverage: leverage.toString() });
  const value = positionValue(spec, qty, price, 'ceil');
  const margin = divRound(value * ONE, leverage, 'ceil');
  const openFee = mulAmount(value, feeRate, 'ceil');
  const closeFee = openFee;
  return { margin, openFee, closeFee, total: margin + openFee + closeFee };
}

/** Returns the leverage of a position: value at `price` / margin, truncated (0 when there is no margin). */
export function positionLeverage(spec: ContractSpec, qty: Amount, price: Amount, margin: Amount): Amount {
  if (margin <= 0n) return 0n;
  return divRound(positionValue(spec, qty, price) * ONE, margin, 'trunc');
}

/** Returns the average entry price after adding `qty` at `price` to `position` at `avgPrice`: harmonic for inverse (so PnL stays linear in 1/price), arithmetic for linear; floor. */
export function averagePrice(spec: ContractSpec, position: Amount, avgPrice: Amount, qty: Amount, price: Amount): Amount {
  if (position <= 0n) return price;
  if (spec.inverse) return divRound((position + qty) * avgPrice * price, position * price + qty * avgPrice, 'floor');
  return divRound(position * avgPrice + qty * price, position + qty, 'floor');
}
