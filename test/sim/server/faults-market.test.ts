import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { KEY, openWs, SECRET, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

const accounts = {
  accounts: [{ name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], balances: { spot: { ETH: '100', BTC: '1' } } }],
};

async function admin(v: TestVenue, method: 'GET' | 'POST', body?: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await request(`${v.url}/admin/faults`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.statusCode, json: await r.body.json() };
}

/** Moves the ETHBTC book once per diff cadence, `n` times: a new ask level each time. */
async function moveBook(v: TestVenue, n: number, from = 0): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: `0.${500 + from + i}` }, { timestamp: v.clock.now() });
    expect(r.status).toBe(200);
    await v.clock.advance(300);
  }
}

/** Subscribes ETHBTC diffDepth and returns the socket once the snapshot is in. */
async function diffSocket(v: TestVenue) {
  const m = await openWs(`${v.ws}/openapi/quote/ws/v1`);
  m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'diffDepth', event: 'sub' }));
  await m.next((f) => f.topic === 'diffDepth' && f.f === true);
  return {
    ...m,
    /** Returns the versions of the diffs received so far, after a ping round trip flushed the socket. */
    async versions(): Promise<string[]> {
      const id = v.clock.now();
      m.ws.send(JSON.stringify({ ping: id }));
      await m.next((f) => f.pong === id);
      return m.frames.filter((f) => f.topic === 'diffDepth' && f.f === false).map((f) => f.data[0].v as string);
    },
  };
}

describe('market diff faults, off by default and switched on by the admin route', () => {
  it('are off by default and listed in the settings', async () => {
    t = await startTest(accounts);
    const got = await admin(t, 'GET');
    expect(got.json.settings).toMatchObject({ marketDiffDrop: { count: 0, rate: 0 }, marketDiffReorder: { count: 0, rate: 0 }, userStreamReorderHoldMs: 200 });
    expect(got.json.fired).toMatchObject({ marketDiffDrop: 0, marketDiffReorder: 0 });
    expect((await admin(t, 'POST', { marketDiffDrop: { count: -1 } })).status).toBe(400);
  });

  it('marketDiffDrop with a count drops the next diffs: the subscriber sees versions skip', async () => {
    t = await startTest(accounts);
    const m = await diffSocket(t);
    await moveBook(t, 1);
    expect((await admin(t, 'POST', { marketDiffDrop: { count: 2 } })).status).toBe(200);
    await moveBook(t, 4, 1);
    expect(await m.versions()).toEqual(['1_3', '4_3', '5_3']);
    const after = await admin(t, 'GET');
    expect(after.json.fired.marketDiffDrop).toBe(2);
    expect(after.json.settings.marketDiffDrop.count).toBe(0);
  });

  it('marketDiffDrop at a seeded rate drops about that share, each one a hole in the versions', async () => {
    t = await startTest(accounts);
    const m = await diffSocket(t);
    await admin(t, 'POST', { marketDiffDrop: { rate: 0.5 } });
    await moveBook(t, 30);
    const got = (await m.versions()).map((s) => Number(s.split('_')[0]));
    const fired = (await admin(t, 'GET')).json.fired.marketDiffDrop as number;
    expect(fired).toBeGreaterThan(5);
    expect(fired).toBeLessThan(25);
    expect(got.length + fired).toBe(30);
    const missing = Array.from({ length: 30 }, (_, i) => i + 1).filter((n) => !got.includes(n));
    expect(missing).toHaveLength(fired);
  });

  it('marketDiffReorder swaps a diff with the next one, and sends a held diff alone one cadence later when no next one comes', async () => {
    t = await startTest(accounts);
    const m = await diffSocket(t);
    await moveBook(t, 1);
    await admin(t, 'POST', { marketDiffReorder: { count: 1 } });
    await moveBook(t, 3, 1);
    expect(await m.versions()).toEqual(['1_3', '3_3', '2_3', '4_3']);
    await admin(t, 'POST', { marketDiffReorder: { count: 1 } });
    await moveBook(t, 1, 4);
    expect(await m.versions()).toEqual(['1_3', '3_3', '2_3', '4_3']);
    await t.clock.advance(300);
    expect(await m.versions()).toEqual(['1_3', '3_3', '2_3', '4_3', '5_3']);
    expect((await admin(t, 'GET')).json.fired.marketDiffReorder).toBe(2);
  });
});
