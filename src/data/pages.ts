/** Decodes the integer columns our own Parquet writer emits straight into numbers, with no bigint per value. */
// Handled: REQUIRED INT32/INT64 columns in DATA_PAGE_V2 pages, PLAIN or DELTA_BINARY_PACKED, snappy or
// uncompressed. Anything else (dictionary pages, strings, other writers' files) is left to hyparquet.
import { snappyUncompress, type ColumnChunk, type FileMetaData } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';

/**
 * One decoded int64 or int32 column: value[i] = first + off[i], exactly (offsets are exact doubles, so a
 * column of ns times spanning less than 104 days decodes without a bigint per value).
 */
export interface IntColumn {
  readonly first: bigint;
  readonly off: Float64Array;
}

const TWO_32 = 4294967296;
const MAX_EXACT = 2 ** 53;
/** Powers of two by exponent, for the bit reader's wide values. */
const POW2 = Array.from({ length: 64 }, (_, k) => 2 ** k);

/** A position in a byte array. */
interface Cursor {
  readonly b: Uint8Array;
  p: number;
}

/** Thrown inside the decoder when a page uses something it does not handle: the caller falls back. */
class Unsupported extends Error {}

/**
 * Returns the named columns of row group `g`, or undefined when one of them is not in a form this
 * decoder handles (the caller then reads the group with hyparquet). `read(start, end)` returns file bytes.
 */
export async function decodeIntGroup(
  meta: FileMetaData, g: number, names: readonly string[], read: (start: number, end: number) => Promise<ArrayBuffer>,
): Promise<Map<string, IntColumn> | undefined> {
  const group = meta.row_groups[g]!;
  const rows = Number(group.num_rows);
  const chunks: ColumnChunk[] = [];
  for (const name of names) {
    const c = group.columns.find((x) => x.meta_data?.path_in_schema.length === 1 && x.meta_data.path_in_schema[0] === name);
    const m = c?.meta_data;
    if (!c || !m || (m.type !== 'INT64' && m.type !== 'INT32') || m.dictionary_page_offset !== undefined) return undefined;
    if (m.codec !== 'SNAPPY' && m.codec !== 'UNCOMPRESSED') return undefined;
    if (m.encodings.some((e) => e !== 'PLAIN' && e !== 'DELTA_BINARY_PACKED' && e !== 'RLE' && e !== 'BIT_PACKED')) return undefined;
    chunks.push(c);
  }
  if (chunks.length === 0) return new Map();
  // The chunks of one group lie together: one read for all of them.
  let lo = Infinity;
  let hi = 0;
  for (const c of chunks) {
    const start = Number(c.meta_data!.data_page_offset);
    lo = Math.min(lo, start);
    hi = Math.max(hi, start + Number(c.meta_data!.total_compressed_size));
  }
  const bytes = new Uint8Array(await read(lo, hi));
  const out = new Map<string, IntColumn>();
  try {
    for (let k = 0; k < chunks.length; k++) {
      const m = chunks[k]!.meta_data!;
      const start = Number(m.data_page_offset) - lo;
      const col = decodeChunk(bytes.subarray(start, start + Number(m.total_compressed_size)), rows, m.type === 'INT64', m.codec === 'SNAPPY');
      out.set(names[k]!, col);
    }
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  return out;
}

let scratch = new Uint8Array(1 << 20);

/** Decodes the data pages of one column chunk. */
function decodeChunk(bytes: Uint8Array, rows: number, int64: boolean, snappy: boolean): IntColumn {
  const off = new Float64Array(rows);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = { view, offset: 0 };
  let origin: bigint | undefined;
  let n = 0;
  while (n < rows && reader.offset < bytes.length) {
    const h = parquetHeader(reader);
    const size = h.compressed_page_size;
    const body = bytes.subarray(reader.offset, reader.offset + size);
    reader.offset += size;
    const v2 = h.data_page_header_v2;
    if (h.type !== 'DATA_PAGE_V2' || !v2 || v2.num_nulls !== 0 || v2.definition_levels_byte_length !== 0 || v2.repetition_levels_byte_length !== 0) {
      throw new Unsupported(`page ${h.type}`);
    }
    let data = body;
    if (snappy && v2.is_compressed) {
      // The page's bytes are read before the next page is: one buffer serves every page.
      if (scratch.length < h.uncompressed_page_size) scratch = new Uint8Array(h.uncompressed_page_size);
      data = scratch.subarray(0, h.uncompressed_page_size);
      snappyUncompress(body, data);
    }
    const count = v2.num_values;
    if (n + count > rows) throw new Unsupported('more values than rows');
    if (v2.encoding === 'PLAIN') origin = int64 ? plain64(data, count, off, n, origin) : plain32(data, count, off, n, origin);
    else if (v2.encoding === 'DELTA_BINARY_PACKED') origin = deltaPacked({ b: data, p: 0 }, count, off, n, origin);
    else throw new Unsupported(`encoding ${v2.encoding}`);
    n += count;
  }
  if (n !== rows) throw new Unsupported('fewer values than rows');
  return { first: origin ?? 0n, off };
}

const SAFE = BigInt(2 ** 52);

/**
 * Returns the origin a chunk's values are kept against: 0 when its first value is small (the offsets are
 * then the values themselves), else that first value (ns times), so that offsets stay exact doubles.
 */
function originOf(first: bigint, origin: bigint | undefined): bigint {
  if (origin !== undefined) return origin;
  return first < SAFE && first > -SAFE ? 0n : first;
}

/** Returns first − origin as a number, or throws Unsupported when it is not exact. */
function startOf(first: bigint, origin: bigint): number {
  const d = first - origin;
  if (d >= SAFE || d <= -SAFE) throw new Unsupported('values too far apart');
  return Number(d);
}

function plainInt32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24));
}

