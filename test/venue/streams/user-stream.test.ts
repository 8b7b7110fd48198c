import { afterEach, describe, expect, it } from 'vitest';
import { compareDecimal, Decimal } from '../../../src/core/fixed.ts';
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

/**
 * True when, per order, the reports that did not bring a fill never move it backwards, each fill
 * (by its cumulative quantity) came exactly once, and the fills add up to the furthest executed quantity.
 */
function forwardWithEachFillOnce(list: readonly OrderUpdateEvent[]): boolean {
  const last = new Map<string, OrderUpdateEvent>();
  const fills = new Map<string, { zs: Set<string>; sum: Decimal; max: string }>();
  for (const e of list) {
    const f = fills.get(e.orderId) ?? { zs: new Set<string>(), sum: new Decimal(0), max: '0' };
    fills.set(e.orderId, f);
    if (compareDecimal(e.executedQty, f.max) > 0) f.max = e.executedQty;
    if (compareDecimal(e.lastQty, '0') > 0) {
      if (f.zs.has(e.executedQty)) return false;
      f.zs.add(e.executedQty);
      f.sum = f.sum.plus(e.lastQty);
      continue;
    }
    const p = last.get(e.orderId);
    if (p && (statusRank(e.status) < statusRank(p.status) || compareDecimal(e.executedQty, p.executedQty) < 0)) return false;
    last.set(e.orderId, e);
  }
  return [...fills.values()].every((f) => compareDecimal(f.sum.toFixed(), f.max) === 0);
}

/** Returns the furthest status each order reached, by client order id. */
function furthest(rec: Recorder): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of rec.of('order')) {
    const p = out[e.clientOrderId];
    if (p === undefined || statusRank(e.status) > statusRank(p as OrderUpdateEvent['status'])) out[e.clientOrderId] = e.status;
  }
  return out;
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

  it('passes reports on as they arrive, none held: with the venue reordering and delaying, each order still only moves forward to FILLED', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    const venue = v;
    // The clock's time when each event reached the sink: with no hold it is the time the frame arrived (recvTs).
    const at: number[] = [];
    client = userStream(v, rec, { rest: v.taker, sink: (ev) => { at.push(venue.clock.now()); rec.sink(ev); } });
    await client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    await setFaults(v, { userStreamDelayMs: 500, userStreamReorder: { rate: 0.5 } });
    await sweepThreeTimes(v);
    for (const id of ['t1', 't2', 't3']) await limit(v.taker, 'ETHBTC', 'BUY', '1', '0.01', id);
    await until(v.clock, 'three FILLED', () => rec.of('order').filter((e) => e.status === 'FILLED').length === 3);
    expect(v.venue.server.faults.fired.userStreamReorder).toBeGreaterThan(0);
    expect(client.stats().held).toBe(0);
    rec.events.forEach((e, i) => expect(at[i]).toBe(e.recvTs));
    expect(forwardWithEachFillOnce(rec.of('order'))).toBe(true);
    const seen = furthest(rec);
    for (const id of ['b1', 'b2', 'b3']) expect(seen[id]).toBe('FILLED');
  });

  it('never moves an order backwards: late reports are dropped unless they bring a fill not seen, which comes once', async () => {
    v = await startVenueOnClock();
    const rec = new Recorder();
    client = userStream(v, rec, { rest: v.taker });
    await client.start();
    await until(v.clock, 'ready', () => client!.state === 'ready');
    await setFaults(v, { userStreamReorder: { rate: 0.6 } });
    await sweepThreeTimes(v);
    await until(v.clock, 'three FILLED', () => rec.of('order').filter((e) => e.status === 'FILLED').length === 3);
    await until(v.clock, 'held frames flushed', () => client!.stats().droppedBackwards > 0);
    expect(forwardWithEachFillOnce(rec.of('order'))).toBe(true);
    for (const st of Object.values(furthest(rec))) expect(st).toBe('FILLED');
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
    client = userStream(venue, rec, { watchdogMs: 2 * HOUR, overlapMs: 5_000 });
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
