// A graceful stop under 429s: the stop waits for its cancels through the rate budget, leaves no order on the venue, logs "stopped" and the process exits 0 (it exited 13 when the clock's unref'd timers let the event loop run dry mid-stop).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../src/app/config.ts';
import { startApp } from '../../src/app/run.ts';
import { LiveClock } from '../../src/core/clock.ts';
import { loadVenueConfig } from '../../src/sim/server/config.ts';
import { startVenue } from '../../src/sim/server/start.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { keptLogger } from './scenario.ts';

const ROOT = join(import.meta.dirname, '../..');

/** Runs a script under tsx and resolves with its exit code and stdout lines once it exits. */
function runScript(path: string): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, lines: out.split('\n').filter((l) => l.length > 0) }));
  });
}

describe('stop under 429', () => {
  it('cancels every resting order through two injected 429s, logs stopped, and exits 0', async () => {
    const { code, lines } = await runScript(join(ROOT, 'test/app/fixtures/stop-under-429.ts'));
    const json = lines.flatMap((l) => { try { return [JSON.parse(l) as Record<string, unknown>]; } catch { return []; } });
    const result = json.find((j) => j['result'] === 'done');
    expect({ code, result }).toEqual({ code: 0, result: { result: 'done', fired: 2, open: [] } });
    expect(json.some((j) => j['msg'] === 'stopped')).toBe(true);
  }, 120_000);
});

describe('stop with adopted orders', () => {
  it('leaves an order the run did not place working on the venue, and says so by id', async () => {
    const clock = new LiveClock();
    const venueConfig = loadVenueConfig(join(ROOT, 'config/venue.yaml'));
    const venue = await startVenue({ config: { ...venueConfig, agents: [] }, clock, host: '127.0.0.1', port: 0 });
    try {
      const key = venueConfig.accounts.find((a) => a.name === 'demo')!.keys[0]!;
      const endpoint = { rest: venue.server.restUrl, ws: venue.server.wsUrl, apiKey: key.apiKey, secret: key.secret };
      const rest = new VenueRestClient({ baseUrl: endpoint.rest, apiKey: endpoint.apiKey, secret: endpoint.secret, clock });
      await rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '10000', quantity: '0.001', newClientOrderId: 'by-hand-1' });
      const { log, lines } = keptLogger();
      const config = parseRunConfig({
        venue: endpoint,
        strategies: [{ id: 'grid', use: '../strategies/grid.ts', symbols: ['BTCUSDT'], params: { levels: 1 } }],
        reconcile: { every: '1h', unknownOrders: 'adopt' },
      });
      const app = await startApp({ config, baseDir: join(ROOT, 'config') }, { log, clock });
      expect(app.executor.orders().filter((o) => o.adopted).map((o) => o.clientOrderId)).toEqual(['by-hand-1']);
      await app.stop('test over');
      expect(lines.filter((l) => l['level'] === 40 && Array.isArray(l['adopted'])).map((l) => l['adopted'])).toEqual([['by-hand-1']]);
      expect((await rest.openSpotOrders({ symbol: 'BTCUSDT' })).map((o) => o.clientOrderId)).toEqual(['by-hand-1']);
    } finally {
      await venue.stop();
    }
  }, 60_000);
});