/** PLAIN int64: values against the origin, from the 32-bit halves (each checked exact). */
function plain64(b: Uint8Array, count: number, out: Float64Array, at: number, origin: bigint | undefined): bigint {
  if (b.length < count * 8) throw new Unsupported('short PLAIN page');
  if (count === 0) return origin ?? 0n;
  const first = new DataView(b.buffer, b.byteOffset, 8).getBigInt64(0, true);
  const o = originOf(first, origin);
  const start = startOf(first, o);
  const lo0 = plainInt32(b, 0) >>> 0;
  const hi0 = plainInt32(b, 4);
  for (let i = 0; i < count; i++) {
    const dh = plainInt32(b, 8 * i + 4) - hi0;
    if (dh >= 0x100000 || dh <= -0x100000) throw new Unsupported('values too far apart');
    out[at + i] = start + dh * TWO_32 + ((plainInt32(b, 8 * i) >>> 0) - lo0);
  }
  return o;
}

/** PLAIN int32: values against the origin. */
function plain32(b: Uint8Array, count: number, out: Float64Array, at: number, origin: bigint | undefined): bigint {
  if (b.length < count * 4) throw new Unsupported('short PLAIN page');
  const o = origin ?? 0n;
  const start = -Number(o);
  for (let i = 0; i < count; i++) out[at + i] = start + plainInt32(b, 4 * i);
  return o;
}

/** Reads an unsigned varint as a number (exact below 2^53, else Unsupported). */
function varint(c: Cursor): number {
  let v = 0;
  let shift = 0;
  for (;;) {
    const byte = c.b[c.p++];
    if (byte === undefined) throw new Unsupported('truncated varint');
    v += (byte & 0x7f) * POW2[shift]!;
    if ((byte & 0x80) === 0) break;
    shift += 7;
    if (shift > 56) throw new Unsupported('varint too long');
  }
  if (v >= MAX_EXACT) throw new Unsupported('varint beyond 2^53');
  return v;
}

/** Reads a zigzag varint as a bigint (the header's first value, which may be any int64). */
function zigzagBig(c: Cursor): bigint {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    const byte = c.b[c.p++];
    if (byte === undefined) throw new Unsupported('truncated varint');
    v |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7n;
  }
  return (v >> 1n) ^ -(v & 1n);
}

