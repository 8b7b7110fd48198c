// Each example strategy trades on the simulated venue's server over loopback and ends with orders, balances and positions equal to the venue's.
import { describe, expect, it } from 'vitest';
import { settleAndCompare, startStrategy } from './scenario.ts';
import type { RunningApp } from '../../src/app/run.ts';

/** Resolves after `n` fills of the bot's own orders have been reported on the bus, or rejects after `ms`. */
function fills(app: RunningApp, n: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => { off(); reject(new Error(`only ${seen} of ${n} fills within ${ms} ms; status: ${app.status()}`)); }, ms);
    const off = app.bus.subscribe('order', (ev) => {
      if (ev.lastQty === '0' || Number.isNaN(Number(ev.lastQty)) || ev.status === 'NEW') return;
      seen += 1;
      if (seen >= n) { clearTimeout(timer); off(); resolve(); }
    });
  });
}

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
        await fills(app, 2, 20_000);
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
    }, 60_000);
  }
});
