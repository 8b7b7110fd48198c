/** The market maker's pure parts: the book without its own orders, quote targets, when a quote is worth moving, and its own order-rate budget. */
import { Decimal, fromSteps, SlidingWindow, toSteps, toTicks, type Instrument, type OpenOrderView } from 'bhtrade';

/** A book side as the depth events carry it: [price, quantity] strings, best first. */
export type Levels = readonly (readonly [string, string])[];

/** Returns our own resting quantity per price (in ticks), in steps: what the book shows of us and must be left out. */
export function ownByTicks(inst: Instrument, open: readonly Pick<OpenOrderView, 'symbol' | 'price' | 'origQty' | 'executedQty'>[]): Map<number, number> {
  const own = new Map<number, number>();
  for (const o of open) {
    if (o.symbol !== inst.symbol) continue;
    const ticks = toTicks(inst, o.price);
    // An order's quantities are on the step grid (the venue accepted them): whole steps add exactly.
    own.set(ticks, (own.get(ticks) ?? 0) + toSteps(inst, o.origQty) - toSteps(inst, o.executedQty));
  }
  return own;
}

/** Returns true when a level of `qty` holds no more than our `mine` steps (compared exactly; a quantity off the step grid as a decimal). */
function onlyOurs(inst: Instrument, qty: string, mine: number): boolean {
  let steps: number;
  try {
    steps = toSteps(inst, qty);
  } catch {
    return new Decimal(qty).lte(fromSteps(inst, mine));
  }
  return steps <= mine;
}

/** Where a price may stand to count as the market: within `maxTicks` of `ticks` (the last trade). */
export interface Near {
  readonly ticks: number;
  readonly maxTicks: number;
}

/**
 * Returns the best price (in ticks) of a side once our own quantity is taken out of each level, or
 * undefined when only we are there. Levels further than `near.maxTicks` from the reference are not the
 * market (a stray or fat-finger order) and are passed over.
 */
export function othersBest(inst: Instrument, levels: Levels, own: ReadonlyMap<number, number>, near?: Near): number | undefined {
  for (const [price, qty] of levels) {
    const ticks = toTicks(inst, price);
    if (near !== undefined && Math.abs(ticks - near.ticks) > near.maxTicks) continue;
    const mine = own.get(ticks);
    if (mine !== undefined && onlyOurs(inst, qty, mine)) continue;
    return ticks;
  }
  return undefined;
}

/** Where the two quotes should rest, in ticks. */
export interface Targets {
  readonly BUY: number;
  readonly SELL: number;
}

/**
 * Returns the bid and ask targets: `spreadTicks` apart around the others' mid, both moved down by
 * `skew` ticks (up when negative), and never crossing the others' best (a maker rests at most one
 * tick inside the other side). A one-sided book is priced off the side there is; an empty one gives
 * undefined.
 */
export function targets(bid: number | undefined, ask: number | undefined, spreadTicks: number, skew: number): Targets | undefined {
  if (bid === undefined && ask === undefined) return undefined;
  const bestBid = bid ?? ask! - spreadTicks;
  const bestAsk = ask ?? bid! + spreadTicks;
  const mid2 = bestBid + bestAsk; // twice the mid, to stay in whole ticks
  const half = Math.floor(spreadTicks / 2);
  return {
    BUY: Math.max(1, Math.min(Math.floor(mid2 / 2) - half - skew, bestAsk - 1)),
    SELL: Math.max(Math.ceil(mid2 / 2) + half - skew, bestBid + 1),
  };
}

/**
 * Returns the inventory skew in ticks: `perQuantity` ticks for each `quantity` held above the target
 * (positive: both quotes move down), capped at ±`max`.
 */
export function skewTicks(held: string, target: string, quantity: string, perQuantity: number, max: number): number {
  // A signal, not an amount: a float is fine here and never reaches an order.
  const excess = quotientNumber(held, target, quantity) ?? new Decimal(held).minus(target).div(quantity).toNumber();
  const skew = Math.round(excess * perQuantity);
  return Math.max(-max, Math.min(max, skew)) || 0;
}

/** Most decimals quotientNumber looks for an exact quotient within. */
const QUOTIENT_DECIMALS = 30;

/**
 * Returns (held − target) ÷ quantity as the number nearest to it, when the quotient ends within 30
 * decimals in at most 60 digits (a position in steps over a quantity usually does: decimal.js would have it
 * exactly too, so the number is the one its toNumber() gives); undefined otherwise (left to decimal.js). Figured after
 * every fill, without decimal.js.
 */
function quotientNumber(held: string, target: string, quantity: string): number | undefined {
  const h = fraction(held);
  const t = fraction(target);
  const q = fraction(quantity);
  if (h === undefined || t === undefined || q === undefined || q.units === 0n) return undefined;
  const den = h.den > t.den ? h.den : t.den;
  const diff = h.units * (den / h.den) - t.units * (den / t.den);
  // diff ÷ den ÷ (q.units ÷ q.den), times 10^k until whole.
  let num = diff * q.den;
  const by = den * q.units;
  for (let k = 0; k <= QUOTIENT_DECIMALS; k++, num *= 10n) {
    if (num % by !== 0n) continue;
    const digits = String(num / by);
    // More digits than decimal.js keeps (60): its quotient would be rounded first, so it gives the number.
    return digits.length > 60 ? undefined : Number(`${digits}e-${k}`);
  }
  return undefined;
}

/**
 * Returns the least half-spread, in whole ticks, that is at least the maker fee of a price: ceil(price ×
 * fee ÷ tick) at `ticks` (0 without a price or a fee).
 */
