// A 10-minute virtual-time run of the market maker on the embedded venue holds flat memory: every structure of the executor that grows with traffic stays within its bound.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../src/app/config.ts';
import { startApp } from '../../src/app/run.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import type { ExecutorFootprint } from '../../src/execution/index.ts';
import { loadVenueConfig, type VenueConfig } from '../../src/sim/server/config.ts';
import { keptLogger, ROOT } from './scenario.ts';

/** config/venue.yaml with its market agents on (a market that moves and trades), acting a little faster. */
function tradingVenue(): VenueConfig {
  const c = loadVenueConfig(join(ROOT, 'config/venue.yaml'));
  return { ...c, agents: c.agents.map((a) => ({ ...a, everyMs: a.kind === 'maker' ? 300 : 250 })) };
}

describe('market maker over 10 minutes of virtual time', () => {
  it('keeps what the executor holds flat: finished orders within orderHistory, fills folded at each reconciliation', async () => {
    const clock = new VirtualClock(1_700_000_000_000);
    const { log } = keptLogger();
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [{ id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { quantity: '0.002', spreadTicks: 4, requoteTicks: 2, refreshMs: 200, orderRate: { perSecond: 5, perMinute: 200 } } }],
      risk: { strategy: { orderRate: { perSecond: 5, perMinute: 200 } } },
      orderHistory: { maxOrders: 100, maxAge: '2m' },
      reconcile: { every: '30s' }, status: { every: '1h' }, log: { level: 'warn' },
    });
    const app = await startApp({ config, baseDir: join(ROOT, 'config') }, { log, clock, venueConfig: tradingVenue() });
    const samples: ExecutorFootprint[] = [];
    try {
      const start = clock.now();
      for (let minute = 1; minute <= 10; minute++) {
        while (clock.now() - start < minute * 60_000) await clock.advance(100);
        samples.push(app.executor.footprint());
      }
      const placed = app.executor.footprint();
      // It traded: more orders finished than the history keeps.
      expect(placed.ordersFinished).toBe(100);
      for (const s of samples.slice(2)) {
        expect(s.ordersFinished).toBeLessThanOrEqual(100);
        expect(s.feedFinished).toBeLessThanOrEqual(100);
        expect(s.ordersLive).toBeLessThanOrEqual(10);
        expect(s.queued + s.inFlight + s.sentAt + s.misses + s.retries + s.foreign).toBeLessThanOrEqual(20);
        expect(s.tradeIds).toBeLessThanOrEqual(10_000);
      }
      // The fills counted since the last snapshot do not pile up: a reconciliation every 30 s folds them in.
      const pending = samples.map((s) => s.pendingFills);
      expect(Math.max(...pending.slice(5))).toBeLessThanOrEqual(Math.max(...pending.slice(0, 5)) * 2 + 50);
    } finally {
      await app.stop('test over');
    }
  }, 300_000);
});
