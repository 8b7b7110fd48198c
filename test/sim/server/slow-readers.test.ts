// A market reader that stops reading skips depth pushes and gets the latest book once it reads again; with diffs piling up past the limit it is closed with 1008.
import { afterEach, describe, expect, it } from 'vitest';
import { SLOW_READER_CLOSE } from '../../../src/sim/server/slow-reader.ts';
import { openWs, send, signed, startTest, testConfig, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A venue whose market connections conflate above 2 KB unsent and close above 64 KB (and are not closed for idling: the test's hours of virtual time pass without a client frame). */
async function venue(): Promise<TestVenue> {
  const base = testConfig().server;
  return startTest({ server: { ...base, marketStream: { idleTimeoutMs: 1e12, conflateAboveBytes: 2048, closeAboveBytes: 65_536 } } });
}

/** Each symbol's book: its bid and ask ladders (100 levels a side) and a far bid that is placed and cancelled in turn. */
const BOOKS = [
  { symbol: 'BTCUSDT', qty: '0.0005', bid: (i: number) => (29_000 - i).toFixed(2), ask: (i: number) => (31_000 + i).toFixed(2), far: '10000.00' },
  { symbol: 'ETHUSDT', qty: '0.01', bid: (i: number) => (1_900 - i).toFixed(2), ask: (i: number) => (2_100 + i).toFixed(2), far: '1001.00' },
  { symbol: 'ETHBTC', qty: '0.1', bid: (i: number) => (0.06 - i * 0.0001).toFixed(4), ask: (i: number) => (0.07 + i * 0.0001).toFixed(4), far: '0.0100' },
];

/**
 * Rests 100 levels a side on three symbols, so a depth frame of the three is ~12 KB (loopback kernel
 * buffers hold tens of MB before the venue's own buffer grows), and returns a step that moves all three.
 */
function deepBooks(v: TestVenue): () => void {
  const engine = v.venue.backend.venue;
  const account = engine.accountOf(engine.user('demo'), 1, 0);
  const resting = new Map<string, string>();
  for (const b of BOOKS) {
    for (let i = 0; i < 100; i++) {
      engine.newSpotOrder(account, { symbol: b.symbol, side: 'BUY', type: 'LIMIT', quantity: b.qty, price: b.bid(i) });
      engine.newSpotOrder(account, { symbol: b.symbol, side: 'SELL', type: 'LIMIT', quantity: b.qty, price: b.ask(i) });
    }
  }
  return () => {
    for (const b of BOOKS) {
      const id = resting.get(b.symbol);
      if (id === undefined) resting.set(b.symbol, engine.newSpotOrder(account, { symbol: b.symbol, side: 'BUY', type: 'LIMIT', quantity: b.qty, price: b.far }).orderId);
      else {
        engine.cancelSpotOrder(account, { orderId: id });
        resting.delete(b.symbol);
      }
    }
  };
}

const sub = (topic: string) => JSON.stringify({ symbol: 'BTCUSDT,ETHUSDT,ETHBTC', topic, event: 'sub', params: { limit: 100, binary: false } });

describe('slow market readers', () => {
  it('skip depth pushes while their socket is full and get the latest book when they read again', async () => {
    t = await venue();
    const move = deepBooks(t);
    const c = await openWs(`${t.ws}/openapi/quote/ws/v1`);
    c.ws.send(sub('depth'));
    for (let i = 0; i < 3; i++) await c.next((f) => f.topic === 'depth' && f.f === true);
    c.ws.pause();
    const market = t.venue.backend.market;
    // However big the kernel's buffers, pushes pile up in the venue until it starts skipping.
    let pushes = 0;
    while (market.conflating === 0 && pushes < 200_000) {
      move();
      await t.clock.advance(300);
      pushes++;
    }
    expect(market.conflating).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) {
      move();
      await t.clock.advance(300);
    }
    const latest = (await send(t.url, 'GET', '/openapi/quote/v1/depth', { query: 'symbol=ETHBTC&limit=100' })).json as { bids: string[][]; asks: string[][] };
    c.ws.resume();
    // Reading again, the reader drains; the venue then owes it nothing and the last ETHBTC frame is the book as it is now.
    while (market.conflating > 0) await t.clock.advance(300);
    await t.clock.advance(300);
    const probe = JSON.stringify({ ping: 42 });
    c.ws.send(probe);
    await c.next((f) => f.pong === 42);
    const ethbtc = c.frames.filter((f) => f.topic === 'depth' && f.symbol === 'ETHBTC');
    expect(ethbtc.at(-1).data[0].b).toEqual(latest.bids);
    expect(ethbtc.at(-1).data[0].a).toEqual(latest.asks);
    // Fewer frames than pushes: the ones skipped while full were never built for it.
    expect(ethbtc.length).toBeLessThan(pushes + 20);
    expect(market.shed).toBe(0);
  }, 120_000);

  it('close a reader with 1008 once frames that cannot be skipped (diffs) pass the limit', async () => {
    t = await venue();
    const move = deepBooks(t);
    const c = await openWs(`${t.ws}/openapi/quote/ws/v1`);
    c.ws.send(sub('diffDepth'));
    for (let i = 0; i < 3; i++) await c.next((f) => f.topic === 'diffDepth' && f.f === true);
    c.ws.pause();
    const market = t.venue.backend.market;
    let steps = 0;
    while (market.shed === 0 && steps < 400_000) {
      move();
      await t.clock.advance(300);
      steps++;
    }
    expect(market.shed).toBe(1);
    c.ws.resume();
    expect(await c.closed).toBe(SLOW_READER_CLOSE);
  }, 120_000);

  it('close a user-stream reader with 1008 past its limit (user events cannot be skipped)', async () => {
    const base = testConfig().server;
    t = await startTest({ server: { ...base, userStream: { ...base.userStream, closeAboveBytes: 65_536 } } });
    const key = (await signed(t.url, 'POST', '/openapi/v1/userDataStream', {})).json.listenKey as string;
    const c = await openWs(`${t.ws}/openapi/ws/${key}`);
    c.ws.pause();
    const engine = t.venue.backend.venue;
    const user = engine.user('demo');
    const account = engine.accountOf(user, 1, 0);
    let steps = 0;
    while (t.venue.server.userStreams.shed === 0 && steps < 1_000_000) {
      const id = engine.newSpotOrder(account, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '0.01' }).orderId;
      engine.cancelSpotOrder(account, { orderId: id });
      // The sockets write between batches, as between requests.
      if (++steps % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(t.venue.server.userStreams.shed).toBe(1);
    c.ws.resume();
    expect(await c.closed).toBe(SLOW_READER_CLOSE);
    expect(t.venue.server.userStreams.connections(user)).toBe(0);
  }, 120_000);
});
