// The same end-to-end runs (the market made by another account) with the venue's faults on: a dropped user stream, reordered reports, a 504 after the order was taken, a 429 storm. The bot still ends equal to the venue, with no duplicate order and no ban.
import { describe, expect, it } from 'vitest';
import type { RunningApp } from '../../src/app/run.ts';
import { fillSpot, fillTrend, HANG_MS, OtherTrader, setFaults, settleAndCompare, startStrategy, type Comparison } from './scenario.ts';

const MM = { id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { spreadTicks: 4, requoteTicks: 2, refreshMs: 200 } };
const TREND = { id: 'trend', use: '../strategies/trend-follower.ts', symbols: ['BTC-PERP-REV'], params: { fast: 2, slow: 4, barMs: 150, contracts: '5' } };

/** Resolves after `n` more fill reports of the bot's orders, the other account making the market of the entry's symbol. */
function fills(app: RunningApp, other: OtherTrader, entry: typeof MM | typeof TREND, n: number): Promise<void> {
  return entry === TREND ? fillTrend(app, other, entry.symbols[0]!, n) : fillSpot(app, other, entry.symbols[0]!, n);
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
    const other = new OtherTrader(app);
    try {
      await fills(app, other, MM, 1);
      const reconnected = new Promise<void>((r) => { const off = app.bus.subscribe('reconnected', (ev) => { if (ev.connection === 'user') { off(); r(); } }); });
      expect(app.embedded!.venue.server.userStreams.dropAll()).toBeGreaterThan(0);
      await reconnected;
      await fills(app, other, MM, 2);
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 3 * HANG_MS);

  it('reordered order reports: no order moves backwards and the end state matches', async () => {
    const { app } = await startStrategy(MM);
    const other = new OtherTrader(app);
    try {
      // Counted, not a rate: the first reports are held and swapped whatever the run's timing.
      setFaults(app, { userStreamReorder: { count: 6, rate: 0.5 } });
      await fills(app, other, MM, 3);
      expect(app.embedded!.venue.server.faults.fired.userStreamReorder).toBeGreaterThan(0);
      setFaults(app, {});
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 3 * HANG_MS);

  it.each([['spot', MM], ['contract', TREND]] as const)('a 504 after the %s order was taken: settled by query, no duplicate order on the venue', async (_kind, entry) => {
    const { app } = await startStrategy(entry);
    const other = new OtherTrader(app);
    try {
      setFaults(app, { orderTimeoutAfter: { count: 3, rate: 0 } });
      await fills(app, other, entry, 2);
      expect(app.embedded!.venue.server.faults.fired.orderTimeoutAfter).toBeGreaterThan(0);
      // Every placed order is on the venue exactly once (orderDiff, duplicateClientIds): nothing was sent again under a new id.
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 3 * HANG_MS);

  it('a 429 storm: the bot backs off and is never banned (no 418)', async () => {
    const { app, lines } = await startStrategy(MM);
    const other = new OtherTrader(app);
    try {
      await fills(app, other, MM, 1);
      setFaults(app, { rateLimitStorm: { count: 8, rate: 0 } });
      await fills(app, other, MM, 2);
      const server = app.embedded!.venue.server;
      expect(server.faults.fired.rateLimitStorm).toBeGreaterThan(1);
      for (const client of ['127.0.0.1', '::ffff:127.0.0.1']) expect(server.limiter.bannedUntil(client)).toBe(0);
      expect(lines.filter((l) => JSON.stringify(l).includes('BANNED') || l['status'] === 418)).toEqual([]);
      setFaults(app, {});
      expectEqual(await settleAndCompare(app));
    } finally {
      await app.stop('test over');
    }
  }, 3 * HANG_MS);
});
