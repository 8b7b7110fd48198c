// The error table against venue-errors.md, and venue refusals over HTTP becoming typed errors with code, msg and status kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { ConfigError, VenueError } from '../../src/core/errors.ts';
import { VENUE_CODES, VenueAuthError, venueCodeInfo, venueErrorFor, VenueRateLimitError, VenueRejectedError, VenueUnknownStatusError } from '../../src/venue/errors.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { loadSample } from '../fixtures/samples.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { FixtureServer } from './fixture-server.ts';

const SPEC = readFileSync(join(import.meta.dirname, '../fixtures/spec/venue-errors.md'), 'utf8');

function rowsOf(heading: string): [number, string, string][] {
  const start = SPEC.indexOf(heading);
  const end = SPEC.indexOf('\n## ', start + heading.length);
  const rows: [number, string, string][] = [];
  for (const line of SPEC.slice(start, end).split('\n')) {
    const m = /^\| (-?\d+) \| (\w+) \| (.*) \|$/.exec(line);
    if (m) rows.push([Number(m[1]), m[2]!, m[3]!]);
  }
  return rows;
}

describe('the error table', () => {
  const rest = rowsOf('## Codes and messages the venue sends');
  const quote = rowsOf('## Market WebSocket error codes');

  it('holds every code of venue-errors.md with its name (or as an alias) and the first message listed', () => {
    expect(rest.length).toBeGreaterThan(100);
    for (const [code, name] of [...rest, ...quote]) {
      const info = venueCodeInfo(code);
      expect(info, `code ${code}`).toBeDefined();
      expect([info!.name, ...info!.aliases]).toContain(name);
      const first = [...rest, ...quote].find((r) => r[0] === code)!;
      expect(info!.name).toBe(first[1]);
      expect(info!.msg).toBe(first[2]);
    }
    expect(venueCodeInfo(-1131)!.msg).toBe('Balance insufficient ');
    expect(VENUE_CODES.size).toBe(new Set([...rest, ...quote].map((r) => r[0])).size);
  });

  it('keeps both meanings of the codes defined twice', () => {
    expect(venueCodeInfo(-1181)).toMatchObject({ name: 'WITHDRAW_NOT_ALLOW', aliases: ['THIRD_USER_EXIST'] });
    expect(venueCodeInfo(-1187)).toMatchObject({ name: 'WITHDRAW_ADDRESS_NOT_IN_WHITELIST', aliases: ['ERROR_BUSINESS_SUBJECT'] });
  });

  it.each([
    [-1131, VenueRejectedError, 'definite'],
    [-2013, VenueRejectedError, 'definite'],
    [-1021, VenueRejectedError, 'definite'],
    [-1002, VenueAuthError, 'auth'],
    [-1022, VenueAuthError, 'auth'],
    [-2015, VenueAuthError, 'auth'],
    [-1003, VenueRateLimitError, 'rate-limit'],
    [-1015, VenueRateLimitError, 'rate-limit'],
    [-1006, VenueUnknownStatusError, 'unknown'],
    [-1007, VenueUnknownStatusError, 'unknown'],
    [-1146, VenueUnknownStatusError, 'unknown'],
    [-1147, VenueUnknownStatusError, 'unknown'],
    [-99999, VenueRejectedError, 'definite'],
  ] as const)('code %i becomes %o with retry class %s', (code, cls, retry) => {
    const err = venueErrorFor(code, 'sent msg', { httpStatus: 400 });
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(VenueError);
    expect(err).toMatchObject({ venueCode: code, retry, httpStatus: 400 });
    expect(err.context['msg']).toBe('sent msg');
  });
});

