// The summary's orders are those the venue got: an order cancelled before it was sent is not one (the summary said orders=2 for one order on the venue).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtherTrader, ROOT, startStrategy, until } from './scenario.ts';

describe('summary orders', () => {
  it('counts the order sent and not the one cancelled before it was sent', async () => {
    const symbol = 'BTC-PERP-REV';
    const use = join(ROOT, 'test/strategy/fixtures/place-and-cancel.ts');
    const { app } = await startStrategy({ id: 'pc', use, symbols: [symbol], params: { price: '29000.00' } });
    try {
      await new OtherTrader(app).show(symbol, '29990.00', '30010.00', '1000');
      await until(app, () => app.executor.orders().some((o) => o.phase === 'NEW') && app.executor.orders().some((o) => o.outcome === 'not-placed'), 'one order resting, one never sent');
      const sim = app.embedded!.venue.backend.venue;
      expect(sim.openContractOrders(sim.accountOf(sim.user('demo'), 3), { symbol })).toHaveLength(1);
      expect(app.summary().find((s) => s.id === 'pc')?.orders).toBe(1);
    } finally {
      await app.stop('test over');
    }
  }, 120_000);
});
