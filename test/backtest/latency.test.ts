// Order latency models: constant, seeded draws that repeat for a seed, and recorded round trips.
import { describe, expect, it } from 'vitest';
import { constantLatency, linkLatency, recordedLatency } from '../../src/backtest/exchange/latency.ts';

describe('latency models', () => {
  it('constant', () => {
    const m = constantLatency(4, 7);
    expect([m.entry(0), m.response(100)]).toEqual([4, 7]);
    expect(() => constantLatency(-1, 0)).toThrow(/latency.entry/);
  });

  it('drawn: the same seed gives the same latencies, another seed others, within the spec', () => {
    const draw = (seed: number) => {
      const m = linkLatency({ min: 2, max: 6 }, { base: 10, meanExtra: 5 }, seed);
      return Array.from({ length: 200 }, (_, i) => [m.entry(i), m.response(i)] as const);
    };
    const a = draw(1);
    expect(draw(1)).toEqual(a);
    expect(draw(2)).not.toEqual(a);
    expect(a.every(([e]) => e >= 2 && e <= 6)).toBe(true);
    // Base 10 plus an exponential tail of mean 5: never below the base, mean about 15.
    const r = a.map(([, x]) => x);
    expect(Math.min(...r)).toBeGreaterThanOrEqual(10);
    const mean = r.reduce((s, x) => s + x, 0) / r.length;
    expect(mean).toBeGreaterThan(13);
    expect(mean).toBeLessThan(17);
  });

  it('recorded: each order takes the latest trip sent before it, each report the latest trip stamped before it', () => {
    const m = recordedLatency([
      { request: 100, exchange: 103, response: 110 },
      { request: 0, exchange: 5, response: 6 },
      { request: 200, exchange: 220, response: 221 },
    ]);
    expect([m.entry(-5), m.entry(0), m.entry(150), m.entry(500)]).toEqual([5, 5, 3, 20]);
    expect([m.response(4), m.response(104), m.response(230)]).toEqual([1, 7, 1]);
    expect(() => recordedLatency([])).toThrow(/at least one/);
    expect(() => recordedLatency([{ request: 5, exchange: 4, response: 6 }])).toThrow(/request <= exchange <= response/);
  });
});
