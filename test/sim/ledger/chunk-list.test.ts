// ChunkList: the chunked list behind the flow, trade and order logs keeps order across chunk boundaries and drops from the front.
import { describe, expect, it } from 'vitest';
import { ChunkList } from '../../../src/sim/ledger/chunk-list.ts';

describe('ChunkList', () => {
  it('holds what was pushed in order across chunks, replaces in place and drops from the front', () => {
    const l = new ChunkList<number>();
    const ref: number[] = [];
    for (let i = 0; i < 5000; i++) {
      l.push(i * 3);
      ref.push(i * 3);
    }
    expect(l.length).toBe(5000);
    expect(l.at(0)).toBe(0);
    expect(l.at(1023)).toBe(3069);
    expect(l.at(1024)).toBe(3072);
    l.set(2048, -1);
    ref[2048] = -1;
    l.dropFront(1500);
    ref.splice(0, 1500);
    expect(l.length).toBe(3500);
    expect(l.toArray()).toEqual(ref);
    for (let i = 0; i < 3000; i++) {
      l.push(i);
      ref.push(i);
    }
    l.dropFront(2100);
    ref.splice(0, 2100);
    expect(l.toArray()).toEqual(ref);
    expect(l.at(l.length - 1)).toBe(2999);
    l.dropFront(10_000);
    expect(l.length).toBe(0);
    l.push(7);
    expect(l.toArray()).toEqual([7]);
  });
});
