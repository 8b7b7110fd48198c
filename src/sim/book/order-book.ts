/** One symbol's limit order book on integer ticks and lots: price-time priority, FIFO levels, O(1) cancel, self-trade expiry of the maker. */

/** Book side: 0 bids (buy orders), 1 asks (sell orders). Numbers, not strings, because they index arrays on the hot path. */
export type BookSide = 0 | 1;
export const BID: BookSide = 0;
export const ASK: BookSide = 1;

/**
 * What the book needs of a resting order. The engine's order record implements it, so the book keeps no
 * copy and cancel by id is the engine's map lookup followed by `remove` (O(1) in the queue).
 */
export interface BookEntry {
  /** Price in ticks. */
  readonly priceTicks: number;
  readonly bookSide: BookSide;
  /** Self-trade key: two orders with the same owner never trade with each other. */
  readonly owner: number;
  /** Lots still open on the book. */
  leaves: number;
  prev: BookEntry | null;
  next: BookEntry | null;
  level: Level | null;
}

/** A price level: a FIFO queue of entries and its total open lots. */
export interface Level {
  readonly price: number;
  qty: number;
  count: number;
  head: BookEntry | null;
  tail: BookEntry | null;
}

/** Called for each execution against a resting entry, after the book has reduced (and if done, removed) it. */
export type FillHandler = (maker: BookEntry, lots: number, priceTicks: number) => void;
/** Called when a resting entry of the taker's own owner was met and removed from the book (expire-maker). */
export type SelfTradeHandler = (maker: BookEntry) => void;

/** The parameters of one matching pass; reused by the caller to avoid an allocation per order. */
export interface MatchRequest {
  /** The side of the TAKER order: BID for a buy. */
  side: BookSide;
  /** Worst acceptable price in ticks (Infinity for a buy without limit, 0 for a sell without limit). */
  limit: number;
  /** Lots wanted (Infinity when bounded by quote only). */
  maxLots: number;
  /** Quote budget in tick×lot units (Infinity when bounded by lots only): a MARKET BUY by quote amount. */
  maxQuote: number;
  owner: number;
}

/**
 * A price ladder for one side: prices sorted so that the BEST is the LAST element (bids ascending, asks
 * descending), so consuming the best level is a pop.
 */
class Ladder {
  readonly prices: number[] = [];
  readonly levels = new Map<number, Level>();

  constructor(private readonly side: BookSide) {}

  best(): Level | undefined {
    const p = this.prices;
    return p.length === 0 ? undefined : this.levels.get(p[p.length - 1]!);
  }

  /** Returns the index where `price` is or would go, keeping the order of the side. */
  private find(price: number): number {
    const p = this.prices;
    let lo = 0;
    let hi = p.length;
    const asc = this.side === BID;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = p[mid]!;
      if (asc ? v < price : v > price) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  levelFor(price: number): Level {
    let lv = this.levels.get(price);
    if (lv) return lv;
    lv = { price, qty: 0, count: 0, head: null, tail: null };
    this.levels.set(price, lv);
    const p = this.prices;
    const last = p.length - 1;
    // Most new levels appear at or near the top of the book: test the end before searching.
    if (last < 0 || (this.side === BID ? price > p[last]! : price < p[last]!)) p.push(price);
    else p.splice(this.find(price), 0, price);
    return lv;
  }

  drop(lv: Level): void {
    this.levels.delete(lv.price);
    const p = this.prices;
    if (p[p.length - 1] === lv.price) {
      p.pop();
      return;
    }
    const i = this.find(lv.price);
    if (p[i] === lv.price) p.splice(i, 1);
  }
}

/** A limit order book of one symbol. All prices are ticks and all quantities lots (safe integers). */
export class OrderBook {
  private readonly sides: [Ladder, Ladder] = [new Ladder(BID), new Ladder(ASK)];
  /** Levels changed since the last `drainTouched`, as [side, price] pairs flattened. */
  /** Entries [0, touchedN) are used; the array is reused, never shrunk, so marking a level allocates nothing. */
  private readonly touched: number[] = [];
  private touchedN = 0;

  /** Returns the best bid price in ticks, or undefined. */
  bestBid(): number | undefined {
    return this.sides[BID].best()?.price;
  }

  /** Returns the best ask price in ticks, or undefined. */
  bestAsk(): number | undefined {
    return this.sides[ASK].best()?.price;
  }

  /** Returns the best level of a side. */
  bestLevel(side: BookSide): Level | undefined {
    return this.sides[side].best();
  }

  /** Returns the open lots at `price` on `side` (0 when the level is empty). */
  levelQty(side: BookSide, price: number): number {
    return this.sides[side].levels.get(price)?.qty ?? 0;
  }

  /** Returns the number of price levels on a side. */
  levelCount(side: BookSide): number {
    return this.sides[side].prices.length;
  }

  /** Returns up to `limit` levels of a side, best first, as [priceTicks, lots] pairs. */
  levels(side: BookSide, limit: number): Array<[number, number]> {
    const lad = this.sides[side];
    const out: Array<[number, number]> = [];
    for (let i = lad.prices.length - 1; i >= 0 && out.length < limit; i--) {
      const price = lad.prices[i]!;
      out.push([price, lad.levels.get(price)!.qty]);
    }
    return out;
  }

