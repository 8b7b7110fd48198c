// A closePosition sent from the onOrder that reports the opening fill closes that fill: the account's position already counts it (it was NO_POSITION held=0).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtherTrader, ROOT, startStrategy, until } from './scenario.ts';

describe('closePosition inside the handler of the fill it closes', () => {
  it('closes the long the FILLED order just opened, and the run ends flat', async () => {
    const symbol = 'BTC-PERP-REV';
    const use = join(ROOT, 'test/strategy/fixtures/close-on-fill.ts');
    const { app, lines } = await startStrategy({ id: 'flip', use, symbols: [symbol], params: { quantity: '5' } });
    try {
      const other = new OtherTrader(app);
      await other.show(symbol, '29990.00', '30010.00', '1000');
      const denials = (): unknown[] => lines.filter((l) => l['code'] !== undefined && l['strategy'] === 'flip').map((l) => l['msg']);
      const closed = (): boolean => app.executor.orders().some((o) => o.side === 'SELL_CLOSE' && o.phase === 'FILLED');
      await until(app, () => closed() || denials().length > 0, 'the close filled or refused');
      expect(denials()).toEqual([]);
      const sim = app.embedded!.venue.backend.venue;
      expect(sim.positions(sim.accountOf(sim.user('demo'), 3), { symbol }).filter((p) => p.position !== '0')).toEqual([]);
    } finally {
      await app.stop('test over');
    }
  }, 120_000);
});
