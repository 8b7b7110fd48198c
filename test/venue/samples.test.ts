// Every published response sample that belongs to a REST endpoint, served over HTTP and parsed by the client into the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { allEndpoints } from '../../src/venue/catalogue.ts';
import { endpointKey } from '../../src/venue/endpoint.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { allSamples, type Sample } from '../fixtures/samples.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { FixtureServer } from './fixture-server.ts';

const REST = allSamples().filter((s) => s.endpoint !== null && !s.endpoint.startsWith('WS '));

/** No sample was published for these; the fixture server's answers for them are documented where it builds them. */
const WITHOUT_SAMPLE = ['GET /openapi/v1/withdraw/detail', 'GET /openapi/quote/v1/contract/ticker/24hr'];

function endpointFor(s: Sample) {
  const eps = allEndpoints().filter((e) => endpointKey(e) === s.endpoint);
  if (eps.length > 1) return eps.find((e) => (s.name.startsWith('transfer-pending') ? e.name === 'transferPending' : e.name === 'transferInternal'))!;
  return eps[0];
}

describe('published samples through the client', () => {
  const clock = new VirtualClock(1_700_000_000_000);
  let server: FixtureServer;
  let client: VenueRestClient;

  beforeAll(async () => {
    server = await FixtureServer.start({ now: () => clock.now() });
    client = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('every REST sample belongs to a catalogue endpoint, and every endpoint but two has a sample', () => {
    expect(REST.length).toBeGreaterThan(60);
    for (const s of REST) expect(endpointFor(s), `${s.name}: ${s.endpoint}`).toBeDefined();
    const covered = new Set(REST.map((s) => s.endpoint));
    const missing = allEndpoints().map(endpointKey).filter((k) => !covered.has(k));
    expect([...new Set(missing)].sort()).toEqual([...WITHOUT_SAMPLE].sort());
  });

  for (const s of REST) {
    it(`${s.name} (${s.endpoint}) parses into the model`, async () => {
      const ep = endpointFor(s)!;
      server.answer(s.endpoint!, s.name);
      const value = await client.call(ep, {});
      expect(value).toEqual(ep.parse(s.payload));
      expect(server.received.at(-1)!.refusedWith).toBeUndefined();
    });
  }
});
