/** A symbol as the engine trades it: brokerInfo rules turned into integer ticks and lots, with its book, klines and recent trades. */
import { compareDecimal, parseScaled, scaleOf } from '../../core/fixed.ts';
import { instrumentFromContract, instrumentFromSpot, type Contract, type Instrument, type SpotSymbol } from '../../model/instrument.ts';
import { OrderBook } from '../book/order-book.ts';
import type { ExternalMatcher } from './matcher.ts';
import type { IdSequence } from './ids.ts';
import { KlineBook } from './klines.ts';
import { BAD_PRECISION, decimalUnits, makeUnit, NEGATIVE, NOT_A_NUMBER, productUnit, TOO_LARGE, unitsText, type Unit } from './units.ts';

/** A public trade kept for the trades endpoint, in integer units; its id text is made when read. */
export class PublicTrade {
  constructor(
    private readonly ids: IdSequence,
    private readonly off: number,
    readonly time: number,
    readonly price: number,
    readonly lots: number,
    readonly isBuyerMaker: boolean,
  ) {}

  /** Returns the trade id. */
  get id(): string {
    return this.ids.idAt(this.off);
  }
}

const ONE = 10n ** 18n;

function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return q * d === n ? q : q + 1n;
}

/** Outcome of checking a decimal against a filter: whole units (≥ 0), or the venue code of the failure (negative). */
export type FilterCheck = number;

/** The engine's view of one symbol. */
export class SimInstrument {
  readonly symbol: string;
  readonly kind: 'spot' | 'inverse' | 'linear';
  readonly model: Instrument;
  readonly spot: SpotSymbol | undefined;
  readonly contract: Contract | undefined;
  readonly tick: Unit;
  readonly step: Unit;
  /** One tick × one lot: the unit of every fill's quote amount. */
  readonly qunit: Unit;
  readonly minPrice: number;
  readonly maxPrice: number;
  readonly minQty: number;
  readonly maxQty: number;
  /** Minimum price × qty in qunits (0 when the symbol has no MIN_NOTIONAL). */
  readonly minNotional: number;
  readonly book = new OrderBook();
  /** The matcher of the venue's orders when the symbol's market comes from outside (a replayed recording); its book then holds only the recorded levels. */
  external: ExternalMatcher | undefined;
  readonly klines = new KlineBook();
  readonly trades: PublicTrade[] = [];
  private readonly priceCache = new Map<number, string>();
  private readonly qtyTexts: string[] = [];
  /** Fee table of the last rate asked (accounts mostly share one rate): see feeTable. */
  private feeRate = -1n;
  private feeLot = 0n;
  private feeQunit = 0n;
  private feeBase: bigint[] = [];
  /** Amounts of small lot counts, made once: most fills are a few lots. */
  private readonly lotAmounts: bigint[] = [];

  constructor(spec: { spot: SpotSymbol } | { contract: Contract }) {
    if ('spot' in spec) {
      this.spot = spec.spot;
      this.contract = undefined;
      this.model = instrumentFromSpot(spec.spot);
    } else {
      this.spot = undefined;
      this.contract = spec.contract;
      this.model = instrumentFromContract(spec.contract);
    }
    const m = this.model;
    this.symbol = m.symbol;
    this.kind = m.kind;
    this.tick = makeUnit(m.tickSize);
    this.step = makeUnit(m.stepSize);
    this.qunit = productUnit(this.tick, this.step);
    this.minPrice = boundUnits(m.minPrice, this.tick, 'ceil', 1);
    this.maxPrice = boundUnits(m.maxPrice, this.tick, 'floor', Number.MAX_SAFE_INTEGER);
    this.minQty = boundUnits(m.minQty, this.step, 'ceil', 1);
    this.maxQty = boundUnits(m.maxQty, this.step, 'floor', Number.MAX_SAFE_INTEGER);
    this.minNotional = boundUnits(m.minNotional, this.qunit, 'ceil', 0);
  }

  /** Returns the base asset (spot) or undefined. */
  get baseAsset(): string {
    return this.model.baseAsset;
  }

  /** Returns the quote asset. */
  get quoteAsset(): string {
    return this.model.quoteAsset;
  }

  /** Returns the price text of `ticks`, cached because a book's prices repeat. */
  priceText(ticks: number): string {
    let s = this.priceCache.get(ticks);
    if (s === undefined) {
      s = unitsText(ticks, this.tick);
      if (this.priceCache.size > 4096) this.priceCache.clear();
      this.priceCache.set(ticks, s);
    }
    return s;
  }

  /** Returns `lots` lots as an Amount. */
  lotsAmount(lots: number): bigint {
    if (lots < 4096) {
      let a = this.lotAmounts[lots];
      if (a === undefined) {
        for (let i = this.lotAmounts.length; i <= lots; i++) this.lotAmounts.push(BigInt(i) * this.step.amount);
        a = this.lotAmounts[lots]!;
      }
      return a;
    }
    return BigInt(lots) * this.step.amount;
  }

