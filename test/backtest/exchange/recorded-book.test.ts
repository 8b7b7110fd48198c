// The recorded book marks what recorded trades took: levels better than a trade's price whole, its own price up to the trade's size, nothing for a trade that does not reach the best.
import { describe, expect, it } from 'vitest';
import { RecordedBook } from '../../../src/backtest/index.ts';

const BID = 0;
const ASK = 1;

/** A book whose asks sit at 1000, 1100, 1200 and 1300 ticks (10 lots each) and whose bids at 900, 800 and 700. */
function book(): RecordedBook {
  const b = new RecordedBook();
  for (const p of [1000, 1100, 1200, 1300]) b.setLevel(ASK, p, 10);
  for (const p of [900, 800, 700]) b.setLevel(BID, p, 10);
  return b;
}

describe('a recorded trade far from the best', () => {
  it('takes every ask level better than its price whole and its own price up to its size, however far it reaches', () => {
    const b = book();
    b.takeThrough(ASK, 1200, 4);
    expect([1000, 1100, 1200, 1300].map((p) => b.available(ASK, p))).toEqual([0, 0, 6, 10]);
    expect(b.recorded(ASK, 1000)).toBe(10);
  });

  it('takes bid levels down to its price the same way', () => {
    const b = book();
    b.takeThrough(BID, 700, 3);
    expect([900, 800, 700].map((p) => b.available(BID, p))).toEqual([0, 0, 7]);
  });

  it('takes nothing when its price does not reach the best (the recording has not caught up)', () => {
    const b = book();
    b.takeThrough(ASK, 900, 5);
    b.takeThrough(BID, 1000, 5);
    b.takeThrough(ASK, 850, 5);
    expect([1000, 1100, 1200, 1300].map((p) => b.available(ASK, p))).toEqual([10, 10, 10, 10]);
    expect([900, 800, 700].map((p) => b.available(BID, p))).toEqual([10, 10, 10]);
  });

  it('gives the level back once the recording changes it', () => {
    const b = book();
    b.takeThrough(ASK, 1300, 10);
    b.setLevel(ASK, 1100, 25);
    expect([1000, 1100, 1200, 1300].map((p) => b.available(ASK, p))).toEqual([0, 25, 0, 0]);
  });
});
