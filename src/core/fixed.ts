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
  const fast = smallUnits(s, unit);
  if (fast !== undefined) return fast;
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
  if (typeof n === 'number') {
    const fast = smallText(n, unit);
    if (fast !== undefined) return fast;
  }
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
  if (readSmall(a)) {
    const xm = small.mant;
    const xf = small.frac;
    if (readSmall(b)) {
      // Both exact below 2^53 once brought to the larger scale: compared as numbers.
      const f = Math.max(xf, small.frac);
      const x = xm * POW10[f - xf]!;
      const y = small.mant * POW10[f - small.frac]!;
      if (f - xf <= 15 && f - small.frac <= 15 && Number.isSafeInteger(x) && Number.isSafeInteger(y)) return x < y ? -1 : x > y ? 1 : 0;
    }
  }
  const scale = Math.max(scaleOf(a, 'a'), scaleOf(b, 'b'));
  const x = parseScaled(a, scale, 'a');
  const y = parseScaled(b, scale, 'b');
  return x < y ? -1 : x > y ? 1 : 0;
}

// Fast paths: a decimal with at most 15 significant digits is read into a signed number mantissa and
// its count of decimals, so the usual venue strings skip the regex and bigint; anything else (longer,
// malformed, off the grid) takes the exact bigint path, which also gives the errors.

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** The last decimal readSmall read: signed mantissa and decimals (trailing zeros dropped). Scratch, so reading allocates nothing. */
const small = { mant: 0, frac: 0 };

/** Reads `s` (optional sign, digits, optional "." and digits, at least one digit) into `small`; false when it is not such a string or has over 15 digits. */
function readSmall(s: string): boolean {
  const n0 = s.length;
  let i = 0;
  let neg = false;
  if (n0 === 0) return false;
  const c0 = s.charCodeAt(0);
  if (c0 === 45 /* - */ || c0 === 43 /* + */) {
    neg = c0 === 45;
    i = 1;
  }
  let n = n0;
  const dot = s.indexOf('.', i);
  if (dot >= 0) while (n > dot + 1 && s.charCodeAt(n - 1) === 48) n--;
  let mant = 0;
  let digits = 0;
  let sig = 0;
  for (let k = i; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c === 46 /* . */) {
      if (k !== dot) return false;
      continue;
    }
    if (c < 48 || c > 57) return false;
    digits++;
    if (sig > 0 || c !== 48) sig++;
    mant = mant * 10 + (c - 48);
  }
  // The zeros stripped after the dot were digits too ("1.0", "0.").
  if (digits === 0 && !(dot >= 0 && n0 > dot + 1)) return false;
  if (sig > 15) return false;
  small.mant = neg ? -mant : mant;
  small.frac = dot < 0 ? 0 : n - dot - 1;
  return true;
}

/** toUnits for short decimals on the grid: the count of units, or undefined to take the exact path. */
function smallUnits(s: string, unit: string): number | undefined {
  if (!readSmall(unit) || small.mant <= 0) return undefined;
  const um = small.mant;
  const uf = small.frac;
  if (!readSmall(s)) return undefined;
  const f = Math.max(uf, small.frac);
  if (f - uf > 15 || f - small.frac > 15) return undefined;
  const v = small.mant * POW10[f - small.frac]!;
  const u = um * POW10[f - uf]!;
  if (!Number.isSafeInteger(v) || !Number.isSafeInteger(u) || v % u !== 0) return undefined;
  return v / u + 0;
}

/** fromUnits for a safe count whose value stays below 2^53 in the unit's decimals, or undefined to take the exact path. */
function smallText(n: number, unit: string): string | undefined {
  if (!Number.isSafeInteger(n) || !readSmall(unit) || small.mant <= 0) return undefined;
  const v = n * small.mant;
  if (!Number.isSafeInteger(v)) return undefined;
  const scale = small.frac;
  const abs = String(Math.abs(v)).padStart(scale + 1, '0');
  const int = abs.slice(0, abs.length - scale);
  let end = abs.length;
  while (end > abs.length - scale && abs.charCodeAt(end - 1) === 48) end--;
  const body = end > abs.length - scale ? `${int}.${abs.slice(abs.length - scale, end)}` : int;
  return v < 0 ? `-${body}` : body;
}

/** Returns `d` rounded down (toward zero) to `scale` decimals, as a string without trailing zeros. */
export function formatDown(d: Decimal, scale: number): string {
  return normalizeDecimal(d.toDecimalPlaces(scale, Decimal.ROUND_DOWN).toFixed(scale));
}