  /**
   * Returns the fee at `rate` on `lots` lots of base (rounded up, as the ledger's feeOn), from a per-rate
   * table when one lot's fee is a whole number of 10^-18 units (then the fee of n lots is n times it).
   */
  baseFee(lots: number, rate: bigint): bigint {
    if (rate === 0n) return 0n;
    if (rate !== this.feeRate) this.feeTable(rate);
    const unit = this.feeLot;
    if (unit !== 0n && lots < 4096) {
      const base = this.feeBase;
      let f = base[lots];
      if (f === undefined) {
        for (let i = base.length; i <= lots; i++) base.push(BigInt(i) * unit);
        f = base[lots]!;
      }
      return f;
    }
    return ceilDiv(this.lotsAmount(lots) * rate, ONE);
  }

  /** Returns the fee at `rate` on a quote amount of `q` qunits whose Amount is `quote` (rounded up, as feeOn). */
  quoteFee(q: number, quote: bigint, rate: bigint): bigint {
    if (rate === 0n) return 0n;
    if (rate !== this.feeRate) this.feeTable(rate);
    if (this.feeQunit !== 0n && q <= 9007199254740991) return BigInt(q) * this.feeQunit;
    return ceilDiv(quote * rate, ONE);
  }

  /** Makes the fee table of `rate`: one lot's and one qunit's fee when they are whole 10^-18 units (else 0: computed per fill). */
  private feeTable(rate: bigint): void {
    const exact = (unit: bigint): bigint => ((unit * rate) % ONE === 0n ? (unit * rate) / ONE : 0n);
    this.feeRate = rate;
    this.feeLot = exact(this.step.amount);
    this.feeQunit = exact(this.qunit.amount);
    this.feeBase = [];
  }

  /** Returns the quote amount of `lots` at `ticks` (ticks × lots × qunit) as an Amount, exact. */
  quoteAmount(ticks: number, lots: number): bigint {
    const q = ticks * lots;
    return q <= 9007199254740991 ? BigInt(q) * this.qunit.amount : BigInt(ticks) * BigInt(lots) * this.qunit.amount;
  }

  /** Returns the quantity text of `lots` (small counts made once: orders and fills are mostly a few lots). */
  qtyText(lots: number): string {
    if (lots < 4096) {
      let t = this.qtyTexts[lots];
      if (t === undefined) {
        t = unitsText(lots, this.step);
        this.qtyTexts[lots] = t;
      }
      return t;
    }
    return unitsText(lots, this.step);
  }

  /** Returns the text of an amount in qunits (tick × lot), e.g. a cumulative quote quantity. */
  quoteText(q: number): string {
    return unitsText(q, this.qunit);
  }

  /** Checks a price against PRICE_FILTER: -1132 too high, -1133 too low, -1134 precision; -1130 not a number. */
  checkPrice(s: string): FilterCheck {
    const u = decimalUnits(s, this.tick);
    if (u >= 0) {
      if (u > this.maxPrice) return -1132;
      if (u < this.minPrice) return -1133;
      return u;
    }
    return failureCode(u, s, this.model.maxPrice, this.model.minPrice, PRICE_CODES);
  }

  /** Checks a quantity against LOT_SIZE: -1135 too big, -1136 too small, -1137 precision; -1130 not a number. */
  checkQty(s: string): FilterCheck {
    const u = decimalUnits(s, this.step);
    if (u >= 0) {
      if (u > this.maxQty) return -1135;
      if (u < this.minQty) return -1136;
      return u;
    }
    return failureCode(u, s, this.model.maxQty, this.model.minQty, QTY_CODES);
  }
}

const PRICE_CODES: [number, number, number] = [-1132, -1133, -1134];
const QTY_CODES: [number, number, number] = [-1135, -1136, -1137];

/** Returns the code of a value that is not a whole number of units: out of range first, else precision. */
function failureCode(sentinel: number, s: string, max: string | undefined, min: string | undefined, [tooHigh, tooLow, precision]: [number, number, number]): number {
  switch (sentinel) {
    case NOT_A_NUMBER:
    case NEGATIVE:
      return -1130;
    case TOO_LARGE:
      return tooHigh;
    case BAD_PRECISION:
      if (max !== undefined && compareDecimal(s, max) > 0) return tooHigh;
      return min !== undefined && compareDecimal(s, min) < 0 ? tooLow : precision;
    default:
      return -1130;
  }
}

/** Returns a filter bound in whole units, rounded inward; `dflt` when the filter is absent. */
function boundUnits(v: string | undefined, u: Unit, dir: 'ceil' | 'floor', dflt: number): number {
  if (v === undefined) return dflt;
  const exact = decimalUnits(v, u);
  if (exact >= 0) return exact;
  if (exact === TOO_LARGE) return Number.MAX_SAFE_INTEGER;
  // A bound between two units: the first or last whole unit inside it.
  const scale = Math.max(u.scale, scaleOf(v, 'filter'));
  const num = parseScaled(v, scale, 'filter');
  const den = parseScaled(u.text, scale, 'unit');
  const q = num / den;
  const r = num % den;
  const n = dir === 'ceil' && r !== 0n ? q + 1n : q;
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}
