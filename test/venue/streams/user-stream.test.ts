import { afterEach, describe, expect, it } from 'vitest';
import { compareDecimal } from '../../../src/core/fixed.ts';
import type { OrderUpdateEvent } from '../../../src/model/events.ts';
import { testConfig } from '../../sim/server/helpers.ts';
import { statusRank } from '../../../src/venue/report-sequencer.ts';
import { UserStreamClient, type UserStreamOptions } from '../../../src/venue/user-stream.ts';
import { limit, Recorder, setFaults, startVenueOnClock, T0, until, type Venue } from './helpers.ts';

let v: Venue | undefined;
let client: UserStreamClient | undefined;
afterEach(async () => {
  await client?.stop();
  await v?.close();
  client = undefined;
  v = undefined;
});

const MIN = 60_000;
const HOUR = 60 * MIN;

function userStream(venue: Venue, rec: Recorder, over: Partial<UserStreamOptions> = {}): UserStreamClient {
  return new UserStreamClient({ rest: venue.maker, wsUrl: venue.ws, clock: venue.clock, sink: rec.sink, backoff: { initialMs: 200, maxMs: 2000, seed: 5 }, ...over });
}

/** The venue's server settings with the user stream's timings replaced. */
function serverWith(userStream: { pingIntervalMs: number; connectionCapMs?: number; listenKeyValidityMs?: number }) {
  return { server: { ...testConfig().server, userStream: { connectionCapMs: 86_400_000, listenKeyValidityMs: 3_600_000, ...userStream } } };
}

/** Returns the statuses each order went through, by client order id. */
function statuses(rec: Recorder): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of rec.of('order')) (out[e.clientOrderId] ??= []).push(e.status);
  return out;
}

function monotone(list: readonly OrderUpdateEvent[]): boolean {
  const last = new Map<string, OrderUpdateEvent>();
  for (const e of list) {
    const p = last.get(e.orderId);
    if (p && (statusRank(e.status) < statusRank(p.status) || compareDecimal(e.executedQty, p.executedQty) < 0)) return false;
    last.set(e.orderId, e);
  }
  return true;
}

/**
 * Three taker buys of 3, each sweeping three resting sells of 1: the taker's reports of one order come
 * back to back (NEW, PARTIALLY_FILLED, PARTIALLY_FILLED, FILLED), so a reordered frame can move it backwards.
 */
async function sweepThreeTimes(venue: Venue): Promise<void> {
  for (const id of ['b1', 'b2', 'b3']) {
    for (const p of ['0.05', '0.051', '0.052']) await limit(venue.maker, 'ETHBTC', 'SELL', '1', p);
    await limit(venue.taker, 'ETHBTC', 'BUY', '3', '0.052', id);
  }
}

