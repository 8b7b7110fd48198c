// The key, the secret and signatures never reach a log line or an error's context.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/core/logger.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { FixtureServer } from './fixture-server.ts';

describe('secrets stay out of logs and errors', () => {
  const clock = new VirtualClock(1_700_000_000_000);
  const lines: string[] = [];
  let server: FixtureServer;
  let client: VenueRestClient;

  beforeAll(async () => {
    server = await FixtureServer.start({ now: () => clock.now() });
    const destination = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    client = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock, logger: createLogger({ destination, level: 'debug' }) });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('logs requests and failures at debug without the key, the secret or any signature', async () => {
    await client.getSpotOrder({ orderId: '1' });
    await client.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.1' });
    server.fail('GET /openapi/v1/openOrders', { kind: 'drop' });
    const err = await client.openSpotOrders({ symbol: 'ETHBTC' }).catch((e: unknown) => e);
    const out = lines.join('');
    expect(out).toContain('/openapi/v1/order?orderId=1');
    expect(out).toContain('signature=[Redacted]');
    const signatures = server.received.map((r) => r.params['signature']!);
    const errText = JSON.stringify((err as { context: unknown }).context) + String((err as Error).message);
    for (const secret of [DEMO_API_KEY, DEMO_SECRET, ...signatures]) {
      expect(out).not.toContain(secret);
      expect(errText).not.toContain(secret);
    }
    expect(JSON.stringify(client)).not.toMatch(new RegExp(`${DEMO_SECRET}|${DEMO_API_KEY}`));
  });
});
