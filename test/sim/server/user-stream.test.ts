import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { KEY, openWs, SECRET, send, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

const TAKER = { key: 'B'.repeat(64), secret: 'taker-secret-00000001' };
const twoAccounts = {
  accounts: [
    { name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], balances: { spot: { ETH: '10', BTC: '1' } } },
    { name: 'taker', keys: [{ apiKey: TAKER.key, secret: TAKER.secret }], balances: { spot: { BTC: '5' } } },
  ],
};

async function listenKey(v: TestVenue, o: { key?: string; secret?: string } = {}): Promise<string> {
  const r = await signed(v.url, 'POST', '/openapi/v1/userDataStream', {}, o);
  expect(r.status).toBe(200);
  return r.json.listenKey as string;
}

describe('listenKeys on the virtual clock', () => {
  it('lives 60 minutes, is extended by keepalive, then expires and closes its stream', async () => {
    t = await startTest();
    const v = t;
    const key = await listenKey(v);
    expect(key).toMatch(/^[A-Za-z]{64}$/);
    const a = await openWs(`${v.ws}/openapi/ws/${key}`);
    await v.clock.advance(59 * 60_000);
    expect((await signed(v.url, 'PUT', '/openapi/v1/userDataStream', { listenKey: key }, { timestamp: v.clock.now() })).json).toEqual({});
    await v.clock.advance(59 * 60_000);
    const b = await openWs(`${v.ws}/openapi/ws/${key}`);
    b.ws.close();
    await v.clock.advance(2 * 60_000);
    expect(await a.closed).toBe(1000);
    const refused = new WebSocket(`${v.ws}/openapi/ws/${key}`);
    const status = await new Promise<number>((resolve) => refused.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(400);
  });

  it('answers {} to keepalive and close of an unknown key, and closes the stream on DELETE', async () => {
    t = await startTest();
    expect((await signed(t.url, 'PUT', '/openapi/v1/userDataStream', { listenKey: 'x'.repeat(64) })).json).toEqual({});
    expect((await signed(t.url, 'DELETE', '/openapi/v1/userDataStream', { listenKey: 'x'.repeat(64) })).json).toEqual({});
    const key = await listenKey(t);
    const s = await openWs(`${t.ws}/openapi/ws/${key}`);
    expect((await signed(t.url, 'DELETE', '/openapi/v1/userDataStream', { listenKey: key })).json).toEqual({});
    expect(await s.closed).toBe(1000);
  });

  it('pings every 30 s and answers client pings', async () => {
    t = await startTest();
    const v = t;
    const s = await openWs(`${v.ws}/openapi/ws/${await listenKey(v)}`);
    await v.clock.advance(30_000);
    expect(await s.next((f) => 'ping' in f)).toEqual({ ping: v.clock.now() });
    s.ws.send(JSON.stringify({ ping: 12345 }));
    expect(await s.next((f) => 'pong' in f)).toEqual({ pong: 12345 });
  });

  it('closes a connection at 24 hours even while its key is kept alive', async () => {
    const cfg = { pingIntervalMs: 3_600_000, connectionCapMs: 86_400_000, listenKeyValidityMs: 3_600_000 };
    t = await startTest({ server: { ...(await import('./helpers.ts')).testConfig().server, userStream: cfg } });
    const v = t;
    const key = await listenKey(v);
    const s = await openWs(`${v.ws}/openapi/ws/${key}`);
    for (let h = 0; h < 24; h++) {
      await v.clock.advance(50 * 60_000);
      expect((await signed(v.url, 'PUT', '/openapi/v1/userDataStream', { listenKey: key }, { timestamp: v.clock.now() })).json).toEqual({});
      await v.clock.advance(10 * 60_000);
    }
    expect(await s.closed).toBe(1000);
  });
});

describe('user stream reports', () => {
  it('sends NEW, the fill with its fields, and the balance change, typed as the published samples', async () => {
    t = await startTest(twoAccounts);
    const v = t;
    const s = await openWs(`${v.ws}/openapi/ws/${await listenKey(v)}`);
    const sell = await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.05', newClientOrderId: 'sell-1' });
    expect(sell.status).toBe(200);
    const created = await s.next((f) => f.e === 'executionReport' && f.X === 'NEW');
    expect(Object.keys(created).sort()).toEqual(['E', 'L', 'N', 'O', 'S', 'X', 'Z', 'c', 'e', 'f', 'i', 'l', 'm', 'n', 'o', 'p', 'q', 's', 'u', 'w', 'z'].sort());
    expect(created).toMatchObject({ s: 'ETHBTC', c: 'sell-1', S: 'SELL', o: 'LIMIT', f: 'GTC', q: '2', p: '0.05', i: sell.json.orderId, l: '0', z: '0', N: null, w: true });
    expect(typeof created.E).toBe('string');
    expect(typeof created.O).toBe('string');
    await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '2', price: '0.05' }, TAKER);
    const filled = await s.next((f) => f.e === 'executionReport' && f.X === 'FILLED');
    expect(filled).toMatchObject({ i: sell.json.orderId, l: '2', z: '2', L: '0.05', n: '0.0001', N: 'BTC', m: true, w: false, Z: '0.1' });
    const acct = await s.next((f) => f.e === 'outboundAccountInfo');
    expect(acct).toMatchObject({ T: true, W: true, D: true });
    expect(typeof acct.E).toBe('string');
    const byAsset = Object.fromEntries((acct.B as { a: string; f: string; l: string }[]).map((b) => [b.a, b]));
    expect(byAsset['ETH']).toEqual({ a: 'ETH', f: '8', l: '0' });
    expect(byAsset['BTC']).toEqual({ a: 'BTC', f: '1.0999', l: '0' });
  });

  it('sends contract reports and position updates for a contract fill', async () => {
    t = await startTest({
      accounts: [
        { name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], balances: { contract: { BTC: '1' } } },
        { name: 'taker', keys: [{ apiKey: TAKER.key, secret: TAKER.secret }], balances: { contract: { BTC: '1' } } },
      ],
    });
    const v = t;
    const s = await openWs(`${v.ws}/openapi/ws/${await listenKey(v)}`);
    const open = { symbol: 'BTC-PERP-REV', orderType: 'LIMIT', quantity: '100', price: '30000', leverage: '10' };
    const mine = await signed(v.url, 'POST', '/openapi/contract/v1/order', { ...open, side: 'BUY_OPEN', clientOrderId: 'long-1' });
    expect(mine.status, mine.text).toBe(200);
    const theirs = await signed(v.url, 'POST', '/openapi/contract/v1/order', { ...open, side: 'SELL_OPEN', clientOrderId: 'short-1' }, TAKER);
    expect(theirs.status, theirs.text).toBe(200);
    const rep = await s.next((f) => f.e === 'contractExecutionReport' && f.X === 'FILLED');
    expect(rep).toMatchObject({ s: 'BTC-PERP-REV', c: 'long-1', S: 'BUY', X: 'FILLED', l: '100', z: '100', L: '30000', C: false, v: '10', i: mine.json.orderId });
    const pos = await s.next((f) => f.e === 'outboundContractPositionInfo');
    expect(Object.keys(pos).sort()).toEqual(['A', 'P', 'S', 'a', 'e', 'f', 'm', 'p', 'r', 's']);
    expect(pos).toMatchObject({ s: 'BTC-PERP-REV', S: 'LONG', P: '100', a: '100', p: '30000' });
    const acct = await s.next((f) => f.e === 'outboundContractAccountInfo');
    expect(acct.B.some((b: { a: string }) => b.a === 'BTC')).toBe(true);
  });
});

describe('websocket upgrade refusals', () => {
  it('refuses unknown stream paths', async () => {
    t = await startTest();
    const r = await send(t.url, 'GET', '/openapi/ws/');
    expect(r.status).toBe(404);
  });
});