export function feeHalfSpreadTicks(ticks: number | undefined, makerFee: string): number {
  if (ticks === undefined) return 0;
  const fee = fraction(makerFee);
  if (fee === undefined) {
    const d = new Decimal(makerFee);
    return d.lte(0) ? 0 : new Decimal(ticks).mul(d).ceil().toNumber();
  }
  if (fee.units <= 0n) return 0;
  // ceil(ticks × units ÷ 10^scale), in integers: exact at any size.
  const num = BigInt(ticks) * fee.units;
  const q = num / fee.den;
  return Number(q * fee.den === num || num < 0n ? q : q + 1n);
}

/** A quote we have sent: its clientOrderId, its price in ticks and the skew it was priced with. */
export interface Quote {
  readonly id: string;
  readonly ticks: number;
  readonly skew: number;
}

/**
 * Returns true when a quote should be (re)sent: there is none, its target moved by `requoteTicks`
 * or more, or the inventory skew changed and so did the target. Smaller moves of the market leave
 * it resting, which keeps its place in the queue and the order budget.
 */
export function needsQuote(q: Quote | undefined, want: number, skew: number, requoteTicks: number): boolean {
  if (q === undefined) return true;
  if (Math.abs(q.ticks - want) >= requoteTicks) return true;
  return q.skew !== skew && q.ticks !== want;
}

/** A quote's side. */
export type QuoteSide = 'BUY' | 'SELL';

// The answers of dueSides, made once: it runs on every refresh.
const DUE_NONE: readonly QuoteSide[] = [];
const DUE_BUY: readonly QuoteSide[] = ['BUY'];
const DUE_SELL: readonly QuoteSide[] = ['SELL'];
const DUE_BUY_SELL: readonly QuoteSide[] = ['BUY', 'SELL'];
const DUE_SELL_BUY: readonly QuoteSide[] = ['SELL', 'BUY'];

/** Returns how far a quote is from its target, in ticks (a missing quote is furthest). */
function distance(q: Quote | undefined, want: number): number {
  return q === undefined ? Number.MAX_SAFE_INTEGER : Math.abs(q.ticks - want);
}

/**
 * Returns the sides whose quote should be (re)sent (needsQuote), the one further from its target
 * first; equally far, the bid first.
 */
export function dueSides(quotes: Readonly<Record<QuoteSide, Quote | undefined>>, want: Targets, skew: number, requoteTicks: number): readonly QuoteSide[] {
  const buy = needsQuote(quotes.BUY, want.BUY, skew, requoteTicks);
  const sell = needsQuote(quotes.SELL, want.SELL, skew, requoteTicks);
  if (!buy) return sell ? DUE_SELL : DUE_NONE;
  if (!sell) return DUE_BUY;
  return distance(quotes.SELL, want.SELL) > distance(quotes.BUY, want.BUY) ? DUE_SELL_BUY : DUE_BUY_SELL;
}

/**
 * The strategy's own count of the orders it sent in the last second and minute, kept under the
 * limits it is given (at most the risk gate's order rate), so it waits for room instead of being
 * denied. Cancels are free; a place or a replace takes one.
 */
export class OrderBudget {
  private readonly second: SlidingWindow;
  private readonly minute: SlidingWindow;
  private pausedUntil = 0;

  constructor(perSecond: number, perMinute: number) {
    this.second = new SlidingWindow(1_000, perSecond);
    this.minute = new SlidingWindow(60_000, perMinute);
  }

  /** Returns how many orders may be sent at `now`. */
  room(now: number): number {
    if (now < this.pausedUntil) return 0;
    return Math.max(0, Math.min(this.second.limit - this.second.count(now), this.minute.limit - this.minute.count(now)));
  }

  /** Records one order sent at `now`. */
  take(now: number): void {
    this.second.charge(1, now);
    this.minute.charge(1, now);
  }

  /** Sends nothing until `until` (after the gate refused for rate all the same). */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }
}

/** Returns how many ticks `pct` percent of a price of `ticks` is, rounded down. */
export function pctTicks(ticks: number, pct: string): number {
  const p = fraction(pct);
  if (p === undefined) return new Decimal(ticks).mul(pct).div(100).floor().toNumber();
  const num = BigInt(ticks) * p.units;
  const den = p.den * 100n;
  const q = num / den;
  // BigInt division truncates toward zero; floor goes down.
  return Number(num < 0n && q * den !== num ? q - 1n : q);
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A plain decimal as units ÷ den (den a power of ten). */
interface Fraction {
  readonly units: bigint;
  readonly den: bigint;
}

/** The texts fraction() read last and what it made of them (null: not a plain decimal): the fee, the params and the held position come back on every refresh. */
const FRACTIONS = new Map<string, Fraction | null>();
const FRACTIONS_KEPT = 64;

/** Returns a plain decimal text as units ÷ den (den a power of ten), or undefined for any other writing (left to decimal.js). */
function fraction(text: string): Fraction | undefined {
  let f = FRACTIONS.get(text);
  if (f === undefined) {
    if (FRACTIONS.size >= FRACTIONS_KEPT) FRACTIONS.clear();
    FRACTIONS.set(text, (f = parseFraction(text)));
  }
  return f ?? undefined;
}

function parseFraction(text: string): Fraction | null {
  const m = PLAIN_DECIMAL.exec(text);
  if (m === null) return null;
  const frac = m[3] ?? '';
  const units = BigInt(m[2]! + frac);
  return { units: m[1] === '-' ? -units : units, den: 10n ** BigInt(frac.length) };
}
