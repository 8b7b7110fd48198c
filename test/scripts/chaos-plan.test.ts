// The chaos run's plan and config merge: every fault kind in each block of rounds, the same rounds for the same seed, and the examples' risk limits combined for one bot.
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, faultPlan, type Round } from '../../scripts/chaos/plan.ts';
import { mergeRiskSymbols } from '../../scripts/chaos/setup.ts';

const take = (g: Generator<Round>, n: number): Round[] => Array.from({ length: n }, () => g.next().value as Round);

describe('the chaos plan', () => {
  it('runs every kind once per block, in a seeded order', () => {
    const rounds = take(faultPlan(3, FAULT_KINDS), FAULT_KINDS.length * 3);
    for (let b = 0; b < 3; b++) {
      expect(rounds.slice(b * FAULT_KINDS.length, (b + 1) * FAULT_KINDS.length).map((r) => r.kind).sort()).toEqual([...FAULT_KINDS].sort());
    }
    expect(take(faultPlan(3, FAULT_KINDS), 30)).toEqual(rounds);
    expect(take(faultPlan(4, FAULT_KINDS), 30)).not.toEqual(rounds);
    for (const r of rounds) expect(r.gapMs).toBeGreaterThanOrEqual(500);
  });

  it('merges the examples\' risk limits for one bot: open orders add up, the larger position holds', () => {
    const merged = mergeRiskSymbols([
      { BTCUSDT: { maxPosition: '12', maxOpenOrders: 10 } },
      { BTCUSDT: { maxOpenOrders: 20, priceBandPct: '5' } },
      { 'BTC-PERP-REV': { maxPosition: '100', maxOpenOrders: 4 } },
    ]);
    expect(merged).toEqual({ BTCUSDT: { maxPosition: '12', maxOpenOrders: 30, priceBandPct: '5' }, 'BTC-PERP-REV': { maxPosition: '100', maxOpenOrders: 4 } });
  });
});
