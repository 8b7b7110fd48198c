// The batch replay's book side keeps exactly the levels a plain map would, with the right best price, through growth and many removals.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/random.ts';
import { TickSide } from '../../src/data/tick-book.ts';

describe('a book side of the batch replay', () => {
  it('holds the same levels and best price as a map after every change of a long random walk', () => {
    const rng = new Rng(11);
    for (const dir of [1, -1] as const) {
      const side = new TickSide(dir, 8);
      const ref = new Map<number, number>();
      let mid = 6_180_000;
      for (let step = 0; step < 60_000; step++) {
        if (step % 500 === 0) mid += rng.int(-300, 300);
        // Mostly near the mid, sometimes far away or beyond 2^32 ticks; a third of the changes remove a level.
        const far = rng.next() < 0.01;
        const price = far ? rng.int(0, 2 ** 40) : mid + rng.int(-200, 200);
        const lots = rng.next() < 0.33 ? 0 : rng.int(1, 5_000_000);
        side.set(price, lots);
        if (lots === 0) ref.delete(price);
        else ref.set(price, lots);
        if (step % 97 === 0 || step > 59_900) {
          const keys = [...ref.keys()];
          expect(side.size).toBe(ref.size);
          expect(side.best()).toBe(keys.length === 0 ? NaN : dir > 0 ? Math.min(...keys) : Math.max(...keys));
          expect(side.get(price)).toBe(lots);
        }
      }
      expect(side.prices().sort((a, b) => a - b)).toEqual([...ref.keys()].sort((a, b) => a - b));
      for (const [p, q] of ref) expect(side.get(p)).toBe(q);
      side.clear();
      expect([side.size, side.best(), side.prices()]).toEqual([0, NaN, []]);
    }
  });
});
