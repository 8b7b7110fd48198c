// What strategies see of their orders, against the simulated venue's real server with faults: each change once and forward, fills once, books equal to what myTrades imply, each strategy only its own.
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/fixed.ts';
import { isFinalStatus, type FillReport, type OrderFill, type OrderView, type OrderViewStatus } from '../../src/model/index.ts';
import { UserStreamClient } from '../../src/venue/index.ts';
import { compareIds } from '../../src/execution/index.ts';
import { rigStrategy, setFaults, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
let user: UserStreamClient | undefined;
afterEach(async () => {
  await user?.stop();
  user = undefined;
  await r?.close();
  r = undefined;
});

const RANK: Record<OrderViewStatus, number> = { NEW: 0, PARTIALLY_FILLED: 1, FILLED: 2, CANCELED: 2, REJECTED: 2 };

const spot = (strategyId: string, clientOrderId: string, side: 'BUY' | 'SELL', price: string, quantity: string, timeInForce: 'GTC' | 'IOC' = 'GTC') => ({
  kind: 'placeSpot' as const, strategyId, symbol: 'BTCUSDT', clientOrderId, side, type: 'LIMIT' as const, price, quantity, timeInForce,
});

/**
 * Connects our user stream client to the rig's bus through faults of its own: every report is delivered
 * twice (the copy after the next one, so copies also arrive out of order), and the first report that
 * carries a fill is dropped, so that fill is first seen by myTrades.
 */
async function faultyStream(x: Rig): Promise<{ dropped: () => string | undefined }> {
  let dropped: string | undefined;
  let held: Parameters<typeof x.bus.publish>[0] | undefined;
  user = new UserStreamClient({
    rest: x.rest, wsUrl: x.t.ws, clock: x.t.clock, backoff: { initialMs: 100, maxMs: 500, seed: 3 },
    sink: (ev) => {
      if (ev.kind === 'order' && ev.clientOrderId.startsWith('s') && dropped === undefined && ev.lastQty !== '0') {
        dropped = `${ev.orderId}:${ev.executedQty}`;
        return;
      }
      x.bus.publish(ev);
      if (held !== undefined) x.bus.publish(held);
      held = ev.kind === 'order' ? ev : undefined;
    },
  });
  await user.start();
  expect(await until(x, () => user!.state === 'ready', 5_000, 50)).toBe(true);
  return { dropped: () => dropped };
}

/**
 * Returns a strategy's net base position and realized PnL (after fees) walked from the venue's trades in
 * trade-id order: bought less sold less fees paid in BTC; realized at the average cost of the quantity
 * bought, less fees (a BTC fee valued at its fill's price).
 */
function implied(trades: readonly FillReport[]): { net: string; realized: string } {
  let fees = new Decimal(0);
  let held = new Decimal(0);
  let avg = new Decimal(0);
  let realized = new Decimal(0);
  for (const t of [...trades].sort((a, b) => compareIds(a.tradeId, b.tradeId))) {
    const q = new Decimal(t.qty);
    const p = new Decimal(t.price);
    if (t.side === 'BUY') {
      avg = held.mul(avg).plus(q.mul(p)).div(held.plus(q));
      held = held.plus(q);
      if (t.feeAsset === 'BTC') {
        fees = fees.plus(t.fee);
        realized = realized.minus(new Decimal(t.fee).mul(p));
      }
    } else {
      realized = realized.plus(q.mul(p.minus(avg)));
      if (t.feeAsset === 'USDT') realized = realized.minus(t.fee);
      held = held.minus(q);
    }
  }
  return { net: held.minus(fees).toFixed(), realized: realized.toDecimalPlaces(8, Decimal.ROUND_HALF_UP).toFixed() };
}

describe('strategies\' order changes and fills against the simulated venue with faults', () => {
  it('dropped stream, reordered and duplicated reports, 504 after taken, a fill first seen by myTrades: each strategy sees each change once and forward, its fills add up to the venue\'s, its book equals myTrades\'', async () => {
    r = await startRig({}, { reconcile: { everyMs: 2_000 } });
    const x = r;
    const { dropped } = await faultyStream(x);
    const seen = new Map<string, { views: OrderView[]; fills: OrderFill[] }>();
    const byStrategy = new Map<string, Set<string>>();
    x.ex.feed.on({
      order: (v) => {
        const s = seen.get(v.clientOrderId) ?? { views: [], fills: [] };
        seen.set(v.clientOrderId, s);
        s.views.push(v);
        byStrategy.set(v.strategyId, (byStrategy.get(v.strategyId) ?? new Set()).add(v.clientOrderId));
      },
      fill: (f) => {
        const s = seen.get(f.clientOrderId) ?? { views: [], fills: [] };
        seen.set(f.clientOrderId, s);
        s.fills.push(f);
      },
    });
    const sell = (price: string, qty: string, n: number) => x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price, quantity: qty, timeInForce: 'GTC', newClientOrderId: `cs-${n}` });
    const buy = (price: string, qty: string, n: number, timeInForce: 'GTC' | 'IOC' = 'GTC') => x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price, quantity: qty, timeInForce, newClientOrderId: `cb-${n}` });
    await sell('30000', '0.01', 1);
    await sell('30001', '0.01', 2);
    await sell('30002', '0.01', 3);
    await sell('30003', '0.02', 4);
    // From here: the two placements below meet a 504 after the venue took them, the stream drops at its next push, reports are reordered.
    await setFaults(x.t, { userStreamReorder: { rate: 0.4 }, userStreamReorderHoldMs: 300, dropWebSocket: { count: 1 }, orderTimeoutAfter: { count: 2 } });
    // Two strategies on one symbol: sa sweeps three levels, sb takes the rest.
    const ids: string[] = [];
    const submit = (i: ReturnType<typeof spot>): void => { ids.push(x.ex.submit(i)); };
    submit(spot('sa', 'sa-1', 'BUY', '30002', '0.025'));
    submit(spot('sb', 'sb-1', 'BUY', '30003', '0.02', 'IOC'));
    const final = (): boolean => ids.every((id) => { const v = x.ex.feed.get(id); return v !== undefined && isFinalStatus(v.status); });
    const settled = (): boolean => ids.every((id) => { const v = x.ex.feed.get(id); return v !== undefined && (isFinalStatus(v.status) || v.status === 'NEW' || v.status === 'PARTIALLY_FILLED'); });
    expect(await until(x, final, 60_000)).toBe(true);
    // Both sell back part: sa into two resting bids, sb rests a sell that is hit twice, then cancels the rest.
    await buy('29995', '0.01', 1);
    await buy('29990', '0.01', 2);
    submit(spot('sa', 'sa-2', 'SELL', '29990', '0.015', 'IOC'));
    submit(spot('sb', 'sb-2', 'SELL', '30010', '0.01'));
    expect(await until(x, settled, 60_000)).toBe(true);
    expect(await until(x, () => x.ex.feed.get('sb-2')?.status === 'NEW', 60_000)).toBe(true);
    await buy('30010', '0.004', 3, 'IOC');
    await buy('30010', '0.003', 4, 'IOC');
    expect(await until(x, () => x.ex.feed.get('sb-2')?.executedQty === '0.007', 60_000)).toBe(true);
    x.ex.submit({ kind: 'cancel', strategyId: 'sb', symbol: 'BTCUSDT', clientOrderId: 'sb-2' });
    expect(await until(x, final, 60_000)).toBe(true);
    await setFaults(x.t, {});
    await x.ex.reconcile();
    await x.ex.idle();

    expect(dropped()).toBeDefined();
    expect(x.t.venue.server.faults.fired).toMatchObject({ orderTimeoutAfter: 2, dropWebSocket: 1 });
    expect(x.t.venue.server.faults.fired.userStreamReorder).toBeGreaterThan(0);
    expect(user!.stats().reconnects).toBeGreaterThan(0);
    const venueTrades = await x.gateway.tradesSince('spot');
    for (const id of ids) {
      const s = seen.get(id)!;
      const statuses = s.views.map((v) => v.status);
      // NEW once first, then forward only, one final change, each change once.
      expect(statuses[0], id).toBe('NEW');
      expect(statuses.filter((st) => st === 'NEW').length, id).toBe(1);
      expect(statuses.filter((st) => isFinalStatus(st)).length, id).toBe(1);
      expect(isFinalStatus(statuses.at(-1)!), id).toBe(true);
      for (let i = 1; i < s.views.length; i++) {
        const [a, b] = [s.views[i - 1]!, s.views[i]!];
        expect(RANK[b.status] >= RANK[a.status], `${id} ${a.status}→${b.status}`).toBe(true);
        expect(new Decimal(b.executedQty).gte(a.executedQty), id).toBe(true);
        expect(b.status === a.status && b.executedQty === a.executedQty, `${id} repeated ${b.status}`).toBe(false);
      }
      // Each fill once, before the change it causes; they add up to the venue's executed quantity.
      const venue = await x.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: id });
      const sum = s.fills.reduce((a, f) => a.plus(f.qty), new Decimal(0));
      expect(sum.toFixed(), id).toBe(new Decimal(venue.executedQty).toFixed());
      expect(statuses.at(-1), id).toBe(venue.status);
      expect(s.views.at(-1)!.executedQty, id).toBe(new Decimal(venue.executedQty).toFixed());
      const mine = venueTrades.filter((t) => t.orderId === venue.orderId).map((t) => t.tradeId).sort();
      expect(s.fills.map((f) => f.tradeId).filter((t) => !t.includes(':')).sort(), id).toEqual(mine);
    }
    expect(ids.flatMap((id) => seen.get(id)!.fills).some((f) => f.source === 'reconciliation')).toBe(true);
    // Each strategy's book: what the venue's trades of its own orders imply, computed here.
    for (const strategy of ['sa', 'sb']) {
      expect([...byStrategy.get(strategy)!].every((id) => id.startsWith(`${strategy}-`))).toBe(true);
      const orderIds = new Set(ids.filter((id) => id.startsWith(`${strategy}-`)).map((id) => x.ex.feed.get(id)!.orderId));
      const want = implied(venueTrades.filter((t) => orderIds.has(t.orderId)));
      const book = x.ex.books.symbol(strategy, 'BTCUSDT');
      expect({ strategy, net: book.net, realized: book.realized }).toEqual({ strategy, net: want.net, realized: want.realized });
    }
    expect(x.ex.books.symbol('sa', 'BTCUSDT').net).not.toBe(x.ex.books.symbol('sb', 'BTCUSDT').net);
  }, 120_000);
});

