// The FIFO queue bounded histories forget their oldest entries with: first in, first out, and its storage follows what is queued, not what passed through.
import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/core/fifo.ts';

describe('Fifo', () => {
  it('gives items back in the order they came, and nothing once empty', () => {
    const q = new Fifo<string>();
    expect(q.peek()).toBeUndefined();
    expect(q.shift()).toBeUndefined();
    q.push('a');
    q.push('b');
    expect(q.peek()).toBe('a');
    expect(q.length).toBe(2);
    expect(q.shift()).toBe('a');
    q.push('c');
    expect([q.shift(), q.shift(), q.shift()]).toEqual(['b', 'c', undefined]);
    expect(q.length).toBe(0);
  });

  it('keeps its order across 200,000 items passing through a window of 10,000, holding at most twice the window', () => {
    const q = new Fifo<number>();
    let next = 0;
    let outOfOrder = 0;
    let largest = 0;
    for (let i = 0; i < 200_000; i++) {
      q.push(i);
      if (q.length > 10_000) {
        if (q.shift() !== next) outOfOrder += 1;
        next += 1;
      }
      // What the queue stores (its private array), not counting what it has handed out and not yet dropped.
      largest = Math.max(largest, (q as unknown as { items: number[] }).items.length);
    }
    expect(outOfOrder).toBe(0);
    expect(largest).toBeLessThanOrEqual(2 * 10_000 + 1_024);
    expect(q.length).toBe(10_000);
    expect(q.peek()).toBe(190_000);
  });
});