describe('user data stream against the simulated venue', () => {
  it('makes a listenKey, connects, and publishes order and balance events from the reports', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = userStream(v, rec);
    await client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    expect(client.listenKey).toMatch(/^[A-Za-z]{64}$/);
    await limit(v.maker, 'ETHBTC', 'SELL', '2', '0.05', 'sell-1');
    await limit(v.taker, 'ETHBTC', 'BUY', '2', '0.05');
    const filled = await until(v.clock, 'FILLED', () => rec.of('order').find((e) => e.status === 'FILLED'));
    expect(filled).toMatchObject({ account: 'spot', symbol: 'ETHBTC', clientOrderId: 'sell-1', side: 'SELL', executedQty: '2', lastPrice: '0.05', feeAsset: 'BTC', maker: true });
    await until(v.clock, 'balances', () => rec.of('balance').some((b) => b.asset === 'ETH' && b.free === '98'));
    expect(rec.of('balance').every((b) => b.account === 'spot')).toBe(true);
  });

  it('gives monotone order states from reports the venue reorders and delays; with a window they arrive complete and in order', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = userStream(v, rec, { rest: v.taker, reorderWindowMs: 3_000 });
    await client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    await setFaults(v, { userStreamDelayMs: 500, userStreamReorder: { rate: 0.5 } });
    await sweepThreeTimes(v);
    // The venue holds a reordered frame until the next one: resting orders after the sweeps push the last one out.
    for (const id of ['t1', 't2', 't3']) await limit(v.taker, 'ETHBTC', 'BUY', '1', '0.01', id);
    await until(v.clock, 'three FILLED', () => rec.of('order').filter((e) => e.status === 'FILLED').length === 3);
    const sv = v.venue.server.faults.fired.userStreamReorder;
    expect(sv).toBeGreaterThan(0);
    expect(monotone(rec.of('order'))).toBe(true);
    const full = ['NEW', 'PARTIALLY_FILLED', 'PARTIALLY_FILLED', 'FILLED'];
    const seen = statuses(rec);
    expect([seen['b1'], seen['b2'], seen['b3']]).toEqual([full, full, full]);
    expect(client.stats().droppedBackwards).toBe(0);
    const ts = rec.of('order').map((e) => e.ts);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
  });

  it('without a window still never moves an order backwards: late reports are dropped', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = userStream(v, rec, { rest: v.taker, reorderWindowMs: 0 });
    await client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    await setFaults(v, { userStreamReorder: { rate: 0.6 } });
    await sweepThreeTimes(v);
    await until(v.clock, 'three FILLED', () => rec.of('order').filter((e) => e.status === 'FILLED').length === 3);
    await until(v.clock, 'held frames flushed', () => client!.stats().droppedBackwards > 0);
    expect(monotone(rec.of('order'))).toBe(true);
    for (const list of Object.values(statuses(rec))) expect(list[list.length - 1]).toBe('FILLED');
  });

  it('keeps the key alive every 30 minutes on the clock, so one connection lasts hours', async () => {
    v = await startVenueOnClock(serverWith({ pingIntervalMs: 30_000 }));
    const venue = v;
    const rec = new Recorder();
    client = userStream(venue, rec);
    await client.start();
    await until(venue.clock, 'ready', () => client!.state === 'ready');
    const key = client.listenKey!;
    const start = venue.clock.now();
    await until(venue.clock, '3 hours', () => venue.clock.now() - start >= 3 * HOUR, { stepMs: 5_000, maxMs: 4 * HOUR });
    expect(client.stats()).toMatchObject({ keepalives: 6, keepaliveFailures: 0, keysCreated: 1, reconnects: 0 });
    expect(client.listenKey).toBe(key);
    expect(venue.venue.server.listenKeys.expiresAt(key)).toBeGreaterThan(venue.clock.now() + 30 * MIN);
    expect(rec.of('reconnected')).toEqual([]);
  });

  it('makes a new key when a keepalive fails, moves the stream onto it and publishes reconnected', async () => {
    v = await startVenueOnClock(serverWith({ pingIntervalMs: 30_000 }));
    const venue = v;
    const rec = new Recorder();
    client = userStream(venue, rec);
    await client.start();
    await until(venue.clock, 'ready', () => client!.state === 'ready');
    const oldKey = client.listenKey!;
    await setFaults(venue, { rateLimitStorm: { count: 1 } });
    const back = await until(venue.clock, 'reconnected', () => rec.of('reconnected')[0], { stepMs: 1_000, maxMs: HOUR });
    expect(back).toMatchObject({ connection: 'user', attempt: 1 });
    expect(venue.venue.server.faults.fired.rateLimitStorm).toBe(1);
    expect(back.downSince).toBe(T0 + 30 * MIN);
    expect(client.stats()).toMatchObject({ keepaliveFailures: 1, keysCreated: 2 });
    expect(client.listenKey).not.toBe(oldKey);
    await until(venue.clock, 'old key closed', () => venue.venue.server.listenKeys.userOf(oldKey) === undefined);
    await limit(venue.maker, 'ETHBTC', 'SELL', '1', '0.05', 'after-renewal');
    const ev = await until(venue.clock, 'order on the new key', () => rec.of('order').find((e) => e.clientOrderId === 'after-renewal'));
    expect(ev.status).toBe('NEW');
    expect(statuses(rec)['after-renewal']).toEqual(['NEW']);
  });

  it('makes a new key when the venue ended the old one and refuses it on redial', async () => {
    v = await startVenueOnClock();
    const venue = v;
    const rec = new Recorder();
    client = userStream(venue, rec);
    await client.start();
    await until(venue.clock, 'ready', () => client!.state === 'ready');
    const oldKey = client.listenKey!;
    await venue.maker.closeListenKey({ listenKey: oldKey });
    const back = await until(venue.clock, 'reconnected', () => rec.of('reconnected')[0]);
    expect(back.attempt).toBe(1);
    expect(client.listenKey).not.toBe(oldKey);
    expect(rec.of('connection').map((e) => e.reason).join('\n')).toMatch(/upgrade refused with HTTP 400/);
  });

  it('moves to a fresh connection before the 24-hour cap, overlapping, without losing or repeating an event', async () => {
    // Server pings every hour here, so 24 virtual hours stay cheap; the watchdog waits longer than that.
    v = await startVenueOnClock(serverWith({ pingIntervalMs: HOUR }));
    const venue = v;
    const rec = new Recorder();
    client = userStream(venue, rec, { watchdogMs: 2 * HOUR, overlapMs: 5_000, reorderWindowMs: 0 });
    await client.start();
    await until(venue.clock, 'ready', () => client!.state === 'ready');
    const owner = venue.venue.server.listenKeys.userOf(client.listenKey!)!;
    const start = venue.clock.now();
    await until(venue.clock, 'two connections', () => venue.venue.server.userStreams.connections(owner) === 2, { stepMs: 60_000, maxMs: 24 * HOUR });
    expect(venue.clock.now() - start).toBeGreaterThanOrEqual(23.5 * HOUR);
    expect(venue.clock.now() - start).toBeLessThan(24 * HOUR);
    // While both connections are open every report arrives twice; each must come out once.
    await limit(venue.maker, 'ETHBTC', 'SELL', '1', '0.05', 'during-overlap');
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    await until(venue.clock, 'one connection again', () => venue.venue.server.userStreams.connections(owner) === 1);
    await until(venue.clock, 'past 25 hours', () => venue.clock.now() - start >= 25 * HOUR, { stepMs: 60_000, maxMs: 26 * HOUR });
    await limit(venue.maker, 'ETHBTC', 'SELL', '1', '0.06', 'after-cap');
    await until(venue.clock, 'order after the cap', () => rec.of('order').some((e) => e.clientOrderId === 'after-cap'));
    expect(statuses(rec)).toEqual({ 'during-overlap': ['NEW', 'FILLED'], 'after-cap': ['NEW'] });
    expect(client.stats().duplicateFrames).toBeGreaterThan(0);
    expect(client.stats()).toMatchObject({ rotations: 1, reconnects: 0 });
    expect(rec.of('reconnected')).toEqual([]);
    expect(rec.states()).toEqual(['connecting', 'open', 'ready']);
    const balances = rec.of('balance').map((b) => `${b.ts}|${b.asset}|${b.free}|${b.locked}`);
    expect(new Set(balances).size).toBe(balances.length);
  });

  it('detects a silent stream with the watchdog and reconnects it', async () => {
    v = await startVenueOnClock(serverWith({ pingIntervalMs: HOUR }));
    const rec = new Recorder();
    client = userStream(v, rec, { watchdogMs: 60_000 });
    await client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    const back = await until(v.clock, 'reconnected', () => rec.of('reconnected')[0], { stepMs: 1_000 });
    expect(rec.of('connection').find((e) => e.state === 'reconnecting')!.reason).toMatch(/silent for \d+ ms \(watchdog 60000 ms\)/);
    expect(back.attempt).toBe(1);
    expect(client.stats().keysCreated).toBe(1);
  });
});