describe('every order a strategy placed ends in a terminal event it receives', () => {
  it('an order refused before the venue saw it (orderErrorBefore), one refused by the venue, and one never sent after a 429 each reach onOrder as REJECTED, and the strategy goes on trading', async () => {
    r = await startRig({}, { settle: { windowMs: 1_000, checks: 2, everyMs: 500 } });
    const x = r;
    const got: string[] = [];
    const { host, ctx } = await rigStrategy(x, 'tf', () => ({ onOrder: (v) => { got.push(`${v.clientOrderId} ${v.status}${v.outcome === 'placed' ? '' : ` ${v.outcome}`}`); } }));
    await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC' });
    await setFaults(x.t, { orderErrorBefore: { count: 1 } });
    const first = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => got.some((g) => g.startsWith(first)), 30_000)).toBe(true);
    // A post-only buy at the best ask would take: the venue refuses it.
    const refused = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', price: '30000', quantity: '0.001' });
    expect(await until(x, () => got.some((g) => g.startsWith(refused)), 30_000)).toBe(true);
    await setFaults(x.t, { rateLimitStorm: { count: 1 } });
    const limited = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => got.some((g) => g.startsWith(limited)), 30_000)).toBe(true);
    await setFaults(x.t, {});
    const after = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => got.some((g) => g.startsWith(after)), 30_000)).toBe(true);
    expect(got).toEqual([`${first} REJECTED not-placed`, `${refused} REJECTED rejected`, `${limited} REJECTED not-placed`, `${after} NEW`]);
    expect(ctx.orders.get(first)?.reason).toMatch(/never placed/);
    await host.stop();
  }, 60_000);
});
