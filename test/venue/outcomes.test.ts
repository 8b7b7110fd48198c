// What a caller learns when a request goes wrong: unknown outcomes for lost writes (never retried), transport errors, malformed answers.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { ParseError, TransportError, UnknownOutcomeError, VenueError } from '../../src/core/errors.ts';
import { MalformedResponseError, VenueServerError } from '../../src/venue/errors.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { errorAnswer, FixtureServer } from './fixture-server.ts';

const T0 = 1_700_000_000_000;
const SPOT_ORDER = { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.1', newClientOrderId: 'cid-1' } as const;
const NEW_ORDER = 'POST /openapi/v1/order';

describe('outcomes of failed requests', () => {
  let clock: VirtualClock;
  let server: FixtureServer;
  let client: VenueRestClient;

  beforeEach(async () => {
    clock = new VirtualClock(T0);
    server = await FixtureServer.start({ now: () => clock.now() });
    client = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock, timeouts: { requestMs: 2_000 } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  function sentTo(key: string): number {
    return server.received.filter((r) => r.key === key).length;
  }

  it('a placement that gets no answer within the timeout is an unknown outcome, sent once', async () => {
    server.fail(NEW_ORDER, { kind: 'hang' });
    const result = client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    await server.waitForRequests(1);
    await clock.advance(1_999);
    expect(await Promise.race([result, Promise.resolve('pending')])).toBe('pending');
    await clock.advance(1);
    const err = await result;
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect((err as UnknownOutcomeError).retry).toBe('unknown');
    expect((err as UnknownOutcomeError).context['clientOrderId']).toBe('cid-1');
    expect(sentTo(NEW_ORDER)).toBe(1);
  });

  it('each request times out at its own deadline, also when an earlier request armed the timeout timer', async () => {
    await client.time();
    await clock.advance(1_000);
    server.fail(NEW_ORDER, { kind: 'hang' });
    const result = client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    await server.waitForRequests(2);
    await clock.advance(1_999);
    expect(await Promise.race([result, Promise.resolve('pending')])).toBe('pending');
    await clock.advance(1);
    expect(await result).toBeInstanceOf(UnknownOutcomeError);
  });

  it('a placement whose connection drops after sending is an unknown outcome, sent once', async () => {
    server.fail(NEW_ORDER, { kind: 'drop' });
    const err = await client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect(sentTo(NEW_ORDER)).toBe(1);
  });

  it.each([
    ['500 with -1001', 500, JSON.stringify({ code: -1001, msg: 'Internal error.' })],
    ['502 with an HTML page', 502, '<html>Bad Gateway</html>'],
    ['504 (sent, no answer in time)', 504, ''],
  ])('a placement answered %s is an unknown outcome, never a rejection, sent once', async (_label, status, body) => {
    server.fail(NEW_ORDER, { kind: 'status', status, body });
    const err = await client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect(err).not.toBeInstanceOf(VenueError);
    expect(sentTo(NEW_ORDER)).toBe(1);
    if (status === 500) expect((err as Error).cause).toMatchObject({ venueCode: -1001, httpStatus: 500 });
  });

  it('a contract placement and a cancel answered 5xx or cut are unknown outcomes too', async () => {
    server.fail('POST /openapi/contract/v1/order', { kind: 'status', status: 503 });
    await expect(client.newContractOrder({ clientOrderId: 'c-1', symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', quantity: '5', price: '8200', leverage: '10' })).rejects.toBeInstanceOf(UnknownOutcomeError);
    server.fail('DELETE /openapi/v1/order', { kind: 'drop' });
    await expect(client.cancelSpotOrder({ orderId: '1' })).rejects.toBeInstanceOf(UnknownOutcomeError);
    server.fail('DELETE /openapi/contract/v1/order/cancel', { kind: 'status', status: 504 });
    await expect(client.cancelContractOrder({ clientOrderId: 'c-1' })).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(server.received.map((r) => r.key)).toEqual(['POST /openapi/contract/v1/order', 'DELETE /openapi/v1/order', 'DELETE /openapi/contract/v1/order/cancel']);
  });

  it('a read answered 5xx is a server error the caller may repeat; a dropped read is a transport error', async () => {
    server.fail('GET /openapi/v1/order', { kind: 'status', status: 500, body: JSON.stringify({ code: -1001, msg: 'Internal error.' }) });
    const err = await client.getSpotOrder({ orderId: '1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueServerError);
    expect(err).toMatchObject({ retry: 'transport', httpStatus: 500 });
    server.fail('GET /openapi/v1/openOrders', { kind: 'drop' });
    await expect(client.openSpotOrders()).rejects.toBeInstanceOf(TransportError);
  });

  it('malformed JSON is a typed error: unknown outcome for a placement, MalformedResponseError for a read', async () => {
    server.fail(NEW_ORDER, { kind: 'malformed' });
    const err = await client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect((err as Error).cause).toBeInstanceOf(MalformedResponseError);
    server.fail('GET /openapi/v1/account', { kind: 'malformed', text: '{"balances":[' });
    await expect(client.spotAccount()).rejects.toBeInstanceOf(MalformedResponseError);
  });

  it('an answer that does not fit the model is a ParseError on a read and an unknown outcome on a placement', async () => {
    server.answer('GET /openapi/v1/account', () => ({ status: 200, body: '{"balances":[{"asset":"BTC"}]}' }));
    await expect(client.spotAccount()).rejects.toBeInstanceOf(ParseError);
    server.answer(NEW_ORDER, () => ({ status: 200, body: '{"symbol":"ETHBTC"}' }));
    await expect(client.newSpotOrder(SPOT_ORDER)).rejects.toBeInstanceOf(UnknownOutcomeError);
  });

  it('-1006 or -1146 on a placement is an unknown outcome; the venue code is kept as the cause', async () => {
    server.answer(NEW_ORDER, () => errorAnswer(-1146, 'Order creation timeout'));
    const err = await client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect((err as Error).cause).toMatchObject({ venueCode: -1146, retry: 'unknown', httpStatus: 400 });
    expect(sentTo(NEW_ORDER)).toBe(1);
  });
});

describe('a connection refused before anything was written', () => {
  it('is a TransportError (safe to retry), even for a placement', async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = new VenueRestClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock: new VirtualClock(T0) });
    const err = await client.newSpotOrder(SPOT_ORDER).catch((e: unknown) => e);
    await client.close();
    expect(err).toBeInstanceOf(TransportError);
    expect(err).toMatchObject({ retry: 'transport' });
    expect((err as Error).message).toContain('nothing was sent');
  });
});
