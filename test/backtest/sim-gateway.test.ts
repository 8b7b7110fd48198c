// SimGateway's latencies on a virtual clock: a call reaches the venue after the request latency and answers after the response latency; reports come after theirs, in the venue's order, the same for a seed, bounded in flight; bad latencies are refused by name.
import { afterEach, describe, expect, it } from 'vitest';
import { SimGateway, type SimGatewayOptions } from '../../src/backtest/sim-gateway.ts';
import { ConfigError } from '../../src/core/errors.ts';
import type { BusEvent, OrderReport, OrderUpdateEvent, SpotOrderRequest } from '../../src/model/index.ts';
import { T0 } from '../sim/server/helpers.ts';
import { simEngine } from '../gateway/harness.ts';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

function rig(o: Partial<SimGatewayOptions> = {}) {
  const { clock, backend } = simEngine();
  stops.push(() => backend.stop());
  const reports: BusEvent[] = [];
  const gateway = new SimGateway({ venue: backend.venue, clock, user: 'demo', sink: (ev) => reports.push(ev), ...o });
  stops.push(() => gateway.close());
  return { clock, venue: backend.venue, gateway, reports, orders: () => reports.filter((r): r is OrderUpdateEvent => r.kind === 'order') };
}

const buy = (id: string, price = '29000'): SpotOrderRequest => ({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: id, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price });

/** Resolves `p` while advancing the clock 1 ms at a time; returns the answer and the virtual time it came at. */
async function settle<T>(clock: { now(): number; advance(ms: number): Promise<void> }, p: Promise<T>, limitMs = 10_000): Promise<{ value: T; at: number }> {
  let done: { value: T; at: number } | undefined;
  void p.then((value) => { done = { value, at: clock.now() }; });
  for (let i = 0; i < limitMs && done === undefined; i++) await clock.advance(1);
  if (done === undefined) throw new Error('no answer within the limit');
  return done;
}

