/** The instruments of a catalog: tick, lot, multiplier and assets, so that integer ticks and lots turn back into exact decimals. */
import { z } from 'zod';
import { ParseError } from '../core/errors.ts';
import { fromUnits, isDecimalString, parseScaled, scaleOf, zeroPoint } from '../core/fixed.ts';

/** spot; linear (margined and settled in the quote asset); inverse (quantities are contracts of `multiplier` quote units, margined in the base). */
export const INSTRUMENT_KINDS = ['spot', 'linear', 'inverse'] as const;
export type InstrumentKind = (typeof INSTRUMENT_KINDS)[number];

const decimal = z.string().refine(isDecimalString, 'must be a decimal string such as "0.01"');

/** One instrument as the catalog stores it (catalog.json and every Parquet file's key-value metadata). */
export const instrumentSchema = z.strictObject({
  symbol: z.string().min(1),
  kind: z.enum(INSTRUMENT_KINDS),
  /** Price step: prices are stored as integer multiples of it. */
  tick: decimal,
  /** Quantity step: quantities are stored as integer multiples of it (contracts for contracts sized in contracts). */
  lot: decimal,
  /** Quote value of one contract (inverse), base units of one contract (linear), "1" for spot. */
  multiplier: decimal.default('1'),
  base: z.string().min(1),
  quote: z.string().min(1),
  margin: z.string().min(1),
  /** True when book versions count diffs one by one (our venue); false when they only increase (Binance update ids). */
  contiguousVersions: z.boolean().default(true),
  /** Text after the sequence in our venue's versions (`<sequence>_<suffix>`), where there is one. */
  versionSuffix: z.string().optional(),
  /** Contracts: the symbol of the index the venue marks it at (its brokerInfo `index`, e.g. BTCUSDT), where the recording names it. */
  index: z.string().min(1).optional(),
});
export type Instrument = z.infer<typeof instrumentSchema>;

/** Returns `s` as an integer count of `unit` (a bigint, for int64 columns); throws ParseError when `s` is not a whole multiple. */
export function toSteps(s: string, unit: string, field: string): bigint {
  const scale = Math.max(scaleOf(unit, 'unit'), scaleOf(s, field));
  const v = parseScaled(s, scale, field);
  const u = parseScaled(unit, scale, 'unit');
  if (v % u !== 0n) throw new ParseError(field, `must be a multiple of ${unit}, got ${s}`);
  return v / u;
}

const CACHE_SLOTS = 1 << 14;

/**
 * Turns integer step counts (numbers below 2^53) back into the exact decimal strings of one step size.
 * Recent values are kept in a direct-mapped cache of fixed size (a slot per value modulo its size): prices
 * and sizes repeat, and a miss costs one formatting, never a growing table.
 */
export class StepFormatter {
  private readonly keys = new Float64Array(CACHE_SLOTS).fill(NaN);
  private readonly values: string[] = new Array<string>(CACHE_SLOTS).fill('');
  private readonly scale: number;
  private readonly units: number;

  constructor(readonly step: string) {
    this.scale = scaleOf(step, 'step');
    this.units = Number(parseScaled(step, this.scale, 'step'));
  }

  /**
   * Returns the decimal string of `n` steps, trailing zeros stripped. A value's text is kept from its second
   * sighting in its slot on: one seen once (most sizes) leaves no string behind, which would outlive the
   * young generation in the cache only to die in the old one.
   */
  format(n: number): string {
    const slot = n & (CACHE_SLOTS - 1);
    if (this.keys[slot] !== n) {
      this.keys[slot] = n;
      this.values[slot] = '';
      return this.text(n);
    }
    const kept = this.values[slot]!;
    if (kept !== '') return kept;
    const s = this.text(n);
    this.values[slot] = s;
    return s;
  }

  private text(n: number): string {
    const scaled = n * this.units;
    return Number.isSafeInteger(scaled) ? insertPoint(scaled, this.scale) : fromUnits(BigInt(n), this.step);
  }
}

function insertPoint(v: number, scale: number): string {
  if (scale === 0) return String(v);
  const neg = v < 0;
  // One integer-to-text conversion of a safe integer (exact digits); the point goes in by slicing, trailing zeros go by scanning back.
  const digits = String(neg ? -v : v);
  const point = digits.length - scale;
  let end = digits.length;
  const stop = point > 0 ? point : 0;
  while (end > stop && digits.charCodeAt(end - 1) === 48) end -= 1;
  let body: string;
  if (point > 0) body = end === point ? digits.slice(0, point) : digits.slice(0, point) + '.' + digits.slice(point, end);
  else body = end === 0 ? '0' : zeroPoint(-point) + digits.slice(0, end);
  return neg && body !== '0' ? `-${body}` : body;
}
