// The venue's admin parts the chaos run needs: duplicated user-stream reports, an expiry of every listenKey, and GET /admin/audit (conservation, repeated ids, bans).
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { openWs, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

async function admin(v: TestVenue, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await request(`${v.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: r.statusCode, json: await r.body.json() };
}

const order = (id: string) => ({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01', newClientOrderId: id });

describe('the chaos run\'s admin routes', () => {
  it('send a user-stream report twice under userStreamDuplicate', async () => {
    t = await startTest();
    const key = (await signed(t.url, 'POST', '/openapi/v1/userDataStream', {})).json.listenKey as string;
    const s = await openWs(`${t.ws}/openapi/ws/${key}`);
    expect((await admin(t, 'POST', '/admin/faults', { userStreamDuplicate: { count: 1 } })).status).toBe(200);
    await signed(t.url, 'POST', '/openapi/v1/order', order('twice'));
    await signed(t.url, 'POST', '/openapi/v1/order', order('once'));
    await s.next((f) => f.e === 'executionReport' && f.c === 'once');
    const reports = s.frames.filter((f) => f.e === 'executionReport').map((f) => f.c as string);
    expect(reports).toEqual(['twice', 'twice', 'once']);
    expect(t.venue.server.faults.fired.userStreamDuplicate).toBe(1);
  });

  it('expire every listenKey at once: its stream closes and the key is refused afterwards', async () => {
    t = await startTest();
    const key = (await signed(t.url, 'POST', '/openapi/v1/userDataStream', {})).json.listenKey as string;
    const s = await openWs(`${t.ws}/openapi/ws/${key}`);
    const r = await admin(t, 'POST', '/admin/listenKeys/expire');
    expect(r).toEqual({ status: 200, json: { expired: 1 } });
    expect(await s.closed).toBe(1000);
    expect(t.venue.server.listenKeys.userOf(key)).toBeUndefined();
    await expect(openWs(`${t.ws}/openapi/ws/${key}`)).rejects.toThrow();
  });

  it('audit: money conserved, no repeated ids, bans counted', async () => {
    t = await startTest();
    for (const id of ['a1', 'a2']) expect((await signed(t.url, 'POST', '/openapi/v1/order', order(id))).status).toBe(200);
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order('a1'))).status).toBe(400);
    const a = (await admin(t, 'GET', '/admin/audit')).json;
    expect(a.conserved).toBe(true);
    expect(a.assets.length).toBeGreaterThan(0);
    expect(a.duplicateOrderIds).toEqual([]);
    expect(a.duplicateClientOrderIds).toEqual([]);
    expect(a.bans).toBe(0);
    const demo = (await admin(t, 'GET', '/admin/audit?user=demo')).json.user;
    expect(demo.openOrders).toEqual({ ETHBTC: 2 });
    expect(demo.lastOrderTime).toBe(t.clock.now());
    expect(demo.lastOrderTimeByTag).toEqual({ a1: t.clock.now(), a2: t.clock.now() });
    expect(demo.openOrdersByTag).toEqual({ a1: 1, a2: 1 });
    expect((await admin(t, 'GET', '/admin/audit?user=nobody')).status).toBe(404);
    // A client that comes back inside the wait of a 429 is banned: the audit counts it.
    await admin(t, 'POST', '/admin/faults', { rateLimitStorm: { count: 1 } });
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {})).status).toBe(429);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {})).status).toBe(418);
    expect((await admin(t, 'GET', '/admin/audit')).json.bans).toBe(1);
  });
});
