/**
 * Exact decimal helpers for the checks: compare and test texts as scaled integers (every order passes
 * through these, and most pass), parse venue strings into Decimal, round to a grid, and show numbers in denials.
 */
import { compareDecimal, compareScaled, Decimal, isDecimalString, isMultipleScaled, normalizeDecimal, scaled, type Scaled } from '../core/fixed.ts';

export { Decimal };

/** Returns the Decimal of a decimal string. */
export function dec(s: string): Decimal {
  return new Decimal(s);
}

/** Returns true when `s` is a plain decimal string above zero. */
export function isPositiveDecimal(s: string | undefined): s is string {
  return s !== undefined && isDecimalString(s) && compareDecimal(s, '0') > 0;
}

/** Returns true when `s` is set and above zero (a filter bound of 0 means no bound). */
export function isBound(s: string | undefined): s is string {
  return s !== undefined && cmp(s, '0') > 0;
}

/** Compares two decimal texts exactly: -1, 0 or 1 (plain ones without decimal.js). */
export function cmp(a: string, b: string): number {
  return isDecimalString(a) && isDecimalString(b) ? compareDecimal(a, b) : new Decimal(a).cmp(b);
}

/** Returns a plain decimal text as a scaled integer, or undefined for any other writing (the caller then takes decimal.js). */
export function scaledOf(s: string): Scaled | undefined {
  return isDecimalString(s) ? scaled(s) : undefined;
}

/** Returns true when the text `s` is a whole number of `step`s (a step of 0 or less: always). */
export function onStepText(s: string, step: string): boolean {
  const v = scaledOf(s);
  const u = scaledOf(step);
  if (v === undefined || u === undefined) return !dec(step).gt(0) || onStep(dec(s), dec(step));
  return compareScaled(u, ZERO) <= 0 || isMultipleScaled(v, u);
}

const ZERO: Scaled = { units: 0n, scale: 0 };

/** Returns `d` rounded to a whole number of `step`s, down (toward −∞) or up. */
export function toStep(d: Decimal, step: Decimal, dir: 'down' | 'up'): Decimal {
  return d.div(step).toDecimalPlaces(0, dir === 'down' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL).mul(step);
}

/** Returns true when `d` is a whole number of `step`s. */
export function onStep(d: Decimal, step: Decimal): boolean {
  return d.mod(step).isZero();
}

/** Returns the exact decimal string of `d` without trailing zeros (for values with finitely many decimals). */
export function show(d: Decimal): string {
  return normalizeDecimal(d.toFixed());
}

/** Returns `d` rounded up to `scale` decimals as a string: how amounts that are needed are shown. */
export function showUp(d: Decimal, scale: number): string {
  return show(d.toDecimalPlaces(scale, Decimal.ROUND_CEIL));
}

/** Returns `d` rounded down to `scale` decimals as a string: how amounts that are had are shown. */
export function showDown(d: Decimal, scale: number): string {
  return show(d.toDecimalPlaces(scale, Decimal.ROUND_FLOOR));
}

/** Returns the number of meaningful decimals of `d`, capped at `cap`. */
export function decimalsOf(s: string, cap = 18): number {
  return Math.min(cap, new Decimal(s).decimalPlaces());
}
