// Reconciliation against the simulated venue: reads in the executor's queue, orders found at start-up, recovery after a reconnect, the periodic run.
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/fixed.ts';
import { statusOf, type ExecutionEvent } from '../../src/execution/index.ts';
import { reconnectedEvent } from '../../src/model/index.ts';
import { allSettled, setFaults, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

const spot = (id: string, side: 'BUY' | 'SELL', price: string, quantity: string) => ({
  kind: 'placeSpot' as const, strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: id, side, type: 'LIMIT' as const, price, quantity, timeInForce: 'GTC' as const,
});

const reconciled = (x: Rig) => x.events.filter((e): e is Extract<ExecutionEvent, { type: 'reconciled' }> => e.type === 'reconciled');

/** Places a resting buy through the executor and waits until the venue acknowledged it. */
async function resting(x: Rig, price = '30000', qty = '0.01'): Promise<string> {
  const id = x.ex.submit(spot(x.ex.nextClientOrderId(), 'BUY', price, qty));
  expect(await until(x, () => statusOf(x.ex.order(id)!) === 'NEW')).toBe(true);
  return id;
}

/** The counterparty sells into the bot's resting buy on the venue; nothing reaches the executor (no user stream in the rig). */
async function fillOnVenue(x: Rig, price = '30000', qty = '0.01'): Promise<void> {
  await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price, quantity: qty, timeInForce: 'IOC' });
}

describe('reconciliation reads go through the executor’s queue', () => {
  it('wait behind a call in flight and behind cancels, go before new orders, and never overlap a command', async () => {
    r = await startRig();
    const old = await resting(r, '20000', '0.001');
    r.seen.calls.length = 0;
    r.seen.maxConcurrent = 0;
    const a = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '20001', '0.001'));
    const b = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '20002', '0.001'));
    const run = r.ex.reconcile();
    r.ex.submit({ kind: 'cancel', strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: old });
    await run;
    expect(await until(r, () => allSettled(r!) && statusOf(r!.ex.order(old)!) === 'CANCELED')).toBe(true);
    const calls = r.seen.calls;
    expect(calls.slice(0, 3)).toEqual([`place ${a}`, `cancel ${old}`, 'openOrders spot']);
    expect(calls.indexOf(`place ${b}`)).toBeGreaterThan(2);
    expect(calls).toEqual(expect.arrayContaining(['openOrders contract', 'tradesSince spot', 'tradesSince contract', 'balances', 'positions']));
    expect(r.seen.maxConcurrent).toBe(1);
  });

  it('in a 429 storm, reconciliation and orders together back off without a ban (no 418)', async () => {
    r = await startRig();
    let banned = 0;
    r.rest.budgets.on((e) => { if (e.type === 'banned') banned += 1; });
    await setFaults(r.t, { rateLimitStorm: { count: 8 } });
    for (let i = 0; i < 3; i++) r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', String(20000 + i), '0.001'));
    let done = false;
    const runs = [r.ex.reconcile(), r.ex.reconcile()];
    void Promise.all(runs).then(() => { done = true; });
    expect(await until(r, () => done && allSettled(r!), 120_000, 500)).toBe(true);
    expect(banned).toBe(0);
    expect(r.seen.maxConcurrent).toBe(1);
  });
});

describe('orders the bot does not know, found at start-up', () => {
  const leftOver = async ({ rest }: { rest: Rig['rest'] }) => {
    await rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '25000', quantity: '0.002', timeInForce: 'GTC', newClientOrderId: 'left-over-1' });
  };

  it('are adopted under policy adopt, and followed like the bot’s own afterwards', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0, unknownOrders: 'adopt' } }, { beforeStart: leftOver });
    const o = r.ex.order('left-over-1');
    expect(o).toMatchObject({ adopted: true, phase: 'NEW', symbol: 'BTCUSDT', price: '25000', origQty: '0.002' });
    expect(reconciled(r)[0]).toMatchObject({ adopted: 1, cancelled: 0 });
    expect((await r.gateway.openOrders('spot')).map((x) => x.clientOrderId)).toEqual(['left-over-1']);
    await fillOnVenue(r, '25000', '0.002');
    await r.ex.reconcile();
    expect(await until(r, () => statusOf(r!.ex.order('left-over-1')!) === 'FILLED')).toBe(true);
  });

  it('are cancelled on the venue under policy cancel', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0, unknownOrders: 'cancel' } }, { beforeStart: leftOver });
    expect(reconciled(r)[0]).toMatchObject({ adopted: 0, cancelled: 1 });
    expect(await until(r, () => r!.ex.queued() === 0)).toBe(true);
    expect(await r.gateway.openOrders('spot')).toEqual([]);
    expect((await r.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'left-over-1' })).status).toBe('CANCELED');
    expect(r.ex.order('left-over-1')).toBeUndefined();
  });
});

describe('recovery after the user stream was down', () => {
  it('a `reconnected` event reconciles: the fill that happened meanwhile is found, the order ends FILLED and the balances match', async () => {
    r = await startRig();
    const id = await resting(r);
    await fillOnVenue(r);
    // The stream was down: nothing tells the executor, however long it waits.
    await r.t.clock.advance(10_000);
    await r.ex.idle();
    expect(statusOf(r.ex.order(id)!)).toBe('NEW');
    expect(r.events.some((e) => e.type === 'fill')).toBe(false);
    const now = r.t.clock.now();
    r.bus.publish(reconnectedEvent({ connection: 'user', downSince: now - 10_000, attempt: 1, ts: now, recvTs: now }));
    expect(await until(r, () => statusOf(r!.ex.order(id)!) === 'FILLED' && r!.events.some((e) => e.type === 'fill'))).toBe(true);
    await r.ex.idle();
    const fills = r.events.flatMap((e) => (e.type === 'fill' ? [e.fill] : []));
    expect(fills.map((f) => [f.side, f.qty, f.price])).toEqual([['BUY', '0.01', '30000']]);
    expect(fills[0]!.orderId).toBe(r.ex.order(id)!.orderId);
    expect(r.ex.order(id)!.executedQty).toBe('0.01');
    const venue = (await r.gateway.balances()).spot;
    for (const b of venue.filter((x) => ['BTC', 'USDT'].includes(x.asset))) {
      const mine = r.portfolio.view().spot[b.asset]!;
      expect(new Decimal(mine.free).plus(mine.locked).toFixed()).toBe(new Decimal(b.free).plus(b.locked).toFixed());
    }
  });
});

describe('periodic reconciliation', () => {
  it('runs on the clock every `everyMs` and picks up a fill the stream never reported', async () => {
    r = await startRig({}, { reconcile: { everyMs: 5_000 } });
    const start = r.t.clock.now();
    const at: number[] = [];
    r.ex.on((e) => { if (e.type === 'reconciled') at.push(r!.t.clock.now() - start); });
    const id = await resting(r);
    await fillOnVenue(r);
    expect(await until(r, () => r!.t.clock.now() - start >= 4_500)).toBe(true);
    expect(statusOf(r.ex.order(id)!)).toBe('NEW');
    expect(await until(r, () => statusOf(r!.ex.order(id)!) === 'FILLED', 2_000)).toBe(true);
    expect(await until(r, () => at.length >= 3, 15_000)).toBe(true);
    // One run per period, each within a step of the clock tick that started it.
    expect(at.slice(0, 3).map((t) => Math.floor(t / 5_000))).toEqual([1, 2, 3]);
    expect(at.slice(0, 3).every((t) => t % 5_000 <= 250)).toBe(true);
  });
});
