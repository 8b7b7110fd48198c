/** Decoded int64 columns turned into numbers without a bigint per value (exact integers below 2^53, ns times as exact µs plus the ns left over), and a row group's columns read that way. */
import { microsOf, subMicroOf } from './ns.ts';
import { intInt32s, intMicros, intNumbers, type IntColumn } from './pages.ts';
import type { TableFileReader } from './parquet.ts';
import { COLUMNS } from './tables.ts';

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

/**
 * One row group's columns as the replay reads them. `numbers` holds NaN where an int64 passed 2^53;
 * `raw` gives such a value exactly (as a bigint, or whatever the column decoded to).
 */
export interface ColumnSet {
  micros(name: string): { us: Float64Array; sub: Uint16Array };
  millis(name: string): Float64Array;
  numbers(name: string): Float64Array;
  int32s(name: string): Int32Array;
  strings(name: string): readonly string[];
  raw(name: string): ArrayLike<unknown>;
}

/**
 * Reads `names` of row group `g`: straight from the pages into numbers when every column is an integer
 * in the encodings our writer emits (pages.ts), else through hyparquet.
 */
export async function readColumns(r: TableFileReader, g: number, names: readonly string[]): Promise<ColumnSet> {
  const fast = names.every((n) => COLUMN_TYPES.get(n) !== 'STRING') ? await r.readIntGroup(g, names) : undefined;
  if (fast) {
    const exact = new Map<string, bigint[]>();
    const col = (name: string): IntColumn => {
      const c = fast.get(name);
      if (!c) throw new Error(`column ${name} was not read`);
      return c;
    };
    return {
      micros: (name) => intMicros(col(name)),
      millis: (name) => {
        const { us } = intMicros(col(name));
        for (let i = 0; i < us.length; i++) us[i] = Math.floor(us[i]! / 1000);
        return us;
      },
      numbers: (name) => intNumbers(col(name)) ?? nanBeyond(col(name)),
      int32s: (name) => intInt32s(col(name)),
      strings: (name) => {
        throw new Error(`column ${name} is not a string column`);
      },
      raw: (name) => {
        let r = exact.get(name);
        if (!r) {
          const c = col(name);
          exact.set(name, (r = Array.from(c.off, (o) => c.first + BigInt(o))));
        }
        return r;
      },
    };
  }
  const cols = await r.readGroup(g, names);
  const get = (name: string): ArrayLike<unknown> => {
    const c = cols[name];
    if (!c) throw new Error(`column ${name} was not read`);
    return c;
  };
  return {
    micros: (name) => nsMicros(get(name)),
    millis: (name) => nsMillis(get(name)),
    numbers: (name) => int64Numbers(get(name)),
    int32s: (name) => int32s(get(name)),
    strings: (name) => strings(get(name)),
    raw: get,
  };
}

/** Returns the values of a column as numbers, NaN where one passes 2^53. */
function nanBeyond(c: IntColumn): Float64Array {
  const out = new Float64Array(c.off.length);
  const limit = BigInt(Number.MAX_SAFE_INTEGER);
  for (let i = 0; i < out.length; i++) {
    const v = c.first + BigInt(c.off[i]!);
    out[i] = v > limit || v < -limit ? NaN : Number(v);
  }
  return out;
}

/** The type of every column name (a name has one type in every table). */
const COLUMN_TYPES = new Map(Object.values(COLUMNS).flatMap((cols) => cols.map((c) => [c.name, c.type] as const)));