describe('venue refusals over HTTP', () => {
  const clock = new VirtualClock(1_700_000_000_000);
  let server: FixtureServer;
  let client: VenueRestClient;

  beforeAll(async () => {
    server = await FixtureServer.start({ now: () => clock.now() });
    client = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock });
  });
  afterEach(() => server.reset());
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it.each([
    ['error-invalid-symbol.official', -1121, 'Invalid symbol.', 'VENUE_BAD_SYMBOL'],
    ['error-amount-below-minimum.capture-2024', -1140, 'Transaction amount lower than the minimum.', 'VENUE_ORDER_AMOUNT_TOO_SMALL'],
    ['error-invalid-type-param.capture-2024', -1130, "Data sent for paramter 'type' is not valid.", 'VENUE_INVALID_PARAMETER'],
  ])('the published error body %s becomes a definite rejection keeping code, msg and HTTP status', async (name, code, msg, errCode) => {
    const sample = loadSample(name);
    server.answer('POST /openapi/v1/order', () => ({ status: 400, body: sample.body, headers: { error_code: String(code) } }));
    const err = await client.newSpotOrder({ symbol: 'X', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueRejectedError);
    expect(err).toMatchObject({ venueCode: code, httpStatus: 400, retry: 'definite', code: errCode });
    expect((err as VenueError).context).toMatchObject({ msg, errorCodeHeader: String(code) });
  });

  it('the quote server’s -100012 on a market read is a definite rejection', async () => {
    const sample = loadSample('error-symbol-missing.capture-2024');
    server.answer('GET /openapi/quote/v1/depth', () => ({ status: 400, body: sample.body }));
    await expect(client.depth({ symbol: '' })).rejects.toMatchObject({ venueCode: -100012, retry: 'definite', httpStatus: 400 });
  });

  it('a wrong secret is -1022 from the server and an auth error here', async () => {
    const wrong = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: 'not-the-secret', clock });
    const err = await wrong.spotAccount().catch((e: unknown) => e);
    await wrong.close();
    expect(err).toBeInstanceOf(VenueAuthError);
    expect(err).toMatchObject({ venueCode: -1022, httpStatus: 400, retry: 'auth' });
    expect(server.received.at(-1)!.signatureOk).toBe(false);
  });

  it('a key shorter than 64 characters is -1002; another 64-character key is -2015', async () => {
    for (const [key, code] of [['short-key', -1002], ['x'.repeat(64), -2015]] as const) {
      const c = new VenueRestClient({ baseUrl: server.url, apiKey: key, secret: DEMO_SECRET, clock });
      const err = await c.contractPositions().catch((e: unknown) => e);
      await c.close();
      expect(err).toBeInstanceOf(VenueAuthError);
      expect(err).toMatchObject({ venueCode: code });
    }
  });

  it('signs correctly with every placement', async () => {
    for (const placement of ['query', 'body', 'split'] as const) {
      const c = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock, placement });
      await c.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1' });
      await c.close();
      const req = server.received.at(-1)!;
      expect(req.signatureOk).toBe(true);
      if (placement === 'split') expect(req.query).toBe('symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC');
      if (placement === 'query') expect(req.body).toBe('');
      if (placement === 'body') expect(req.query).toBe('');
    }
  });

  it('refuses bad input locally with an error naming the field and the rule, sending nothing', async () => {
    const before = server.received.length;
    await expect(client.getSpotOrder({} as never)).rejects.toThrow(/getSpotOrder\.params: one of orderId, clientOrderId, origClientOrderId must be given/);
    await expect(client.cancelContractOrder({ orderId: '' } as never)).rejects.toBeInstanceOf(ConfigError);
    const unsigned = new VenueRestClient({ baseUrl: server.url, clock });
    await expect(unsigned.spotAccount()).rejects.toThrow(/apiKey: spotAccount is a signed endpoint/);
    await unsigned.ping();
    await unsigned.close();
    expect(server.received.length).toBe(before + 1);
    expect(() => new VenueRestClient({ baseUrl: 'api.example.com', clock })).toThrow(/baseUrl: must be an absolute/);
    expect(() => new VenueRestClient({ baseUrl: server.url, clock, recvWindow: 0 })).toThrow(/recvWindow/);
    expect(() => new VenueRestClient({ baseUrl: server.url, clock, apiKey: DEMO_API_KEY })).toThrow(/apiKey and secret must be given together/);
  });
});
