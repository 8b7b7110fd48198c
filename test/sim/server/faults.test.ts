import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { loadSample } from '../../fixtures/samples.ts';
import { openWs, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

async function setFaults(v: TestVenue, body: unknown): Promise<number> {
  const r = await request(`${v.url}/admin/faults`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await r.body.text();
  return r.statusCode;
}

const order = (id: string) => ({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01', newClientOrderId: id });
async function openIds(v: TestVenue): Promise<string[]> {
  return ((await signed(v.url, 'GET', '/openapi/v1/openOrders', {})).json as { clientOrderId: string }[]).map((o) => o.clientOrderId);
}

describe('fault injection, switched on through the loopback admin route', () => {
  it('5xx before the order was taken, 5xx and 504 after it was taken', async () => {
    t = await startTest();
    expect(await setFaults(t, { orderErrorBefore: { count: 1 } })).toBe(200);
    const a = await signed(t.url, 'POST', '/openapi/v1/order', order('before'));
    expect(a.status).toBe(500);
    expect(a.json).toEqual({ code: -1001, msg: 'Internal error.' });
    expect(await openIds(t)).not.toContain('before');
    await setFaults(t, { orderErrorAfter: { count: 1 } });
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order('after'))).status).toBe(500);
    expect(await openIds(t)).toContain('after');
    await setFaults(t, { orderTimeoutAfter: { count: 1 } });
    const c = await signed(t.url, 'POST', '/openapi/v1/order', order('timeout'));
    expect(c.status).toBe(504);
    expect(c.json.code).toBe(-1007);
    expect(await openIds(t)).toContain('timeout');
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order('clean'))).status).toBe(200);
  });

  it('429 storms, and added latency on the venue clock', async () => {
    t = await startTest();
    await setFaults(t, { rateLimitStorm: { count: 2 } });
    const r = await signed(t.url, 'GET', '/openapi/v1/account', {});
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
    await t.clock.advance(1000);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {})).status).toBe(429);
    await t.clock.advance(1000);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {})).status).toBe(200);
    await setFaults(t, { latencyMs: 5000 });
    let done = false;
    const slow = signed(t.url, 'GET', '/openapi/v1/time', {}).then((x) => { done = true; return x; });
    await t.clock.advance(4000);
    expect(done).toBe(false);
    await t.clock.advance(1000);
    expect((await slow).status).toBe(200);
  });

  it('drops WebSocket connections, delays and reorders user-stream events', async () => {
    t = await startTest();
    const key = (await signed(t.url, 'POST', '/openapi/v1/userDataStream', {})).json.listenKey as string;
    const s = await openWs(`${t.ws}/openapi/ws/${key}`);
    await setFaults(t, { userStreamDelayMs: 2000, userStreamReorder: { count: 1 } });
    await signed(t.url, 'POST', '/openapi/v1/order', order('first'));
    await signed(t.url, 'POST', '/openapi/v1/order', order('second'));
    await t.clock.advance(1000);
    expect(s.frames.filter((f) => f.e === 'executionReport')).toEqual([]);
    await t.clock.advance(1000);
    await s.next((f) => f.e === 'executionReport' && f.c === 'second');
    // Sent in order these would be: report(first), account, report(second), account. The held report comes one frame late.
    expect(s.frames.slice(0, 3).map((f) => f.c ?? f.e)).toEqual(['outboundAccountInfo', 'first', 'second']);
    await setFaults(t, {});
    const dropped = await request(`${t.url}/admin/faults/drop`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(await dropped.body.json()).toEqual({ dropped: 1 });
    expect(await s.closed).toBe(1006);
  });

  it('sends a held user-stream event alone when its hold time on the clock ends and no next event came', async () => {
    t = await startTest();
    const key = (await signed(t.url, 'POST', '/openapi/v1/userDataStream', {})).json.listenKey as string;
    const s = await openWs(`${t.ws}/openapi/ws/${key}`);
    await setFaults(t, { userStreamReorder: { count: 1 }, userStreamReorderHoldMs: 500 });
    // The engine always follows a report with an account event; a lone last event is pushed as the engine's mapper would.
    const report = loadSample('ws-user-execution-report.official').payload;
    t.venue.server.userStreams.push(t.venue.server.listenKeys.userOf(key)!, report);
    await t.clock.advance(499);
    expect(s.frames).toEqual([]);
    await t.clock.advance(1);
    expect(await s.next((f) => f.e === 'executionReport')).toEqual(report);
    expect(t.venue.server.faults.fired.userStreamReorder).toBe(1);
    // A held event released early by the next one is not sent again when its hold time ends.
    await setFaults(t, { userStreamReorder: { count: 1 } });
    await signed(t.url, 'POST', '/openapi/v1/order', order('one'), { timestamp: t.clock.now() });
    await s.next((f) => f.e === 'executionReport' && f.c === 'one');
    await t.clock.advance(1000);
    s.ws.send(JSON.stringify({ ping: 7 }));
    await s.next((f) => f.pong === 7);
    expect(s.frames.slice(1).map((f) => f.c ?? f.e ?? 'pong')).toEqual(['outboundAccountInfo', 'one', 'pong']);
  });

  it('refuses bad fault settings with {code,msg}', async () => {
    t = await startTest();
    expect(await setFaults(t, { latencyMs: -1 })).toBe(400);
    expect(await setFaults(t, { nonsense: true })).toBe(400);
  });
});
