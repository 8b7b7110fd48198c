import { afterEach, describe, expect, it } from 'vitest';
import { MarketWsClient } from '../../../src/venue/market-ws.ts';
import { limit, Recorder, setFaults, startVenueOnClock, until, type Venue } from './helpers.ts';

let v: Venue | undefined;
let client: MarketWsClient | undefined;
afterEach(async () => {
  await client?.stop();
  await v?.close();
  client = undefined;
  v = undefined;
});

function market(venue: Venue, rec: Recorder, over: Partial<ConstructorParameters<typeof MarketWsClient>[0]> = {}): MarketWsClient {
  return new MarketWsClient({ wsUrl: venue.ws, clock: venue.clock, sink: rec.sink, backoff: { initialMs: 200, maxMs: 2000, seed: 7 }, ...over });
}

describe('market socket against the simulated venue', () => {
  it('goes connecting → open → ready and publishes trades with the taker side and the venue id', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = market(v, rec);
    client.subscribe('ETHBTC', 'trade');
    client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    expect(rec.states()).toEqual(['connecting', 'open', 'ready']);
    await limit(v.maker, 'ETHBTC', 'SELL', '2', '0.05');
    await limit(v.taker, 'ETHBTC', 'BUY', '1.5', '0.05');
    const [t] = await until(v.clock, 'trade', () => rec.of('trade').length > 0 && rec.of('trade'));
    expect(t).toMatchObject({ symbol: 'ETHBTC', price: '0.05', qty: '1.5', takerSide: 'BUY' });
    expect(t!.tradeId).toMatch(/^\d+$/);
  });

  it('is dropped mid-stream by the venue, reconnects with back-off, replays every subscription and resumes without losing a trade', async () => {
    v = await startVenueOnClock();
    const venue = v;
    const rec = new Recorder();
    client = market(venue, rec);
    client.subscribe('ETHBTC', 'trade');
    client.subscribe('ETHBTC', 'kline_1m');
    client.subscribe('ETHBTC', 'realtimes');
    client.watchBook('ETHBTC');
    client.start();
    await until(venue.clock, 'book synced', () => client!.book('ETHBTC')!.state === 'synced');
    await limit(venue.maker, 'ETHBTC', 'SELL', '5', '0.05');
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    await until(venue.clock, 'first trade', () => rec.of('trade').length === 1);

    // The next push the venue makes kills the socket without a close frame: the trade below is never pushed live.
    await setFaults(venue, { dropWebSocket: { count: 1 } });
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    const mark = rec.mark;
    const back = await until(venue.clock, 'reconnected', () => rec.of('reconnected', mark)[0]);
    expect(back).toMatchObject({ connection: 'market', attempt: 1 });
    expect(back.downSince).toBeLessThanOrEqual(back.recvTs);
    expect(rec.states(mark)).toEqual(['reconnecting', 'connecting', 'open', 'ready']);
    expect(rec.of('connection', mark)[0]!.reason).toMatch(/closed by the venue \(1006/);

    // The trade snapshot of the replayed subscription brings the trade pushed while down, once.
    await until(venue.clock, 'missed trade', () => rec.of('trade').length === 2);
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    await until(venue.clock, 'live trade after reconnect', () => rec.of('trade').length === 3);
    const trades = rec.of('trade');
    expect(new Set(trades.map((t) => t.tradeId)).size).toBe(3);
    expect(trades.map((t) => t.qty)).toEqual(['1', '1', '1']);
    const after = rec.mark;
    await until(venue.clock, 'kline, ticker and book after reconnect', () => rec.of('kline', mark).length > 0 && rec.of('ticker', mark).length > 0 && rec.of('depthSnapshot', mark).length > 0);
    await until(venue.clock, 'book after the third trade', () => client!.book('ETHBTC')!.asks()[0]?.[1] === '2');
    await limit(venue.maker, 'ETHBTC', 'SELL', '1', '0.06');
    await until(venue.clock, 'diff after reconnect', () => rec.of('depthUpdate', after).length > 0);
    expect(client.stats()).toMatchObject({ reconnects: 1, malformed: 0 });
  });

  it('logs error frames, counts them and keeps serving the other subscriptions', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = market(v, rec);
    client.subscribe('NOPE', 'trade');
    client.subscribe('ETHBTC', 'trade');
    client.start();
    await until(v.clock, 'error frame', () => client!.stats().errorFrames === 1);
    await limit(v.maker, 'ETHBTC', 'SELL', '1', '0.05');
    await limit(v.taker, 'ETHBTC', 'BUY', '1', '0.05');
    await until(v.clock, 'trade', () => rec.of('trade').length === 1);
    expect(client.state).toBe('ready');
  });

  it('detects a silent socket with the watchdog and redials it', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    // Nothing subscribed and pings rarer than the watchdog: the venue has nothing to say.
    client = market(v, rec, { watchdogMs: 5_000, pingEveryMs: 600_000 });
    client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    const mark = rec.mark;
    const back = await until(v.clock, 'reconnected', () => rec.of('reconnected', mark)[0]);
    expect(rec.of('connection', mark)[0]!.reason).toMatch(/silent for \d+ ms \(watchdog 5000 ms\)/);
    expect(back.recvTs - back.downSince).toBeGreaterThan(0);
    expect(client.stats().watchdogTrips).toBe(1);
  });

  it('keeps a quiet link alive with client pings answered by pongs', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = market(v, rec, { watchdogMs: 5_000, pingEveryMs: 2_000 });
    client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    const start = v.clock.now();
    await until(v.clock, '30 s of pongs', () => v!.clock.now() - start >= 30_000, { stepMs: 250 });
    expect(rec.of('reconnected')).toEqual([]);
    expect(client.stats().watchdogTrips).toBe(0);
  });
});
