/** Decoded int64 columns turned into numbers without a bigint per value: exact integers below 2^53, and ns times as exact µs plus the ns left over. */
import { microsOf, subMicroOf } from './ns.ts';

/** Returns the 32-bit halves of an int64 column (little-endian pairs), copying only when it did not decode to a BigInt64Array. */
function halves(col: ArrayLike<unknown>): Int32Array {
  if (col instanceof BigInt64Array) return new Int32Array(col.buffer, col.byteOffset, col.length * 2);
  const copy = new BigInt64Array(col.length);
  for (let i = 0; i < col.length; i++) copy[i] = BigInt(col[i] as bigint | number);
  return new Int32Array(copy.buffer);
}

/** Returns an int64 column as numbers; values beyond ±2^53 become NaN (the caller reads those few as bigints). */
export function int64Numbers(col: ArrayLike<unknown>): Float64Array {
  const h = halves(col);
  const n = col.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = h[2 * i]! >>> 0;
    const hi = h[2 * i + 1]!;
    out[i] = hi >= -0x200000 && hi < 0x200000 ? hi * 4294967296 + lo : NaN;
  }
  return out;
}

/** Returns a non-negative ns column as whole µs (exact) and the ns within each µs. */
export function nsMicros(col: ArrayLike<unknown>): { us: Float64Array; sub: Uint16Array } {
  const h = halves(col);
  const n = col.length;
  const us = new Float64Array(n);
  const sub = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const lo = h[2 * i]! >>> 0;
    const hi = h[2 * i + 1]!;
    us[i] = microsOf(hi, lo);
    sub[i] = subMicroOf(hi, lo);
  }
  return { us, sub };
}

/** Returns a non-negative ns column as whole ms (exact). */
export function nsMillis(col: ArrayLike<unknown>): Float64Array {
  const { us } = nsMicros(col);
  for (let i = 0; i < us.length; i++) us[i] = Math.floor(us[i]! / 1000);
  return us;
}

/** Returns an int32 column (decoded as an array of numbers or an Int32Array) as an Int32Array. */
export function int32s(col: ArrayLike<unknown>): Int32Array {
  if (col instanceof Int32Array) return col;
  const out = new Int32Array(col.length);
  for (let i = 0; i < col.length; i++) out[i] = col[i] as number;
  return out;
}

/** Returns a string column as strings. */
export function strings(col: ArrayLike<unknown>): readonly string[] {
  return Array.from(col as ArrayLike<string>);
}
