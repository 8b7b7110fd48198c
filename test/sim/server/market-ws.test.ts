import { afterEach, describe, expect, it } from 'vitest';
import { KEY, openWs, SECRET, signed, startTest, testConfig, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

const TAKER = { key: 'B'.repeat(64), secret: 'taker-secret-00000001' };
const accounts = {
  accounts: [
    { name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], balances: { spot: { ETH: '10', BTC: '1' } } },
    { name: 'taker', keys: [{ apiKey: TAKER.key, secret: TAKER.secret }], balances: { spot: { BTC: '5' } } },
  ],
};

describe('market WebSocket at /openapi/quote/ws/v1', () => {
  it('answers sub with a snapshot flagged f:true echoing the id, then pushes depth on its cadence and trades as they happen', async () => {
    t = await startTest(accounts);
    const v = t;
    await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.05' });
    const m = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    m.ws.send(JSON.stringify({ id: 'd1', symbol: 'ETHBTC', topic: 'depth', event: 'sub', params: { binary: false } }));
    const snap = await m.next((f) => f.topic === 'depth');
    expect(snap).toMatchObject({ id: 'd1', symbol: 'ETHBTC', topic: 'depth', f: true, params: { binary: false } });
    expect(snap.data[0]).toMatchObject({ s: 'ETHBTC', a: [['0.05', '2']], b: [] });
    expect(typeof snap.data[0].t).toBe('number');
    m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'trade', event: 'sub' }));
    expect(await m.next((f) => f.topic === 'trade')).toMatchObject({ f: true, data: [] });
    await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.05' }, TAKER);
    const trade = await m.next((f) => f.topic === 'trade' && f.f === false);
    expect(trade.data).toHaveLength(1);
    expect(trade.data[0]).toMatchObject({ p: '0.05', q: '1', m: true });
    expect(typeof trade.data[0].v).toBe('string');
    await v.clock.advance(300);
    const push = await m.next((f) => f.topic === 'depth' && f.f === false);
    expect(push.data[0].a).toEqual([['0.05', '1']]);
  });

  it('pushes a book change on the depth cadence even when the faster merged-depth cadence passed in between', async () => {
    const server = { ...testConfig().server, depthPushMs: { spotDepth: 300, spotMergedDepth: 100, contractDepth: 3000, contractMergedDepth: 500 } };
    t = await startTest({ ...accounts, server });
    const v = t;
    const m = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'depth', event: 'sub' }));
    await m.next((f) => f.topic === 'depth' && f.f === true);
    await v.clock.advance(150);
    await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.05' });
    // The merged-depth push at 200 ms has nobody to send to; the depth push at 300 ms must still carry the change.
    await v.clock.advance(150);
    const push = await m.next((f) => f.topic === 'depth' && f.f === false);
    expect(push.data[0].a).toEqual([['0.05', '2']]);
  });

  it('serves kline, realtimes, diffDepth, bookTicker and index snapshots', async () => {
    t = await startTest(accounts);
    const v = t;
    await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.05' });
    await signed(v.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.05' }, TAKER);
    const m = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    for (const topic of ['kline_1m', 'realtimes', 'diffDepth', 'bookTicker']) m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic, event: 'sub' }));
    m.ws.send(JSON.stringify({ symbol: 'BTCUSDT', topic: 'index', event: 'sub' }));
    const k = await m.next((f) => f.topic === 'kline_1m');
    expect(k).toMatchObject({ f: true, params: { klineType: '1m' } });
    expect(k.data[0]).toMatchObject({ s: 'ETHBTC', o: '0.05', c: '0.05', v: '1' });
    const r = await m.next((f) => f.topic === 'realtimes');
    expect(r.data[0]).toMatchObject({ s: 'ETHBTC', c: '0.05', v: '1', qv: '0.05' });
    expect(typeof r.data[0].t).toBe('string');
    expect((await m.next((f) => f.topic === 'diffDepth')).data[0].a).toEqual([['0.05', '1']]);
    expect((await m.next((f) => f.topic === 'bookTicker')).data[0]).toMatchObject({ s: 'ETHBTC', a: '0.05', aq: '1' });
    expect((await m.next((f) => f.topic === 'index')).data[0]).toMatchObject({ symbol: 'BTCUSDT', index: '30000', edp: '30000' });
  });

  it('answers pings, sends error frames with string codes, and stops a cancelled topic', async () => {
    t = await startTest(accounts);
    const m = await openWs(`${t.ws}/openapi/quote/ws/v1`);
    m.ws.send(JSON.stringify({ ping: 1535975085052 }));
    expect(await m.next((f) => 'pong' in f)).toEqual({ pong: 1535975085052 });
    m.ws.send('not json');
    expect(await m.next((f) => 'code' in f)).toEqual({ code: '-10001', desc: 'Invalid JSON!' });
    m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'trade', event: 'subscribe' }));
    expect(await m.next((f) => 'code' in f)).toEqual({ code: '-10002', desc: 'Invalid event!' });
    m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'nope', event: 'sub' }));
    expect(await m.next((f) => 'code' in f)).toEqual({ code: '-10004', desc: 'Invalid topic!' });
    m.ws.send(JSON.stringify({ symbol: 'NOPE', topic: 'trade', event: 'sub' }));
    expect(await m.next((f) => 'code' in f)).toEqual({ code: '-100010', desc: 'Invalid Symbols!' });
    m.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'trade', event: 'sub' }));
    await m.next((f) => f.topic === 'trade');
    m.ws.send(JSON.stringify({ id: 'c1', symbol: 'ETHBTC', topic: 'trade', event: 'cancel' }));
    expect(await m.next((f) => f.id === 'c1')).toMatchObject({ code: '0' });
    const before = m.frames.length;
    await signed(t.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.05' });
    await signed(t.url, 'POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.05' }, TAKER);
    m.ws.send(JSON.stringify({ ping: 1 }));
    await m.next((f) => f.pong === 1);
    expect(m.frames.slice(before).filter((f) => f.topic === 'trade')).toEqual([]);
  });

  it('closes a connection that sends nothing for 5 minutes', async () => {
    t = await startTest(accounts);
    const m = await openWs(`${t.ws}/openapi/quote/ws/v1`);
    await t.clock.advance(4 * 60_000);
    m.ws.send(JSON.stringify({ ping: 1 }));
    await m.next((f) => f.pong === 1);
    await t.clock.advance(4 * 60_000);
    expect(m.ws.readyState).toBe(m.ws.OPEN);
    await t.clock.advance(2 * 60_000);
    expect(await m.closed).toBe(1000);
  });
});