/** Reads a zigzag varint as a number (exact below 2^53, else Unsupported). */
function zigzag(c: Cursor): number {
  const u = varint(c);
  return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

/**
 * DELTA_BINARY_PACKED: writes `count` values against the origin to out[at...] and returns the origin.
 * A value of up to 25 bits is one little-endian word read, up to 50 bits two; wider ones are refused.
 * Exactness is checked once per miniblock from its width, not per value.
 */
function deltaPacked(c: Cursor, count: number, out: Float64Array, at: number, origin: bigint | undefined): bigint {
  const blockSize = varint(c);
  const miniblocks = varint(c);
  const total = varint(c);
  const first = zigzagBig(c);
  if (total !== count) throw new Unsupported('value count differs from the page header');
  if (miniblocks === 0 || blockSize % miniblocks !== 0) throw new Unsupported('bad block layout');
  const o = originOf(first, origin);
  const perMini = blockSize / miniblocks;
  if (perMini % 8 !== 0) throw new Unsupported('miniblocks not a whole number of bytes');
  const b = c.b;
  let cur = startOf(first, o);
  if (count > 0) out[at] = cur;
  let i = 1;
  while (i < count) {
    const minDelta = zigzag(c);
    const widthsAt = c.p;
    c.p += miniblocks;
    for (let mb = 0; mb < miniblocks && i < count; mb++) {
      const w = b[widthsAt + mb]!;
      const n = Math.min(perMini, count - i);
      if (w > 50) throw new Unsupported(`bit width ${w}`);
      if (Math.abs(cur) + n * (Math.abs(minDelta) + POW2[w]!) >= MAX_EXACT) throw new Unsupported('values beyond 2^53');
      const base = at + i;
      if (w === 0) {
        for (let k = 0; k < n; k++) out[base + k] = cur += minDelta;
      } else if (w <= 25) {
        const mask = (1 << w) - 1;
        let bit = c.p * 8;
        for (let k = 0; k < n; k++) {
          const x = bit >>> 3;
          const word = (b[x]! | (b[x + 1]! << 8) | (b[x + 2]! << 16) | (b[x + 3]! << 24)) >>> (bit & 7);
          out[base + k] = cur += minDelta + (word & mask);
          bit += w;
        }
      } else {
        const mask = POW2[w - 25]! - 1;
        let bit = c.p * 8;
        for (let k = 0; k < n; k++) {
          let x = bit >>> 3;
          const low = ((b[x]! | (b[x + 1]! << 8) | (b[x + 2]! << 16) | (b[x + 3]! << 24)) >>> (bit & 7)) & 0x1ffffff;
          const hb = bit + 25;
          x = hb >>> 3;
          const high = ((b[x]! | (b[x + 1]! << 8) | (b[x + 2]! << 16) | (b[x + 3]! << 24)) >>> (hb & 7)) & mask;
          out[base + k] = cur += minDelta + low + high * 33554432;
          bit += w;
        }
      }
      c.p += (perMini * w) / 8;
      i += n;
    }
  }
  return o;
}

/** Returns a column as exact numbers (the decoded array itself when its origin is 0), or undefined when a value lies beyond ±2^53. */
export function intNumbers(col: IntColumn): Float64Array | undefined {
  if (col.first === 0n) return col.off;
  if (col.first > BigInt(Number.MAX_SAFE_INTEGER) || col.first < -BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  const f = Number(col.first);
  const out = new Float64Array(col.off.length);
  for (let i = 0; i < out.length; i++) {
    const v = f + col.off[i]!;
    if (!(Math.abs(v) < MAX_EXACT)) return undefined;
    out[i] = v;
  }
  return out;
}

/** Returns an int32 column as an Int32Array. */
export function intInt32s(col: IntColumn): Int32Array {
  const f = Number(col.first);
  const out = new Int32Array(col.off.length);
  for (let i = 0; i < out.length; i++) out[i] = f + col.off[i]!;
  return out;
}

/** Returns a non-negative ns column as whole µs and the ns within each µs, exactly. */
export function intMicros(col: IntColumn): { us: Float64Array; sub: Uint16Array } {
  const baseUs = Number(col.first / 1000n);
  const baseSub = Number(col.first % 1000n);
  const n = col.off.length;
  const us = new Float64Array(n);
  const sub = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const t = baseSub + col.off[i]!;
    const q = Math.floor(t / 1000);
    us[i] = baseUs + q;
    sub[i] = t - q * 1000;
  }
  return { us, sub };
}
