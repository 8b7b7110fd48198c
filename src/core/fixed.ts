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

/** "0.", "0.0", "0.00"...: the start of a value below one, by the zeros after the point. */
const ZERO_POINT = Array.from({ length: 40 }, (_, k) => `0.${'0'.repeat(k)}`);

/** Returns "0." and `zeros` zeros: the text before the first digit of a value below one (from a table, not built each time). */
export function zeroPoint(zeros: number): string {
  return ZERO_POINT[zeros] ?? `0.${'0'.repeat(zeros)}`;
}

/** Returns the decimal string of `v / 10^scale` with trailing zeros stripped ("0" for zero). */
export function formatScaled(v: bigint, scale: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString();
  if (scale === 0) return neg ? `-${digits}` : digits;
  let end = digits.length;
  let body: string;
  if (end > scale) {
    const point = end - scale;
    while (end > point && digits.charCodeAt(end - 1) === 48) end--;
    body = end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
  } else {
    // Below one: "0." and the zeros before the digits come from a table, not from padding the digits into a new string first.
    while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
    if (end === 0) return '0';
    const lead = scale - digits.length;
    body = zeroPoint(lead) + digits.slice(0, end);
  }
  return neg ? `-${body}` : body;
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

/** Where the digits of a decimal string lie, found by scan() without allocating: significant integer digits [i0, i1), fraction digits [f0, f1) without trailing zeros. */
interface Scan {
  neg: boolean;
  i0: number;
  i1: number;
  f0: number;
  f1: number;
}

const sa: Scan = { neg: false, i0: 0, i1: 0, f0: 0, f1: 0 };
const sb: Scan = { neg: false, i0: 0, i1: 0, f0: 0, f1: 0 };

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Scans `s` (the forms isDecimalString accepts) into `out`; throws ParseError naming `field` otherwise. */
function scan(s: string, field: string, out: Scan): void {
  const n = s.length;
  let i = 0;
  const c0 = s.charCodeAt(0);
  out.neg = c0 === 45; /* - */
  if (c0 === 45 || c0 === 43 /* + */) i = 1;
  const start = i;
  while (i < n && s.charCodeAt(i) === 48) i++;
  out.i0 = i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  out.i1 = i;
  let digits = i - start;
  out.f0 = out.f1 = i;
  if (i < n && s.charCodeAt(i) === 46 /* . */) {
    i++;
    out.f0 = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    digits += i - out.f0;
    let e = i;
    while (e > out.f0 && s.charCodeAt(e - 1) === 48) e--;
    out.f1 = e;
  }
  if (i !== n || digits === 0) throw new ParseError(field, `must be a decimal number, got ${JSON.stringify(s)}`);
  if (out.i0 === out.i1 && out.f0 === out.f1) out.neg = false;
}

/** Compares the magnitudes of the scanned strings `a` and `b`. */
function compareMagnitude(a: string, x: Scan, b: string, y: Scan): -1 | 0 | 1 {
  const li = x.i1 - x.i0;
  const lj = y.i1 - y.i0;
  if (li !== lj) return li < lj ? -1 : 1;
  for (let k = 0; k < li; k++) {
    const d = a.charCodeAt(x.i0 + k) - b.charCodeAt(y.i0 + k);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  const fa = x.f1 - x.f0;
  const fb = y.f1 - y.f0;
  const m = fa > fb ? fa : fb;
  for (let k = 0; k < m; k++) {
    const ca = k < fa ? a.charCodeAt(x.f0 + k) : 48;
    const cb = k < fb ? b.charCodeAt(y.f0 + k) : 48;
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
  return 0;
}

/** Compares two decimal strings exactly: -1, 0 or 1 (by scanning their digits: no allocation, it runs on every report). */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  scan(a, 'a', sa);
  scan(b, 'b', sb);
  if (sa.neg !== sb.neg) return sa.neg ? -1 : 1;
  const m = compareMagnitude(a, sa, b, sb);
  return sa.neg && m !== 0 ? (-m as -1 | 1) : m;
}

// Fast paths: a decimal with at most 15 significant digits is read into a signed number mantissa and
// its count of decimals, so the usual venue strings skip the regex and bigint; anything else (longer,
// malformed, off the grid) takes the exact bigint path, which also gives the errors.

const POW10_NUM = Array.from({ length: 16 }, (_, i) => 10 ** i);

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
  const v = small.mant * POW10_NUM[f - small.frac]!;
  const u = um * POW10_NUM[f - uf]!;
  if (!Number.isSafeInteger(v) || !Number.isSafeInteger(u) || v % u !== 0) return undefined;
  return v / u + 0;
}

/** fromUnits for a safe count whose value stays below 2^53 in the unit's decimals, or undefined to take the exact path. */
function smallText(n: number, unit: string): string | undefined {
  if (!Number.isSafeInteger(n) || !readSmall(unit) || small.mant <= 0) return undefined;
  const v = n * small.mant;
  if (!Number.isSafeInteger(v)) return undefined;
  return safeText(v, small.frac);
}

/** divideDecimal for short decimals whose quotient ends within 15 decimals of safe integers, or undefined to take the exact path. */
function smallQuotient(a: string, b: string): string | undefined {
  if (!readSmall(b) || small.mant === 0) return undefined;
  const bm = small.mant;
  const bf = small.frac;
  if (!readSmall(a)) return undefined;
  const am = small.mant;
  const af = small.frac;
  // a / b = am × 10^(bf + k) / bm, over 10^(af + k): the first k that divides exactly gives the quotient's digits.
  for (let e = bf; e <= 15; e++) {
    const num = am * POW10_NUM[e]!;
    if (!Number.isSafeInteger(num)) return undefined;
    if (num % bm === 0) return safeText(num / bm, af + e - bf);
  }
  return undefined;
}

/** Returns the decimal string of the safe integer `v` over 10^scale, without trailing zeros. */
function safeText(v: number, scale: number): string {
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

/** An exact decimal held as a scaled integer, `units / 10^scale`: what hot paths add, subtract, multiply and compare instead of decimal.js. */
export interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

export const SCALED_ZERO: Scaled = { units: 0n, scale: 0 };

const POW10: bigint[] = [1n];

function pow10(n: number): bigint {
  for (let i = POW10.length; i <= n; i++) POW10.push(POW10[i - 1]! * 10n);
  return POW10[n]!;
}

/** Returns the decimal string `s` as a Scaled at its own number of meaningful decimals; throws ParseError naming `field` when it is not a decimal. */
export function scaled(s: string, field = 'value'): Scaled {
  scan(s, field, sa);
  const { i0, i1, f0, f1 } = sa;
  let units: bigint;
  if (i1 - i0 + f1 - f0 <= 15) {
    // Up to 15 digits are exact in a double: no digit string to build.
    let n = 0;
    for (let k = i0; k < i1; k++) n = n * 10 + s.charCodeAt(k) - 48;
    for (let k = f0; k < f1; k++) n = n * 10 + s.charCodeAt(k) - 48;
    units = BigInt(n);
  } else {
    units = BigInt(s.slice(i0, i1) + s.slice(f0, f1));
  }
  return { units: sa.neg ? -units : units, scale: f1 - f0 };
}

/** Returns a decimal text written in any way decimal.js reads (an exponent too) as a Scaled: a plain one directly, another through decimal.js's plain text. */
export function scaledOfAny(text: string, field = 'value'): Scaled {
  return scaled(isDecimalString(text) ? text : new Decimal(text).toFixed(), field);
}

/** Returns `a` with its units expressed at `scale` (not below its own). */
function at(a: Scaled, scale: number): bigint {
  return scale === a.scale ? a.units : a.units * pow10(scale - a.scale);
}

/** Returns a + b exactly. */
export function addScaled(a: Scaled, b: Scaled): Scaled {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  return { units: at(a, scale) + at(b, scale), scale };
}

/** Returns a − b exactly. */
export function subScaled(a: Scaled, b: Scaled): Scaled {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  return { units: at(a, scale) - at(b, scale), scale };
}

/** Returns −a. */
export function negScaled(a: Scaled): Scaled {
  return { units: -a.units, scale: a.scale };
}

/** Returns a × b exactly. */
export function mulScaled(a: Scaled, b: Scaled): Scaled {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Compares a and b exactly: -1, 0 or 1. */
export function compareScaled(a: Scaled, b: Scaled): -1 | 0 | 1 {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  const x = at(a, scale);
  const y = at(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Returns true when `a` is a whole multiple of `unit` (a non-zero unit). */
export function isMultipleScaled(a: Scaled, unit: Scaled): boolean {
  const scale = a.scale > unit.scale ? a.scale : unit.scale;
  return at(a, scale) % at(unit, scale) === 0n;
}

/** Returns the smaller of a and b. */
export function minScaled(a: Scaled, b: Scaled): Scaled {
  return compareScaled(a, b) <= 0 ? a : b;
}

/** Returns the larger of a and b. */
export function maxScaled(a: Scaled, b: Scaled): Scaled {
  return compareScaled(a, b) >= 0 ? a : b;
}

/** Returns the decimal string of `a` without trailing zeros ("0" for zero). */
export function scaledText(a: Scaled): string {
  return formatScaled(a.units, a.scale);
}

const SAFE_UNITS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Returns the decimal string of `text + delta` without trailing zeros, as scaledText(addScaled(scaled(text), delta))
 * gives it: in safe integers when both fit (a balance moved by a fill, on every fill), else in bigints; throws
 * ParseError naming `field` when `text` is not a decimal.
 */
export function addToText(text: string, delta: Scaled, field = 'value'): string {
  if (delta.units <= SAFE_UNITS && delta.units >= -SAFE_UNITS && readSmall(text)) {
    const scale = small.frac > delta.scale ? small.frac : delta.scale;
    if (scale <= 15) {
      const a = small.mant * POW10_NUM[scale - small.frac]!;
      const b = Number(delta.units) * POW10_NUM[scale - delta.scale]!;
      const sum = a + b;
      if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && Number.isSafeInteger(sum)) return safeText(sum, scale);
    }
  }
  return scaledText(addScaled(scaled(text, field), delta));
}

/** Returns `a` as a decimal.js value, for the divisions hot paths leave to the edges. */
export function scaledDecimal(a: Scaled): Decimal {
  return new Decimal(scaledText(a));
}

/** Units below this have no more significant digits than decimal.js keeps, whatever their trailing zeros. */
const DECIMAL_DIGITS_BOUND = 10n ** BigInt(Decimal.precision);

/**
 * Returns `a` rounded half away from zero to decimal.js's significant digits, at the same scale: what
 * decimal.js's arithmetic gives where scaled integers stand in for it (it rounds every result; most need no rounding).
 */
export function roundToDecimal(a: Scaled): Scaled {
  const abs = a.units < 0n ? -a.units : a.units;
  if (abs < DECIMAL_DIGITS_BOUND) return a;
  const unit = pow10(abs.toString().length - Decimal.precision);
  let q = abs / unit;
  if (2n * (abs - q * unit) >= unit) q += 1n;
  const units = q * unit;
  return units === abs ? a : { units: a.units < 0n ? -units : units, scale: a.scale };
}

/**
 * A running sum that comes out exactly as adding with decimal.js (`sum = sum.plus(x)`) does, for sums
 * added on every fill, in scaled integers: each sum is rounded as decimal.js rounds it (to its
 * significant digits, half away from zero), which leaves most sums as they are.
 */
export class DecimalSum {
  private sum: Scaled = SCALED_ZERO;

  /** Adds `x`. */
  add(x: Scaled): void {
    this.sum = roundToDecimal(addScaled(this.sum, x));
  }

  /** Adds a decimal text (written in any way decimal.js reads). */
  addText(text: string, field = 'value'): void {
    this.add(scaledOfAny(text, field));
  }

  /** Returns the sum as a decimal.js value. */
  value(): Decimal {
    return scaledDecimal(this.sum);
  }

  /** Returns the sum's text, as decimal.js's toFixed() writes it. */
  text(): string {
    return scaledText(this.sum);
  }
}

/** Decimals tried for an exact quotient before divideDecimal hands the division to decimal.js. */
const EXACT_QUOTIENT_DECIMALS = 20;

/**
 * Returns a / b as decimal.js at 60 digits gives it (`new Decimal(a).div(b).toFixed()`), without
 * decimal.js when the quotient ends within 20 more decimals (an average price usually does).
 */
export function divideDecimal(a: string, b: string): string {
  const fast = smallQuotient(a, b);
  if (fast !== undefined) return fast;
  const x = scaled(a, 'a');
  const y = scaled(b, 'b');
  if (y.units === 0n) throw new RangeError('division by zero');
  const num = x.units * pow10(EXACT_QUOTIENT_DECIMALS + y.scale);
  const den = y.units;
  const q = num / den;
  const scale = x.scale + EXACT_QUOTIENT_DECIMALS;
  // The exact quotient, when it fits in the significant digits decimal.js keeps; else rounded to them as decimal.js rounds.
  if (q * den === num && (q < 0n ? -q : q) < DECIMAL_DIGITS_BOUND) return formatScaled(q, scale);
  return roundedQuotient(x, y);
}

/**
 * Returns x / y (y ≠ 0) rounded half away from zero to decimal.js's significant digits, written as
 * `new Decimal(x).div(y).toFixed()` writes it, in integers: an average price that does not end (a fill
 * on top of a position) needs it on every fill.
 */
function roundedQuotient(x: Scaled, y: Scaled): string {
  // x / y = n / d.
  let n = x.units * pow10(y.scale);
  let d = y.units * pow10(x.scale);
  const neg = n < 0n !== d < 0n;
  if (n < 0n) n = -n;
  if (d < 0n) d = -d;
  if (n === 0n) return '0';
  // e: the power of ten of the quotient's first digit, 10^e ≤ n / d < 10^(e + 1).
  let e = n.toString().length - d.toString().length;
  if (e >= 0 ? n < d * pow10(e) : n * pow10(-e) < d) e -= 1;
  // Decimals that keep Decimal.precision significant digits (fewer than none: whole tens dropped).
  const keep = Decimal.precision - 1 - e;
  const num = keep >= 0 ? n * pow10(keep) : n;
  const den = keep >= 0 ? d : d * pow10(-keep);
  let q = num / den;
  if (2n * (num - q * den) >= den) q += 1n;
  if (neg) q = -q;
  return keep >= 0 ? formatScaled(q, keep) : (q * pow10(-keep)).toString();
}

/** Returns a / b rounded half away from zero to `decimals` (decimal.js ROUND_HALF_UP), without trailing zeros: the exact average an order view shows. */
export function divideRounded(a: Scaled, b: Scaled, decimals: number): string {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b × 10^decimals = a.units × 10^(decimals + b.scale) / (b.units × 10^a.scale).
  let num = a.units * pow10(decimals + b.scale);
  let den = b.units * pow10(a.scale);
  const neg = (num < 0n) !== (den < 0n);
  if (num < 0n) num = -num;
  if (den < 0n) den = -den;
  let q = num / den;
  if (2n * (num - q * den) >= den) q += 1n;
  return formatScaled(neg ? -q : q, decimals);
}