describe('SimGateway latency', () => {
  it('without latency answers at once, on the same clock instant', async () => {
    const r = rig();
    const a = await r.gateway.place(buy('a'));
    expect(a).toMatchObject({ status: 'NEW', time: T0 });
    expect(r.clock.now()).toBe(T0);
    expect(r.orders().map((o) => [o.clientOrderId, o.status, o.recvTs])).toEqual([['a', 'NEW', T0]]);
  });

  it('without latency delivers a report after the engine operation that made it, at the same instant', async () => {
    const r = rig();
    await r.gateway.place(buy('a', '30000'));
    const n = r.orders().length;
    const counter = r.venue.accountOf(r.venue.user('counter'), 1);
    r.venue.newSpotOrder(counter, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.01', price: '30000', newClientOrderId: 'x' });
    expect(r.orders()).toHaveLength(n);
    await new Promise<void>((resolve) => { setImmediate(resolve); });
    expect(r.orders().slice(n).map((o) => [o.clientOrderId, o.status, o.recvTs])).toEqual([['a', 'FILLED', T0]]);
    expect(r.reports.some((e) => e.kind === 'balance')).toBe(true);
  });

  it('acts after the request latency and answers after the response latency; reports after the report latency', async () => {
    const r = rig({ latency: { request: 20, response: 30, report: 100 } });
    const { value, at } = await settle(r.clock, r.gateway.place(buy('a')));
    expect(value).toMatchObject({ status: 'NEW', time: T0 + 20 });
    expect(at).toBe(T0 + 50);
    expect(r.orders()).toHaveLength(0);
    await r.clock.advance(T0 + 119 - r.clock.now());
    expect(r.orders()).toHaveLength(0);
    await r.clock.advance(1);
    expect(r.orders().map((o) => [o.clientOrderId, o.status, o.ts, o.recvTs])).toEqual([['a', 'NEW', T0 + 20, T0 + 120]]);
  });

  it('sampled report latencies never reorder reports, and repeat for a seed', async () => {
    const runOnce = async (seed: number): Promise<number[]> => {
      const r = rig({ seed, latency: { report: { base: 5, meanExtra: 50 } } });
      for (let i = 0; i < 20; i++) {
        await r.gateway.place(buy(`o${i}`, String(29000 - i)));
        await r.clock.advance(20);
      }
      await r.clock.advance(5_000);
      const got = r.orders();
      expect(got.map((o) => o.clientOrderId)).toEqual(Array.from({ length: 20 }, (_, i) => `o${i}`));
      const arrivals = got.map((o) => o.recvTs);
      expect([...arrivals].sort((x, y) => x - y)).toEqual(arrivals);
      expect(new Set(arrivals).size).toBeGreaterThan(1);
      return arrivals;
    };
    const a = await runOnce(3);
    expect(await runOnce(3)).toEqual(a);
    expect(await runOnce(4)).not.toEqual(a);
  });

  it('sampled request latencies let independent requests overtake each other, the same way for a seed', async () => {
    const runOnce = async (seed: number): Promise<string[]> => {
      const r = rig({ seed, latency: { request: { min: 0, max: 100 } } });
      const answers = Array.from({ length: 10 }, (_, i) => r.gateway.place(buy(`o${i}`, String(29000 - i))));
      await r.clock.advance(200);
      const placed = await Promise.all(answers);
      return [...placed].sort((x: OrderReport, y: OrderReport) => (BigInt(x.orderId) < BigInt(y.orderId) ? -1 : 1)).map((o) => o.clientOrderId);
    };
    const a = await runOnce(7);
    expect(a).not.toEqual(Array.from({ length: 10 }, (_, i) => `o${i}`));
    expect(await runOnce(7)).toEqual(a);
  });

  it('a refusal after latency is the venue\'s definite VenueError, and changes nothing', async () => {
    const r = rig({ latency: { request: 10, response: 10 } });
    const before = r.venue.snapshot();
    const p = r.gateway.place({ ...buy('x'), quantity: '100' }).then(() => undefined, (e: unknown) => e);
    const { value } = await settle(r.clock, p);
    expect(value).toMatchObject({ venueCode: -1131, retry: 'definite' });
    expect(r.venue.snapshot()).toBe(before);
  });

  it('holds at most maxReportsInFlight report batches: the oldest goes early, nothing is lost, order kept', async () => {
    const r = rig({ latency: { report: 1_000 }, maxReportsInFlight: 3 });
    for (let i = 0; i < 10; i++) {
      await r.gateway.place(buy(`o${i}`, String(29000 - i)));
      expect(r.gateway.reportsInFlight()).toBeLessThanOrEqual(3);
    }
    expect(r.orders().length).toBeGreaterThan(0);
    await r.clock.advance(2_000);
    expect(r.gateway.reportsInFlight()).toBe(0);
    expect(r.orders().map((o) => o.clientOrderId)).toEqual(Array.from({ length: 10 }, (_, i) => `o${i}`));
  });

  it('trades for the sub-account it is given: its own balances, its own orders', async () => {
    const main = rig();
    const sub = new SimGateway({ venue: main.venue, clock: main.clock, user: 'demo', accountIndex: 1 });
    expect((await sub.balances()).spot.map((b) => [b.asset, b.free])).toEqual([['USDT', '1000']]);
    await sub.place(buy('in-sub'));
    expect((await sub.openOrders('spot')).map((o) => o.clientOrderId)).toEqual(['in-sub']);
    expect(await main.gateway.openOrders('spot')).toEqual([]);
    await expect(main.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'in-sub' })).rejects.toMatchObject({ venueCode: -2013 });
  });

  it('refuses a bad latency or bound, naming the field', () => {
    expect(() => rig({ latency: { report: -1 } })).toThrow(ConfigError);
    expect(() => rig({ latency: { report: -1 } })).toThrow(/latency\.report/);
    expect(() => rig({ latency: { request: { min: 5, max: 1 } } })).toThrow(/latency\.request\.max/);
    expect(() => rig({ latency: { response: { base: 1, meanExtra: Number.NaN } } })).toThrow(/latency\.response\.meanExtra/);
    expect(() => rig({ maxReportsInFlight: 0 })).toThrow(/maxReportsInFlight/);
  });
});
