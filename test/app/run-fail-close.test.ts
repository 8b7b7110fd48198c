// A strategy that fails still runs its stop(), and docs/strategies.md lets a stop() place a closing order: the close goes out and the run ends flat on the venue.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtherTrader, ROOT, startStrategy } from './scenario.ts';

describe('run: a failed strategy\'s stop()', () => {
  it('sends the closePosition its stop() makes after the failure, so the run that stops for it ends flat', async () => {
    const symbol = 'BTC-PERP-REV';
    const use = join(ROOT, 'test/strategy/fixtures/close-on-stop.ts');
    const { app, lines } = await startStrategy({ id: 'failer', use, symbols: [symbol], params: { quantity: '5', failWhileLong: true } });
    try {
      const other = new OtherTrader(app);
      await other.show(symbol, '29990.00', '30010.00', '1000');
      // The strategy fails once it is long; with none left running the run stops by itself.
      await app.done;
      expect(app.host.status()[0]).toMatchObject({ state: 'failed', error: 'boom while long' });
      expect(lines.filter((l) => l['msg'] === 'strategy stop handler threw')).toEqual([]);
      const sim = app.embedded!.venue.backend.venue;
      const account = sim.accountOf(sim.user('demo'), 3);
      expect(sim.positions(account, { symbol }).filter((p) => p.position !== '0')).toEqual([]);
      const summary = lines.find((l) => typeof l['msg'] === 'string' && l['msg'].startsWith('summary failer'))?.['msg'];
      expect(summary).toMatch(/ fills=2 .* open=none$/);
      expect(app.exitCode()).toBe(1);
    } finally {
      await app.stop('test over');
    }
  }, 120_000);
});
