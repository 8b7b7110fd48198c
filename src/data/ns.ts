/** Nanosecond timestamps: bigint on disk and at the boundary, exact microseconds (a number) inside. */
import { ParseError } from '../core/errors.ts';

const NS_PER_MS = 1_000_000n;
const NS_PER_DAY = 86_400_000_000_000n;

/** Returns the ns of an epoch-ms time (a number or a decimal string, as JSON gives it). */
export function msToNs(ms: number | string | bigint): bigint {
  return BigInt(ms) * NS_PER_MS;
}

/** Returns a decimal text of non-negative integer ns as a bigint; throws ParseError naming `field` otherwise. */
export function parseNs(text: string, field = 'ns'): bigint {
  if (!/^\d{1,19}$/.test(text)) throw new ParseError(field, `must be an integer count of nanoseconds, got ${JSON.stringify(text.slice(0, 40))}`);
  return BigInt(text);
}

/** Returns the UTC day (YYYY-MM-DD) an ns time falls in. */
export function utcDay(ns: bigint): string {
  const dayStartMs = Number((ns / NS_PER_DAY) * 86_400_000n);
  return new Date(dayStartMs).toISOString().slice(0, 10);
}

/** Returns the ns at 00:00 UTC of a YYYY-MM-DD day. */
export function dayStartNs(day: string): bigint {
  return msToNs(Date.parse(`${day}T00:00:00Z`));
}

/** Returns the whole ms of an ns time (floored), exact below 2^53 ms. */
export function nsToMs(ns: bigint): number {
  return Number(ns / NS_PER_MS);
}

/** Returns the ISO-8601 text of an ns time, to the ms. */
export function nsToIso(ns: bigint): string {
  return new Date(nsToMs(ns)).toISOString();
}

// An int64 read as two 32-bit halves: v = hi·2^32 + lo, and 2^32 = 4 294 967·1000 + 296, so
// floor(v/1000) = hi·4 294 967 + floor((hi·296 + lo)/1000) with every term exact in a double.

/** Returns floor(v / 1000) of a non-negative int64 given as its 32-bit halves, exact for v below 2^62. */
export function microsOf(hi: number, lo: number): number {
  const rest = hi * 296 + lo;
  return hi * 4_294_967 + Math.floor(rest / 1000);
}

/** Returns v mod 1000 of a non-negative int64 given as its 32-bit halves. */
export function subMicroOf(hi: number, lo: number): number {
  return (hi * 296 + lo) % 1000;
}
