import { afterEach, describe, expect, it } from 'vitest';
import { KEY, openWs, SECRET, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

const accounts = {
  accounts: [{ name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], balances: { spot: { ETH: '10', BTC: '1', USDT: '100000' } } }],
};
const sell = (v: TestVenue, symbol: string, qty: string, price: string) =>
  signed(v.url, 'POST', '/openapi/v1/order', { symbol, side: 'SELL', type: 'LIMIT', quantity: qty, price });
const diffs = (frames: { topic?: string; f?: boolean; symbol?: string }[], symbol: string) =>
  frames.filter((f) => f.topic === 'diffDepth' && f.f === false && f.symbol === symbol) as unknown as { data: { v: string; a: string[][] }[] }[];

// config/venue.yaml lists BTCUSDT, ETHUSDT, ETHBTC: their books are numbered 1, 2, 3.
describe('market book versions', () => {
  it('count diffs per symbol: each diffDepth is the last + 1 for its symbol, whatever the other books do', async () => {
    t = await startTest(accounts);
    const v = t;
    await sell(v, 'ETHBTC', '1', '0.05');
    const m = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    for (const symbol of ['ETHBTC', 'BTCUSDT']) m.ws.send(JSON.stringify({ symbol, topic: 'diffDepth', event: 'sub' }));
    // The order before anyone listened is in the snapshot, which no diff has moved yet.
    expect((await m.next((f) => f.topic === 'diffDepth' && f.symbol === 'ETHBTC')).data[0]).toMatchObject({ v: '0_3', a: [['0.05', '1']] });
    expect((await m.next((f) => f.topic === 'diffDepth' && f.symbol === 'BTCUSDT')).data[0]).toMatchObject({ v: '0_1', a: [] });

    await sell(v, 'ETHBTC', '1', '0.06');
    await v.clock.advance(300);
    await sell(v, 'ETHBTC', '2', '0.07');
    await sell(v, 'ETHBTC', '1', '0.05');
    await sell(v, 'BTCUSDT', '0.5', '31000');
    await v.clock.advance(300);
    await v.clock.advance(300);
    await sell(v, 'ETHBTC', '1', '0.08');
    await v.clock.advance(300);
    m.ws.send(JSON.stringify({ ping: 1 }));
    await m.next((f) => f.pong === 1);

    const eth = diffs(m.frames, 'ETHBTC');
    // A cadence with no change sends no diff and uses up no version; changes in one cadence make one diff.
    expect(eth.map((f) => f.data[0]!.v)).toEqual(['1_3', '2_3', '3_3']);
    expect(eth[1]!.data[0]!.a).toEqual([['0.07', '2'], ['0.05', '2']]);
    expect(diffs(m.frames, 'BTCUSDT').map((f) => f.data[0]!.v)).toEqual(['1_1']);
  });

  it('a snapshot carries the version of the last diff and holds exactly the book at it, even between cadences', async () => {
    t = await startTest(accounts);
    const v = t;
    const a = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    a.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'diffDepth', event: 'sub' }));
    await a.next((f) => f.topic === 'diffDepth');
    await sell(v, 'ETHBTC', '1', '0.05');
    await v.clock.advance(300);
    expect((await a.next((f) => f.topic === 'diffDepth' && f.f === false)).data[0]).toMatchObject({ v: '1_3', a: [['0.05', '1']] });

    // Between two cadences: the pending change is cut into diff 2 before the snapshot is taken.
    await sell(v, 'ETHBTC', '3', '0.06');
    const b = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    b.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'depth', event: 'sub' }));
    const snap = await b.next((f) => f.topic === 'depth');
    expect(snap.data[0]).toMatchObject({ v: '2_3', a: [['0.05', '1'], ['0.06', '3']] });
    expect((await a.next((f) => f.topic === 'diffDepth' && f.f === false)).data[0]).toMatchObject({ v: '2_3', a: [['0.06', '3']] });

    // The depth cadence push carries the version of the diff that moved the book to it.
    await sell(v, 'ETHBTC', '1', '0.06');
    await v.clock.advance(300);
    const push = await b.next((f) => f.topic === 'depth' && f.f === false);
    expect(push.data[0]).toMatchObject({ v: '3_3', a: [['0.05', '1'], ['0.06', '4']] });
    expect((await a.next((f) => f.topic === 'diffDepth' && f.f === false)).data[0]).toMatchObject({ v: '3_3', a: [['0.06', '4']] });
    // A fresh diffDepth subscription starts from the same version.
    a.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'diffDepth', event: 'sub' }));
    expect((await a.next((f) => f.topic === 'diffDepth' && f.f === true)).data[0]).toMatchObject({ v: '3_3', a: [['0.05', '1'], ['0.06', '4']] });
  });

  it('skip one after a pause with nobody connected, so that one version never names two books', async () => {
    t = await startTest(accounts);
    const v = t;
    const a = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    a.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'diffDepth', event: 'sub' }));
    expect((await a.next((f) => f.topic === 'diffDepth')).data[0]).toMatchObject({ v: '0_3', a: [] });
    a.ws.close();
    await a.closed;
    while (v.venue.backend.market.size > 0) await new Promise<void>((r) => setImmediate(r));
    await sell(v, 'ETHBTC', '1', '0.05');
    const b = await openWs(`${v.ws}/openapi/quote/ws/v1`);
    b.ws.send(JSON.stringify({ symbol: 'ETHBTC', topic: 'diffDepth', event: 'sub' }));
    expect((await b.next((f) => f.topic === 'diffDepth')).data[0]).toMatchObject({ v: '1_3', a: [['0.05', '1']] });
    await sell(v, 'ETHBTC', '1', '0.06');
    await v.clock.advance(300);
    expect((await b.next((f) => f.topic === 'diffDepth' && f.f === false)).data[0]).toMatchObject({ v: '2_3', a: [['0.06', '1']] });
  });
});
