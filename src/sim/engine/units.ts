/** Fast exact conversion of venue decimal strings into integer ticks, lots and 10^18-scaled amounts for the matching hot path. */
import { formatScaled, fromUnits, parseScaled, scaleOf } from '../../core/fixed.ts';

/** Returned by `decimalUnits` when the text is not a plain decimal number. */
export const NOT_A_NUMBER = -1;
/** Returned by `decimalUnits` when the value is not a whole multiple of the unit (too many decimals). */
export const BAD_PRECISION = -2;
/** Returned by `decimalUnits` when the value is negative. */
export const NEGATIVE = -3;
/** Returned by `decimalUnits` when the value cannot be held exactly as a safe integer of units. */
export const TOO_LARGE = -4;

const POW10: number[] = [];
for (let i = 0, p = 1; i <= 15; i++, p *= 10) POW10.push(p);

/** A unit such as a tick "0.01" or a step "0.000001", prepared for fast conversions. */
export interface Unit {
  readonly text: string;
  /** Meaningful decimals of the unit. */
  readonly scale: number;
  /** The unit times 10^scale, a positive integer. */
  readonly int: number;
  /** The unit as an amount scaled by 10^18. */
  readonly amount: bigint;
}

/** Returns a prepared unit; throws when the unit is not positive or has more than 18 decimals. */
export function makeUnit(text: string): Unit {
  const scale = scaleOf(text, 'unit');
  if (scale > 18) throw new Error(`unit ${text} has more than 18 decimals`);
  const int = Number(parseScaled(text, scale, 'unit'));
  if (!(int > 0)) throw new Error(`unit ${text} must be positive`);
  return { text, scale, int, amount: parseScaled(text, 18, 'unit') };
}

/** Returns the unit whose size is the product of two units (a tick × a lot: the quote unit of one fill). */
export function productUnit(a: Unit, b: Unit): Unit {
  const v = parseScaled(a.text, a.scale, 'unit') * parseScaled(b.text, b.scale, 'unit');
  return makeUnit(formatScaled(v, a.scale + b.scale));
}

/**
 * Returns how many whole units make the decimal string `s` (≥ 0), or one of the negative sentinels
 * above. A hand-written scan (no regex, no BigInt) because it runs for every order's price and quantity;
 * values too long for a double fall back to the exact BigInt path.
 */
export function decimalUnits(s: string, u: Unit): number {
  let n = s.length;
  if (n === 0) return NOT_A_NUMBER;
  let i = 0;
  if (s.charCodeAt(0) === 43 /* + */) i = 1;
  else if (s.charCodeAt(0) === 45 /* - */) return isNumeric(s, 1) ? NEGATIVE : NOT_A_NUMBER;
  const dot = s.indexOf('.');
  // Trailing zeros of a fraction do not count toward precision.
  if (dot >= 0) while (n > dot + 1 && s.charCodeAt(n - 1) === 48) n--;
  let mant = 0;
  let digits = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      if (i !== dot) return NOT_A_NUMBER;
      continue;
    }
    if (c < 48 || c > 57) return NOT_A_NUMBER;
    digits++;
    mant = mant * 10 + (c - 48);
  }
  if (digits === 0 && !(dot >= 0 && n < s.length)) return NOT_A_NUMBER;
  const f = dot < 0 ? 0 : n - dot - 1;
  if (f > u.scale) return BAD_PRECISION;
  if (mant > 9007199254740991 || u.scale - f > 15) return slowUnits(s, u);
  const v = mant * POW10[u.scale - f]!;
  if (v > 9007199254740991) return slowUnits(s, u);
  if (v % u.int !== 0) return BAD_PRECISION;
  return small(v / u.int);
}

/**
 * Returns `n` (a whole number) as a small integer when it is one. Arithmetic on doubles (POW10 holds
 * values past 2^31, so its reads are doubles) yields boxed numbers even for 1; an order field that
 * once holds a boxed number becomes a double field, boxed in every order made after. Order fields
 * fed from here stay small integers, stored in the object itself.
 */
export function small(n: number): number {
  return (n | 0) === n ? n | 0 : n;
}

function isNumeric(s: string, from: number): boolean {
  let digits = 0;
  let dots = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) dots++;
    else if (c >= 48 && c <= 57) digits++;
    else return false;
  }
  return digits > 0 && dots <= 1;
}

function slowUnits(s: string, u: Unit): number {
  const v = parseScaled(s, u.scale, 'value');
  const ui = BigInt(u.int);
  if (v % ui !== 0n) return BAD_PRECISION;
  const q = v / ui;
  return q > 9007199254740991n ? TOO_LARGE : Number(q);
}

/** Returns the whole number of units nearest to the positive decimal string `s` (halves round up): a price carried into a coarser tick. */
export function nearestUnits(s: string, u: Unit): number {
  const exact = decimalUnits(s, u);
  if (exact >= 0) return exact;
  const scale = Math.max(u.scale, scaleOf(s, 'value'));
  const num = parseScaled(s, scale, 'value');
  const den = parseScaled(u.text, scale, 'unit');
  const q = (2n * num + den) / (2n * den);
  if (q > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${s} is too large for units of ${u.text}`);
  return Number(q);
}

/** Returns the decimal string of `units` whole units, trailing zeros stripped. */
export function unitsText(units: number, u: Unit): string {
  if (units === 0) return '0';
  const v = units * u.int;
  if (v <= 9007199254740991 && u.scale <= 15) return scaledNumberText(v, u.scale);
  return fromUnits(units, u.text);
}

/** Returns the decimal text of the safe integer `v` scaled by 10^scale. */
function scaledNumberText(v: number, scale: number): string {
  const neg = v < 0;
  let s = String(neg ? -v : v);
  if (scale > 0) {
    if (s.length <= scale) s = '0'.repeat(scale - s.length + 1) + s;
    let end = s.length;
    while (end > s.length - scale && s.charCodeAt(end - 1) === 48) end--;
    const int = s.slice(0, s.length - scale);
    const frac = s.slice(s.length - scale, end);
    s = frac ? `${int}.${frac}` : int;
  }
  return neg ? `-${s}` : s;
}

/** Returns the decimal text of an Amount scaled by 10^18, trailing zeros stripped (a faster fmtAmount for events). */
export function amountText(a: bigint): string {
  if (a === 0n) return '0';
  const neg = a < 0n;
  let s = (neg ? -a : a).toString();
  if (s.length <= 18) s = '0'.repeat(19 - s.length) + s;
  let end = s.length;
  const dot = s.length - 18;
  while (end > dot && s.charCodeAt(end - 1) === 48) end--;
  const body = end > dot ? `${s.slice(0, dot)}.${s.slice(dot, end)}` : s.slice(0, dot);
  return neg ? `-${body}` : body;
}
