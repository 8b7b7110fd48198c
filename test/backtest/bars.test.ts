// Bar mode: the path through a bar and how orders fill along it, by hand.
import { describe, expect, it } from 'vitest';
import { barPath, barVisibleAt, fillOnBar, fillsOnBar, type Bar } from '../../src/backtest/bars.ts';

const H = 3_600_000;
const bar = (open: number, high: number, low: number, close: number): Bar => ({ openTime: 0, closeTime: H, open, high, low, close });

describe('bar path', () => {
  it('goes open, nearer extreme, other extreme, close', () => {
    expect(barPath(bar(100, 103, 90, 95))).toEqual([100, 103, 90, 95]);
    expect(barPath(bar(100, 110, 98, 105))).toEqual([100, 98, 110, 105]);
    // A tie goes against the bar's direction first: low first in a rising bar, high first in a falling one.
    expect(barPath(bar(100, 105, 95, 104))).toEqual([100, 95, 105, 104]);
    expect(barPath(bar(100, 105, 95, 96))).toEqual([100, 105, 95, 96]);
    expect(barVisibleAt(bar(100, 105, 95, 96))).toBe(H);
  });

  it('fills limits at their price when touched, market orders at the open', () => {
    const b = bar(100, 103, 90, 95); // 100 → 103 → 90 → 95
    expect(fillOnBar(b, { id: 'm', side: 'BUY', type: 'MARKET' })).toEqual({ id: 'm', priceTicks: 100, leg: 0, isMaker: false });
    expect(fillOnBar(b, { id: 'l', side: 'BUY', type: 'LIMIT', priceTicks: 92 })).toEqual({ id: 'l', priceTicks: 92, leg: 2, isMaker: true });
    expect(fillOnBar(b, { id: 's', side: 'SELL', type: 'LIMIT', priceTicks: 103 })).toEqual({ id: 's', priceTicks: 103, leg: 1, isMaker: true });
    expect(fillOnBar(b, { id: 'x', side: 'SELL', type: 'LIMIT', priceTicks: 104 })).toBeUndefined();
    // Already through at the open: it takes at the open.
    expect(fillOnBar(b, { id: 'o', side: 'BUY', type: 'LIMIT', priceTicks: 101 })).toEqual({ id: 'o', priceTicks: 100, leg: 0, isMaker: false });
  });

  it('fills stops at the trigger, or at the open across a gap', () => {
    const b = bar(100, 103, 90, 95);
    expect(fillOnBar(b, { id: 'ss', side: 'SELL', type: 'STOP', triggerTicks: 94 })).toEqual({ id: 'ss', priceTicks: 94, leg: 2, isMaker: false });
    expect(fillOnBar(b, { id: 'bs', side: 'BUY', type: 'STOP', triggerTicks: 102 })).toEqual({ id: 'bs', priceTicks: 102, leg: 1, isMaker: false });
    // A gap: the bar opens below a sell stop at 105, which fills at the open.
    expect(fillOnBar(b, { id: 'gap', side: 'SELL', type: 'STOP', triggerTicks: 105 })).toEqual({ id: 'gap', priceTicks: 100, leg: 0, isMaker: false });
    // A stop-limit triggered at 102 on the way up rests at 96 and fills on the way down.
    expect(fillOnBar(b, { id: 'sl', side: 'BUY', type: 'STOP', triggerTicks: 102, priceTicks: 96 })).toEqual({ id: 'sl', priceTicks: 96, leg: 2, isMaker: true });
    // The part of the leg before the trigger does not count: buy stop 102 limit 101 on 100 → 103 → 95 → 99 fills at 101 on the way down.
    expect(fillOnBar(bar(100, 103, 95, 99), { id: 'pre', side: 'BUY', type: 'STOP', triggerTicks: 102, priceTicks: 101 })).toEqual({ id: 'pre', priceTicks: 101, leg: 2, isMaker: true });
  });

  it('orders fills by where they happen on the path', () => {
    const b = bar(100, 103, 90, 95);
    const fills = fillsOnBar(b, [
      { id: 'late', side: 'BUY', type: 'LIMIT', priceTicks: 91 },
      { id: 'early', side: 'SELL', type: 'LIMIT', priceTicks: 102 },
      { id: 'open', side: 'BUY', type: 'MARKET' },
    ]);
    expect(fills.map((f) => f.id)).toEqual(['open', 'early', 'late']);
  });
});
