/** The recorded order book in integer ticks and lots, with what the strategy's takers took laid over it until the level changes. */
import type { BookSide } from './types.ts';

/** One side: level sizes by price and the prices kept sorted best first. */
class Side {
  readonly size = new Map<number, number>();
  /** Prices best first: descending for bids, ascending for asks. */
  readonly prices: number[] = [];
  /** Lots the strategy took from a level since its last recorded change. */
  readonly taken = new Map<number, number>();

  constructor(private readonly bid: boolean) {}

  /** Returns the index where `price` is or would go. */
  private find(price: number): number {
    const a = this.prices;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const better = this.bid ? a[mid]! > price : a[mid]! < price;
      if (better) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  set(price: number, lots: number): void {
    const had = this.size.has(price);
    this.taken.delete(price);
    if (lots > 0) {
      this.size.set(price, lots);
      if (!had) this.prices.splice(this.find(price), 0, price);
    } else if (had) {
      this.size.delete(price);
      this.prices.splice(this.find(price), 1);
    }
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
    const s = this.sides[side];
    const prev = s.size.get(priceTicks) ?? 0;
    s.set(priceTicks, lots);
    return prev;
  }

  /** Returns the recorded size of a level (0 when absent). */
  recorded(side: BookSide, priceTicks: number): number {
    return this.sides[side].size.get(priceTicks) ?? 0;
  }

  /** Returns the size a taker can still take at a level: recorded less taken. */
  available(side: BookSide, priceTicks: number): number {
    const s = this.sides[side];
    return (s.size.get(priceTicks) ?? 0) - (s.taken.get(priceTicks) ?? 0);
  }

  /** Marks `lots` of a level as taken by the strategy. */
  take(side: BookSide, priceTicks: number, lots: number): void {
    const t = this.sides[side].taken;
    t.set(priceTicks, (t.get(priceTicks) ?? 0) + lots);
  }

  /** Returns the best price with recorded size (taken or not), or undefined. */
  best(side: BookSide): number | undefined {
    return this.sides[side].prices[0];
  }

  /** Returns the best price with liquidity left to take, or undefined. */
  bestAvailable(side: BookSide): number | undefined {
    for (const p of this.sides[side].prices) if (this.available(side, p) > 0) return p;
    return undefined;
  }

  /** Returns the prices of a side best first (read only; a snapshot for walking). */
  levels(side: BookSide): readonly number[] {
    return this.sides[side].prices;
  }
}
