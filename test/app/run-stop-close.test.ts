// A closing order a strategy places in its stop() goes out before the run's stop cancels: the position is closed on the venue and the summary leaves none open.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtherTrader, ROOT, startStrategy, until } from './scenario.ts';

describe('run stop: orders placed in stop()', () => {
  it('sends a closePosition made in stop() after the strategy\'s own cancel, so the run ends flat on the venue', async () => {
    const symbol = 'BTC-PERP-REV';
    const use = join(ROOT, 'test/strategy/fixtures/close-on-stop.ts');
    const { app, lines } = await startStrategy({ id: 'closer', use, symbols: [symbol], params: { quantity: '5', farBid: '28000.00' } });
    try {
      const other = new OtherTrader(app);
      await other.show(symbol, '29990.00', '30010.00', '1000');
      const held = (): string | undefined => app.summary().find((s) => s.id === 'closer')?.positions.find((p) => p.symbol === symbol)?.qty;
      await until(app, () => held() === '5' && app.executor.orders().some((o) => o.price.startsWith('28000') && o.phase === 'NEW'), 'long 5 and the far bid resting');
      await app.stop('test over');
      // The venue's own books, read in-process: the run's stop closed its server.
      const sim = app.embedded!.venue.backend.venue;
      const account = sim.accountOf(sim.user('demo'), 3);
      expect(sim.positions(account, { symbol }).filter((p) => p.position !== '0')).toEqual([]);
      expect(sim.openContractOrders(account, { symbol })).toEqual([]);
      const summary = lines.find((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('summary closer'))?.['msg'];
      expect(summary).toMatch(/ open=none$/);
    } finally {
      await app.stop('test over');
    }
  }, 120_000);
});
