// The same end-to-end runs with the venue's faults on: a dropped user stream, reordered reports, a 504 after the order was taken, a 429 storm. The bot still ends equal to the venue, with no duplicate order and no ban.
import { describe, expect, it } from 'vitest';
import type { RunningApp } from '../../src/app/run.ts';
import { setFaults, settleAndCompare, startStrategy, type Comparison } from './scenario.ts';

const MM = { id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { spreadTicks: 4, requoteTicks: 2, refreshMs: 200 } };
const TREND = { id: 'trend', use: '../strategies/trend-follower.ts', symbols: ['BTC-PERP-REV'], params: { fast: 2, slow: 4, barMs: 150, contracts: '5' } };

/** Resolves after `n` fill reports of the bot's orders, or rejects after `ms` with the status line. */
function fills(app: RunningApp, n: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => { off(); reject(new Error(`only ${seen} of ${n} fills within ${ms} ms; status: ${app.status()}`)); }, ms);
    const off = app.bus.subscribe('order', (ev) => {
      if (ev.status !== 'PARTIALLY_FILLED' && ev.status !== 'FILLED') return;
      seen += 1;
      if (seen >= n) { clearTimeout(timer); off(); resolve(); }
    });
  });
}

function expectEqual(cmp: Comparison): void {
  expect(cmp.filled).toBeGreaterThan(0);
  expect(cmp.openDiff).toEqual([]);
  expect(cmp.orderDiff).toEqual([]);
  expect(cmp.balanceDiff).toEqual([]);
  expect(cmp.positionDiff).toEqual([]);
  expect(cmp.duplicateClientIds).toEqual([]);
}

describe('end to end with faults on', () => {
  it('a user stream dropped mid-run: the client reconnects, the executor reconciles, nothing is lost', async () => {
    const { app } = await startStrategy(MM);
    try {
      await fills(app, 1, 20_000);
      const reconnected = new Promise<void>((r) => { const off = app.bus.subscribe('reconnected', (ev) => { if (ev.connection === 'user') { off(); r(); } }); });
      expect(app.embedded!.venue.server.userStreams.dropAll()).toBeGreaterThan(0);
      await reconnected;
      await fills(app, 2, 20_000);
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 60_000);

  it('reordered order reports: no order moves backwards and the end state matches', async () => {
    const { app } = await startStrategy(MM);
    try {
      setFaults(app, { userStreamReorder: { count: 0, rate: 0.5 } });
      await fills(app, 3, 20_000);
      expect(app.embedded!.venue.server.faults.fired.userStreamReorder).toBeGreaterThan(0);
      setFaults(app, {});
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 60_000);

  it.each([['spot', MM], ['contract', TREND]] as const)('a 504 after the %s order was taken: settled by query, no duplicate order on the venue', async (_kind, entry) => {
    const { app } = await startStrategy(entry);
    try {
      setFaults(app, { orderTimeoutAfter: { count: 3, rate: 0 } });
      await fills(app, 2, 20_000);
      expect(app.embedded!.venue.server.faults.fired.orderTimeoutAfter).toBeGreaterThan(0);
      // Every placed order is on the venue exactly once (orderDiff, duplicateClientIds): nothing was sent again under a new id.
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 60_000);

  it('a 429 storm: the bot backs off and is never banned (no 418)', async () => {
    const { app, lines } = await startStrategy(MM);
    try {
      await fills(app, 1, 20_000);
      setFaults(app, { rateLimitStorm: { count: 8, rate: 0 } });
      await fills(app, 2, 30_000);
      const server = app.embedded!.venue.server;
      expect(server.faults.fired.rateLimitStorm).toBeGreaterThan(1);
      for (const client of ['127.0.0.1', '::ffff:127.0.0.1']) expect(server.limiter.bannedUntil(client)).toBe(0);
      expect(lines.filter((l) => JSON.stringify(l).includes('BANNED') || l['status'] === 418)).toEqual([]);
      setFaults(app, {});
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 60_000);
});
