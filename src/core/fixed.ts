/** Exact decimal arithmetic for venue numbers: strings on the wire, scaled integers in hot paths, decimal.js where division is needed. */
import { Decimal as DecimalLib } from 'decimal.js';
import { ParseError } from './errors.ts';

/** decimal.js with enough precision for any venue amount; rounding is always stated explicitly at the edges. */
export const Decimal = DecimalLib.clone({ precision: 60, toExpNeg: -40, toExpPos: 40 });
export type Decimal = DecimalLib;

const DECIMAL_RE = /^([+-]?)(\d+)(?:\.(\d*))?$|^([+-]?)\.(\d+)$/;

/** Returns true when `s` is a plain decimal string such as "12", "-0.5" or "3.10" (no exponent, no spaces). */
export function isDecimalString(s: string): boolean {
  return DECIMAL_RE.test(s);
}

function split(s: string, field: string): { neg: boolean; int: string; frac: string } {
  const m = DECIMAL_RE.exec(s);
  if (!m) throw new ParseError(field, `must be a decimal number, got ${JSON.stringify(s)}`);
  if (m[2] !== undefined) return { neg: m[1] === '-', int: m[2], frac: m[3] ?? '' };
  return { neg: m[4] === '-', int: '0', frac: m[5] ?? '' };
}

/** Returns the number of meaningful decimals of a step or tick such as "0.00100000" (3) or "1.0" (0). */
export function scaleOf(step: string, field = 'step'): number {
  return split(step, field).frac.replace(/0+$/, '').length;
}

/** Returns `s` as an integer scaled by 10^scale; throws ParseError when `s` has more meaningful decimals than `scale`. */
export function parseScaled(s: string, scale: number, field = 'value'): bigint {
  const { neg, int, frac } = split(s, field);
  const meaningful = frac.replace(/0+$/, '');
  if (meaningful.length > scale) throw new ParseError(field, `has more than ${scale} decimals: ${s}`);
  const digits = int + meaningful.padEnd(scale, '0');
  const v = BigInt(digits);
  return neg ? -v : v;
}

/** Returns the decimal string of `v / 10^scale` with trailing zeros stripped ("0" for zero). */
export function formatScaled(v: bigint, scale: number): string {
  const neg = v < 0n;
  const abs = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const int = abs.slice(0, abs.length - scale);
  const frac = abs.slice(abs.length - scale).replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return neg && body !== '0' ? `-${body}` : body;
}

/**
 * Returns how many whole `unit`s (a tick or step such as "0.01") make `s`, as a safe integer.
 * Throws ParseError when `s` is not a whole multiple of `unit` or is too large to hold exactly.
 */
export function toUnits(s: string, unit: string, field = 'value'): number {
  const scale = Math.max(scaleOf(unit, 'unit'), scaleOf(s, field));
  const v = parseScaled(s, scale, field);
  const u = parseScaled(unit, scale, 'unit');
  if (u <= 0n) throw new ParseError('unit', `must be positive, got ${unit}`);
  if (v % u !== 0n) throw new ParseError(field, `must be a multiple of ${unit}, got ${s}`);
  const n = v / u;
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ParseError(field, `is too large to hold exactly: ${s}`);
  }
  return Number(n);
}

/** Returns the decimal string of `n` units of `unit` (the inverse of toUnits). */
export function fromUnits(n: number | bigint, unit: string): string {
  const scale = scaleOf(unit, 'unit');
  return formatScaled(BigInt(n) * parseScaled(unit, scale, 'unit'), scale);
}

/** Returns the decimal string with trailing zeros stripped, as the venue usually sends it ("1.50" → "1.5"). */
export function normalizeDecimal(s: string, field = 'value'): string {
  const { frac } = split(s, field);
  const scale = frac.replace(/0+$/, '').length;
  return formatScaled(parseScaled(s, scale, field), scale);
}

/** Compares two decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(scaleOf(a, 'a'), scaleOf(b, 'b'));
  const x = parseScaled(a, scale, 'a');
  const y = parseScaled(b, scale, 'b');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Returns `d` rounded down (toward zero) to `scale` decimals, as a string without trailing zeros. */
export function formatDown(d: Decimal, scale: number): string {
  return normalizeDecimal(d.toDecimalPlaces(scale, Decimal.ROUND_DOWN).toFixed(scale));
}
