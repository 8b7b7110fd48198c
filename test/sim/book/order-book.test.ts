// The order book's matching rules: price-time priority, partial fills, quote budgets, FOK feasibility, self-trade expiry, level bookkeeping.
import { describe, expect, it } from 'vitest';
import { ASK, BID, OrderBook, type BookEntry, type BookSide, type MatchRequest } from '../../../src/sim/book/order-book.ts';

function entry(id: string, side: BookSide, price: number, lots: number, owner = 1): BookEntry & { id: string } {
  return { id, bookSide: side, priceTicks: price, owner, leaves: lots, prev: null, next: null, level: null };
}

function run(book: OrderBook, req: Partial<MatchRequest> & { side: BookSide }): { fills: [string, number, number][]; expired: string[]; filled: number } {
  const fills: [string, number, number][] = [];
  const expired: string[] = [];
  const filled = book.match(
    { limit: req.side === BID ? Infinity : 0, maxLots: Infinity, maxQuote: Infinity, owner: 99, ...req },
    (m, lots, price) => fills.push([(m as BookEntry & { id: string }).id, lots, price]),
    (m) => expired.push((m as BookEntry & { id: string }).id),
  );
  return { fills, expired, filled };
}

describe('OrderBook', () => {
  it('fills the best price first and, within a price, the oldest order first', () => {
    const b = new OrderBook();
    b.add(entry('a1', ASK, 101, 5));
    b.add(entry('a2', ASK, 100, 3));
    b.add(entry('a3', ASK, 100, 4));
    const r = run(b, { side: BID, limit: 101, maxLots: 10 });
    expect(r.fills).toEqual([['a2', 3, 100], ['a3', 4, 100], ['a1', 3, 101]]);
    expect(b.levels(ASK, 10)).toEqual([[101, 2]]);
  });

  it('stops at the limit price and leaves worse levels alone', () => {
    const b = new OrderBook();
    b.add(entry('b1', BID, 99, 5));
    b.add(entry('b2', BID, 98, 5));
    const r = run(b, { side: ASK, limit: 99, maxLots: 8 });
    expect(r.filled).toBe(5);
    expect(b.bestBid()).toBe(98);
  });

  it('spends a quote budget lot by lot and stops where not one more lot is affordable', () => {
    const b = new OrderBook();
    b.add(entry('a1', ASK, 100, 2));
    b.add(entry('a2', ASK, 150, 10));
    const r = run(b, { side: BID, maxQuote: 200 + 150 * 3 + 149 });
    expect(r.fills).toEqual([['a1', 2, 100], ['a2', 3, 150]]);
  });

  it('expires resting orders of the taker\'s own owner and keeps matching behind them', () => {
    const b = new OrderBook();
    b.add(entry('mine', ASK, 100, 5, 7));
    b.add(entry('other', ASK, 100, 5, 8));
    const r = run(b, { side: BID, limit: 100, maxLots: 5, owner: 7 });
    expect(r.expired).toEqual(['mine']);
    expect(r.fills).toEqual([['other', 5, 100]]);
    expect(b.levelCount(ASK)).toBe(0);
  });

  it('counts fillable lots for FOK without the taker\'s own orders and without changing the book', () => {
    const b = new OrderBook();
    b.add(entry('mine', ASK, 100, 5, 7));
    b.add(entry('other', ASK, 101, 4, 8));
    expect(b.fillable({ side: BID, limit: 101, maxLots: 9, maxQuote: Infinity, owner: 7 })).toBe(4);
    expect(b.fillable({ side: BID, limit: 101, maxLots: 9, maxQuote: Infinity, owner: 1 })).toBe(9);
    expect(b.levels(ASK, 5)).toEqual([[100, 5], [101, 4]]);
  });

  it('cancels from the middle of a queue in place and drops a level when it empties', () => {
    const b = new OrderBook();
    const xs = [entry('x1', BID, 50, 1), entry('x2', BID, 50, 2), entry('x3', BID, 50, 3), entry('y', BID, 40, 1)];
    xs.forEach((x) => b.add(x));
    b.remove(xs[1]!);
    expect(b.levels(BID, 5)).toEqual([[50, 4], [40, 1]]);
    expect([...b.entries(BID)].map((e) => (e as BookEntry & { id: string }).id)).toEqual(['x1', 'x3', 'y']);
    b.remove(xs[0]!);
    b.remove(xs[2]!);
    expect(b.levels(BID, 5)).toEqual([[40, 1]]);
  });

  it('keeps bid and ask ladders sorted for prices arriving in any order and reports each touched level once', () => {
    const b = new OrderBook();
    for (const p of [5, 9, 1, 7, 3]) b.add(entry(`b${p}`, BID, p, 1));
    for (const p of [15, 11, 19, 13]) b.add(entry(`a${p}`, ASK, p, 1));
    expect(b.levels(BID, 10).map(([p]) => p)).toEqual([9, 7, 5, 3, 1]);
    expect(b.levels(ASK, 10).map(([p]) => p)).toEqual([11, 13, 15, 19]);
    b.drainTouched();
    run(b, { side: BID, limit: 13, maxLots: 2 });
    expect(b.drainTouched()).toEqual([ASK, 11, ASK, 13]);
    expect(b.wouldCross(BID, 15)).toBe(true);
    expect(b.wouldCross(BID, 14)).toBe(false);
  });
});