  /** Returns every resting entry of a side, best level first and in time order within a level. */
  *entries(side: BookSide): Generator<BookEntry> {
    const lad = this.sides[side];
    for (let i = lad.prices.length - 1; i >= 0; i--) {
      for (let e = lad.levels.get(lad.prices[i]!)!.head; e; e = e.next) yield e;
    }
  }

  /** Appends `e` at the back of its price level's queue. */
  add(e: BookEntry): void {
    const lv = this.sides[e.bookSide].levelFor(e.priceTicks);
    e.level = lv;
    e.prev = lv.tail;
    e.next = null;
    if (lv.tail) lv.tail.next = e;
    else lv.head = e;
    lv.tail = e;
    lv.qty += e.leaves;
    lv.count += 1;
    this.touch(e.bookSide, e.priceTicks);
  }

  /** Takes `e` off the book (no-op when it is not resting). */
  remove(e: BookEntry): void {
    const lv = e.level;
    if (!lv) return;
    if (e.prev) e.prev.next = e.next;
    else lv.head = e.next;
    if (e.next) e.next.prev = e.prev;
    else lv.tail = e.prev;
    lv.qty -= e.leaves;
    lv.count -= 1;
    e.prev = null;
    e.next = null;
    e.level = null;
    if (lv.count === 0) this.sides[e.bookSide].drop(lv);
    this.touch(e.bookSide, e.priceTicks);
  }

  /** Returns true when an order on `side` at `limit` would execute against the book at once. */
  wouldCross(side: BookSide, limit: number): boolean {
    const best = this.sides[side === BID ? ASK : BID].best();
    if (!best) return false;
    return side === BID ? best.price <= limit : best.price >= limit;
  }

  /**
   * Returns how many lots a taker could fill now (resting entries of its own owner excluded, since they
   * would be expired rather than traded), stopping once `req.maxLots` is reached. Used for FOK.
   */
  fillable(req: MatchRequest): number {
    const lad = this.sides[req.side === BID ? ASK : BID];
    const buy = req.side === BID;
    let lots = 0;
    let quote = req.maxQuote;
    for (let i = lad.prices.length - 1; i >= 0 && lots < req.maxLots; i--) {
      const price = lad.prices[i]!;
      if (buy ? price > req.limit : price < req.limit) break;
      for (let e = lad.levels.get(price)!.head; e && lots < req.maxLots; e = e.next) {
        if (e.owner === req.owner) continue;
        let take = Math.min(e.leaves, req.maxLots - lots);
        if (quote !== Infinity) {
          take = Math.min(take, Math.floor(quote / price));
          if (take <= 0) return lots;
          quote -= take * price;
        }
        lots += take;
      }
    }
    return lots;
  }

  /**
   * Matches a taker against the opposite side in price-time priority and returns the lots filled.
   * Self-trade rule (expire-maker, as mature venues do by default): a resting entry of the taker's own
   * owner is removed from the book and reported to `onSelf`; the taker continues with the next entry.
   * A quote budget (`maxQuote`) stops the pass at the first maker where not even one lot is affordable.
   */
  match(req: MatchRequest, onFill: FillHandler, onSelf: SelfTradeHandler): number {
    const oppSide: BookSide = req.side === BID ? ASK : BID;
    const lad = this.sides[oppSide];
    const buy = req.side === BID;
    let filled = 0;
    let quote = req.maxQuote;
    while (filled < req.maxLots) {
      const lv = lad.best();
      if (!lv) break;
      const price = lv.price;
      if (buy ? price > req.limit : price < req.limit) break;
      const maker = lv.head!;
      if (maker.owner === req.owner) {
        this.remove(maker);
        onSelf(maker);
        continue;
      }
      let take = maker.leaves < req.maxLots - filled ? maker.leaves : req.maxLots - filled;
      if (quote !== Infinity) {
        const afford = Math.floor(quote / price);
        if (afford <= 0) break;
        if (afford < take) take = afford;
        quote -= take * price;
      }
      filled += take;
      if (take === maker.leaves) {
        this.remove(maker);
        maker.leaves = 0;
      } else {
        maker.leaves -= take;
        lv.qty -= take;
        this.touch(oppSide, price);
      }
      onFill(maker, take, price);
    }
    return filled;
  }

  /** Forgets the changed levels without reporting them (nobody listens). */
  clearTouched(): void {
    this.touchedN = 0;
  }

  private touch(side: BookSide, price: number): void {
    const t = this.touched;
    const n = this.touchedN;
    if (n < t.length) {
      t[n] = side;
      t[n + 1] = price;
    } else {
      t.push(side, price);
    }
    this.touchedN = n + 2;
  }

  /** Returns the levels changed since the last call as flattened [side, price] pairs, each once, and forgets them. */
  drainTouched(): number[] {
    const t = this.touched;
    const n = this.touchedN;
    this.touchedN = 0;
    if (n === 0) return [];
    if (n === 2) return [t[0]!, t[1]!];
    const seen = new Set<number>();
    const out: number[] = [];
    for (let i = 0; i < n; i += 2) {
      // Prices are safe integers ≥ 0; the side goes in the sign to make one numeric key.
      const key = t[i] === BID ? t[i + 1]! : -t[i + 1]! - 1;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(t[i]!, t[i + 1]!);
    }
    return out;
  }
}
