// Each example strategy trades on the simulated venue's server over loopback (its market made by another account) and ends with orders, balances and positions equal to the venue's.
import { describe, expect, it } from 'vitest';
import { fillSpot, fillTrend, HANG_MS, OtherTrader, settleAndCompare, startStrategy } from './scenario.ts';

const CASES = [
  { name: 'market maker', entry: { id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { spreadTicks: 4, requoteTicks: 2, refreshMs: 200 } } },
  { name: 'grid', entry: { id: 'grid', use: '../strategies/grid.ts', symbols: ['BTCUSDT'], params: { levels: 3, stepTicks: 3 } } },
  { name: 'trend follower', entry: { id: 'trend', use: '../strategies/trend-follower.ts', symbols: ['BTC-PERP-REV'], params: { fast: 2, slow: 4, barMs: 150, contracts: '5' } } },
];

describe('example strategies against the simulated venue over loopback', () => {
  for (const c of CASES) {
    it(`${c.name}: trades, then local orders, balances and positions equal the venue's`, async () => {
      const { app, lines } = await startStrategy(c.entry);
      try {
        const other = new OtherTrader(app);
        const symbol = c.entry.symbols[0]!;
        await (c.name === 'trend follower' ? fillTrend(app, other, symbol, 2) : fillSpot(app, other, symbol, 2));
        const cmp = await settleAndCompare(app);
        expect(cmp.filled).toBeGreaterThan(0);
        expect(cmp.openDiff).toEqual([]);
        expect(cmp.orderDiff).toEqual([]);
        expect(cmp.balanceDiff).toEqual([]);
        expect(cmp.positionDiff).toEqual([]);
        expect(cmp.duplicateClientIds).toEqual([]);
        expect(lines.filter((l) => l['msg'] === 'strategy threw: stopped; the other strategies go on')).toEqual([]);
      } finally {
        await app.stop('test over');
      }
    }, 3 * HANG_MS);
  }
});
