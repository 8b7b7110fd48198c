/** The recorded order book in integer ticks and lots, with what the strategy's takers took laid over it until the level changes. */
import { TickSide } from '../../data/tick-book.ts';
import type { BookSide } from './types.ts';

/** Ticks between the best and a trade's price always walked tick by tick (a small side's table is visited whole beyond them). */
const NEAR_TICKS = 64;

/** One side: level sizes by price (an open-addressing table that keeps its best), and the prices sorted best first when something walks them. */
class Side {
  readonly size: TickSide;
  /** Prices best first, made when asked after a level came or went (walks are rare: takers, snapshots). */
  private sorted: number[] | undefined = [];
  /** Lots the strategy took from a level since its last recorded change (a table like the sizes': no allocation as levels come and go). */
  readonly taken: TickSide;

  constructor(private readonly bid: boolean) {
    this.size = new TickSide(bid ? -1 : 1);
    this.taken = new TickSide(bid ? -1 : 1, 64);
  }

  /** Sets a level (0 removes it); returns its size before. */
  set(price: number, lots: number): number {
    if (this.taken.size > 0) this.taken.set(price, 0);
    const prev = this.size.set(price, lots > 0 ? lots : 0);
    // The sorted prices change only when a level comes or goes.
    if ((prev > 0) !== (lots > 0)) this.sorted = undefined;
    return prev;
  }

  /** Returns the prices best first (the same array until a level comes or goes). */
  prices(): readonly number[] {
    if (this.sorted === undefined) this.sorted = this.size.prices().sort(this.bid ? (a, b) => b - a : (a, b) => a - b);
    return this.sorted;
  }
}

/**
 * The recorded book. A depth event sets a level's size and forgets what the strategy took from it
 * (the recording now shows what is really there); a taker's fills mark liquidity as taken, so the
 * same recorded lots never fill twice.
 */
export class RecordedBook {
  private readonly sides: [Side, Side] = [new Side(true), new Side(false)];

  /** Sets a level from a recorded event; returns its previous recorded size. */
  setLevel(side: BookSide, priceTicks: number, lots: number): number {
    return this.sides[side].set(priceTicks, lots);
  }

  /** Returns the recorded size of a level (0 when absent). */
  recorded(side: BookSide, priceTicks: number): number {
    return this.sides[side].size.get(priceTicks);
  }

  /** Returns the size a taker can still take at a level: recorded less taken. */
  available(side: BookSide, priceTicks: number): number {
    const s = this.sides[side];
    return s.size.get(priceTicks) - s.taken.get(priceTicks);
  }

  /** Marks `lots` of a level as taken by the strategy. */
  take(side: BookSide, priceTicks: number, lots: number): void {
    const t = this.sides[side].taken;
    t.set(priceTicks, t.get(priceTicks) + lots);
  }

  /** Returns the best price with recorded size (taken or not), or undefined. */
  best(side: BookSide): number | undefined {
    const p = this.sides[side].size.best();
    return Number.isNaN(p) ? undefined : p;
  }

  /**
   * Marks what a recorded trade at `price` took: every level better than it whole, and up to `lots`
   * at it. Trades happen at or near the best, so the walk goes tick by tick from the best while the
   * trade is near it, else over the side's table; neither sorts.
   */
  takeThrough(side: BookSide, price: number, lots: number): void {
    const best = this.best(side);
    // A trade that does not reach the best (the recording's book lags its trades) takes nothing: no walk.
    if (best === undefined || (side === 0 ? price > best : price < best)) return;
    const dir = side === 0 ? -1 : 1;
    // Tick by tick while that is cheaper than visiting the side's whole table (a lookup costs a few slots' visits).
    if (Math.abs(price - best) <= Math.max(NEAR_TICKS, this.sides[side].size.capacity >> 2)) {
      for (let p = best; side === 0 ? p >= price : p <= price; p += dir) this.takeAt(side, p, price, lots);
      return;
    }
    // Each level is taken on its own, so the levels between the best and the price are visited in table order (no sort).
    const lo = side === 0 ? price : best;
    const hi = side === 0 ? best : price;
    this.sides[side].size.each(lo, hi, (p) => this.takeAt(side, p, price, lots));
  }

  /** Marks a level a recorded trade at `price` reached as taken: whole when better than the price, up to `lots` at it. */
  private takeAt(side: BookSide, p: number, price: number, lots: number): void {
    const left = this.available(side, p);
    const took = p === price ? Math.min(left, lots) : left;
    if (took > 0) this.take(side, p, took);
  }

  /** Returns the best price with liquidity left to take, or undefined. */
  bestAvailable(side: BookSide): number | undefined {
    for (const p of this.sides[side].prices()) if (this.available(side, p) > 0) return p;
    return undefined;
  }

  /** Returns the prices of a side best first (read only; a snapshot for walking). */
  levels(side: BookSide): readonly number[] {
    return this.sides[side].prices();
  }
}
