/** Money in the simulated venue: bigint amounts scaled by 10^18, with exact products and quotients whose rounding is always named. */
import { formatScaled, parseScaled, type Scaled } from '../../core/fixed.ts';

/** An amount of an asset, a price, a quantity or a rate, as an integer number of 10^-18 units. */
export type Amount = bigint;

/** Decimals carried by every Amount. */
export const AMOUNT_SCALE = 18;

/** 10^18: the Amount of 1. */
export const ONE: Amount = 10n ** 18n;

/** The Amount of 0. */
export const ZERO: Amount = 0n;

/**
 * Rounding direction of a product or quotient that does not fit in 18 decimals:
 * `floor` toward −∞, `ceil` toward +∞, `trunc` toward zero. Callers choose the direction that
 * never lets the venue hand out more than it holds (credits `floor`, charges and locks `ceil`).
 */
export type Rounding = 'floor' | 'ceil' | 'trunc';

const POW10: bigint[] = [];
for (let i = 0n; i <= 36n; i++) POW10.push(10n ** i);

/** Returns 10^n as a bigint (0 ≤ n ≤ 36). */
export function pow10(n: number): bigint {
  const p = POW10[n];
  if (p === undefined) throw new RangeError(`pow10: ${n} is out of range 0..36`);
  return p;
}

/** Returns `a` as a Scaled (exact, with no text made): how hot paths hand amounts to scaled-integer sums. */
export function ledgerAmount(a: Amount): Scaled {
  return { units: a, scale: AMOUNT_SCALE };
}

/** Returns the Amount of a decimal string such as "0.00608975"; throws ParseError naming `field` when it has more than 18 decimals. */
export function toAmount(s: string, field = 'amount'): Amount {
  return parseScaled(s, AMOUNT_SCALE, field);
}

/**
 * Returns the decimal text of `a`, cut to `precisionDecimals` (default 18) rounded down — toward
 * zero, so a displayed balance or PnL is never larger in size than the exact one — with trailing zeros stripped.
 */
export function fmtAmount(a: Amount, precisionDecimals = AMOUNT_SCALE): string {
  if (precisionDecimals >= AMOUNT_SCALE) return formatScaled(a, AMOUNT_SCALE);
  if (precisionDecimals < 0) throw new RangeError(`fmtAmount: precision ${precisionDecimals} < 0`);
  const cut = pow10(AMOUNT_SCALE - precisionDecimals);
  return formatScaled(a / cut, precisionDecimals);
}

/** Returns n / d rounded as asked (d ≠ 0; both plain bigints). */
export function divRound(n: bigint, d: bigint, rounding: Rounding): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  const q = n / d;
  const r = n % d;
  if (r === 0n || rounding === 'trunc') return q;
  const positive = (r > 0n) === (d > 0n);
  if (rounding === 'floor') return positive ? q : q - 1n;
  return positive ? q + 1n : q;
}

/** Returns a × b as an Amount, rounded as asked (exact when the two together carry at most 18 decimals). */
export function mulAmount(a: Amount, b: Amount, rounding: Rounding): Amount {
  return divRound(a * b, ONE, rounding);
}

/** Returns a / b as an Amount, rounded as asked; throws RangeError when b is zero. */
export function divAmount(a: Amount, b: Amount, rounding: Rounding): Amount {
  return divRound(a * ONE, b, rounding);
}

/** Returns a × b / c as an Amount with a single rounding at the end (no intermediate loss). */
export function mulDivAmount(a: Amount, b: Amount, c: Amount, rounding: Rounding): Amount {
  return divRound(a * b, c, rounding);
}

/** Returns `a` rounded to a whole multiple of `step` (an Amount > 0), as asked. */
export function roundToStep(a: Amount, step: Amount, rounding: Rounding): Amount {
  return divRound(a, step, rounding) * step;
}

/** Returns the smaller of two amounts. */
export function minAmount(a: Amount, b: Amount): Amount {
  return a < b ? a : b;
}

/** Returns the larger of two amounts. */
export function maxAmount(a: Amount, b: Amount): Amount {
  return a > b ? a : b;
}

/** Returns |a|. */
export function absAmount(a: Amount): Amount {
  return a < 0n ? -a : a;
}

/** Returns how many decimals a step such as 10^-8 (as an Amount) stands for; throws when the step is not a power of ten. */
export function decimalsOfStep(step: Amount): number {
  for (let d = 0; d <= AMOUNT_SCALE; d++) if (pow10(AMOUNT_SCALE - d) === step) return d;
  throw new RangeError(`step ${formatScaled(step, AMOUNT_SCALE)} is not a power of ten`);
}
