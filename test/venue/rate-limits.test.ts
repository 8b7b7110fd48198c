// Rate budgets and clock offset through the client over HTTP, on the virtual clock: ORDERS per second, 429 pauses, 418 bans, -1021 resync.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { BannedError, BudgetExceededError, UnknownOutcomeError } from '../../src/core/errors.ts';
import { VenueRateLimitError, VenueRejectedError } from '../../src/venue/errors.ts';
import { VenueRestClient, type RestClientOptions } from '../../src/venue/rest-client.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { errorAnswer, FixtureServer } from './fixture-server.ts';

const T0 = 1_700_000_000_000;
const NEW_ORDER = 'POST /openapi/v1/order';
const order = (i: number) => ({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.1', newClientOrderId: `c-${i}` }) as const;

describe('rate budgets and clock offset over HTTP', () => {
  let clock: VirtualClock;
  let server: FixtureServer;
  let client: VenueRestClient;

  function makeClient(extra: Partial<RestClientOptions> = {}): VenueRestClient {
    return new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock, ...extra });
  }

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    server = await FixtureServer.start({ now: () => clock.now() });
    client = makeClient();
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('25 placements asked within one second under ORDERS 20/s go out as 20, then 5 a second later', async () => {
    const info = await client.brokerInfo();
    client.applyRateLimits(info.rateLimits);
    expect(client.budgets.describe()).toEqual({ 'REQUEST_WEIGHT/MINUTE': 1500, 'ORDERS/SECOND': 20, 'ORDERS/DAY': 350000 });
    const base = server.received.length;
    await clock.advance(400);
    const results = Array.from({ length: 25 }, (_, i) => client.newSpotOrder(order(i)));
    await server.waitForRequests(base + 20);
    await clock.advance(999);
    const placed = server.received.slice(base);
    expect(placed).toHaveLength(20);
    expect(placed.every((r) => r.at === T0 + 400 && r.params['timestamp'] === String(T0 + 400))).toBe(true);
    await clock.advance(1);
    await server.waitForRequests(base + 25);
    await Promise.all(results);
    const late = server.received.slice(base + 20);
    expect(late.map((r) => r.at)).toEqual(Array(5).fill(T0 + 1400));
    expect(late.map((r) => r.params['newClientOrderId'])).toEqual(['c-20', 'c-21', 'c-22', 'c-23', 'c-24']);
  });

  it('in fail-fast mode the 21st placement in a second throws BudgetExceededError and is not sent', async () => {
    await client.close();
    client = makeClient({ budgets: { mode: 'fail-fast' } });
    for (let i = 0; i < 20; i++) await client.newSpotOrder(order(i));
    const err = await client.newSpotOrder(order(20)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ budget: 'ORDERS/SECOND', waitMs: 1000 });
    expect(server.received).toHaveLength(20);
  });

  it('a 429 with Retry-After pauses the request budget for exactly that time', async () => {
    server.fail('GET /openapi/v1/account', { kind: 'status', ...errorAnswer(-1003, 'Too many requests, current limit is 1500 requests per MINUTE .', 429), headers: { 'retry-after': '3', error_code: '-1003' } });
    const err = await client.spotAccount().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueRateLimitError);
    expect(err).toMatchObject({ venueCode: -1003, httpStatus: 429, retryAfterMs: 3000, retry: 'rate-limit' });
    const next = client.ping();
    await clock.advance(2_999);
    expect(server.received).toHaveLength(1);
    await clock.advance(1);
    await next;
    expect(server.received).toHaveLength(2);
    expect(server.received[1]!.at).toBe(T0 + 3_000);
  });

  it('a 429 -1015 on a placement is an unknown outcome and pauses ORDERS only, with back-off when no Retry-After', async () => {
    server.fail(NEW_ORDER, { kind: 'status', ...errorAnswer(-1015, 'Too many new orders; current limit is 20 orders per SECOND.', 429) });
    const err = await client.newSpotOrder(order(0)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect((err as Error).cause).toMatchObject({ venueCode: -1015, retry: 'rate-limit' });
    const placement = client.newSpotOrder(order(0));
    await client.spotAccount();
    expect(server.received.map((r) => r.key)).toEqual([NEW_ORDER, 'GET /openapi/v1/account']);
    await clock.advance(1_000);
    await placement;
    expect(server.received.at(-1)).toMatchObject({ key: NEW_ORDER, at: T0 + 1_000 });
  });

  it('a 418 stops signed calls until the ban ends (from Retry-After) and says until when', async () => {
    server.fail('GET /openapi/contract/v1/positions', { kind: 'status', status: 418, headers: { 'retry-after': '120' } });
    const err = await client.contractPositions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BannedError);
    expect((err as BannedError).until).toBe(T0 + 120_000);
    await expect(client.spotAccount()).rejects.toMatchObject({ until: T0 + 120_000 });
    await expect(client.newSpotOrder(order(1))).rejects.toBeInstanceOf(BannedError);
    expect(server.received).toHaveLength(1);
    await client.ping();
    expect(server.received).toHaveLength(2);
    await clock.advance(119_999);
    await expect(client.spotAccount()).rejects.toBeInstanceOf(BannedError);
    await clock.advance(1);
    await client.spotAccount();
    expect(server.received.at(-1)!.key).toBe('GET /openapi/v1/account');
  });

  it('-1021 refreshes the clock offset from /time and retries the placement once with the same client order id', async () => {
    server.skewMs = 10_000;
    const ack = await client.newSpotOrder(order(7));
    expect(ack.orderId).toBe('28');
    expect(server.received.map((r) => [r.key, r.refusedWith])).toEqual([[NEW_ORDER, -1021], ['GET /openapi/v1/time', undefined], [NEW_ORDER, undefined]]);
    expect(server.received[2]!.params['newClientOrderId']).toBe('c-7');
    expect(server.received[2]!.params['timestamp']).toBe(String(T0 + 10_000));
    expect(client.clockOffsetMs()).toBe(10_000);
  });

  it('a second -1021 in a row is thrown, not retried again', async () => {
    server.fail(NEW_ORDER, { kind: 'status', ...errorAnswer(-1021, 'Timestamp for this request is outside of the recvWindow.') }, 2);
    const err = await client.newSpotOrder(order(8)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueRejectedError);
    expect(err).toMatchObject({ venueCode: -1021 });
    expect(server.received.map((r) => r.key)).toEqual([NEW_ORDER, 'GET /openapi/v1/time', NEW_ORDER]);
  });

  it('syncTime takes serverTime against the midpoint of the round trip', async () => {
    server.skewMs = -2_500;
    expect(await client.syncTime()).toBe(-2_500);
  });
});
