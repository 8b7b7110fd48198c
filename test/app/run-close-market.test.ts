// A contract closePosition without a price closes at market: what the book cannot take at once is cancelled, never left resting at the venue's MARKET band price (5% through the last price), where the next buyer would take it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtherTrader, ROOT, startStrategy, until } from './scenario.ts';

describe('run: a contract closePosition at market', () => {
  it('sells what the bids take and cancels the rest instead of resting it at the band price', async () => {
    const symbol = 'BTC-PERP-REV';
    const use = join(ROOT, 'test/strategy/fixtures/close-at-market.ts');
    const { app } = await startStrategy({ id: 'closer', use, symbols: [symbol], params: { quantity: '5', closeAtBid: '29995' } });
    try {
      const other = new OtherTrader(app);
      await other.show(symbol, '29990.00', '30010.00', '1000');
      const held = (): string | undefined => app.summary().find((s) => s.id === 'closer')?.positions.find((p) => p.symbol === symbol)?.qty;
      await until(app, () => held() === '5', 'long 5');
      // Bids for 2 contracts only: the close sells 2.
      await other.show(symbol, '29995.00', '30010.00', '2');
      const close = () => app.executor.orders().find((o) => o.side === 'SELL_CLOSE');
      await until(app, () => close() !== undefined && (close()!.phase === 'CANCELED' || close()!.phase === 'FILLED' || close()!.executedQty === '2'), 'the close answered and 2 sold');
      await until(app, () => close()!.phase === 'CANCELED', 'the rest of the close cancelled');
      expect(close()).toMatchObject({ executedQty: '2' });
      const sim = app.embedded!.venue.backend.venue;
      const account = sim.accountOf(sim.user('demo'), 3);
      expect(sim.openContractOrders(account, { symbol })).toEqual([]);
      expect(held()).toBe('3');
    } finally {
      await app.stop('test over');
    }
  }, 120_000);
});
