// The engine's id sequence: ids are start + n as decimal strings, and offsetOf turns an id back into n (and nothing else into anything).
import { describe, expect, it } from 'vitest';
import { IdSequence } from '../../../src/sim/engine/ids.ts';

describe('IdSequence', () => {
  it('hands out start + n and finds n again, across blocks and past the fast range', () => {
    for (const start of [1_000_000_000_000_000_001n, 428_100_569_859_739_648n, 5n, 999_999_999_999_999_990n]) {
      const ids = new IdSequence(start);
      for (let n = 0; n < 2500; n++) {
        const id = ids.take();
        expect(id).toBe((start + BigInt(n)).toString());
        expect(ids.offsetOf(id)).toBe(n);
      }
      expect(ids.peek()).toBe((start + 2500n).toString());
    }
  });

  it('answers -1 for ids it did not hand out and for text that is not an id', () => {
    const ids = new IdSequence(1_000_000_000_000_000_001n);
    ids.take();
    for (const bad of ['1000000000000000002', '1000000000000000000', '42', '', 'abc', '10000000000000000x1', '01000000000000000001', '-1']) expect(ids.offsetOf(bad)).toBe(-1);
  });
});
