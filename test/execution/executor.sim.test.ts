import { afterEach, describe, expect, it } from 'vitest';
import { compareDecimal, Decimal } from '../../src/core/fixed.ts';
import { statusOf } from '../../src/execution/index.ts';
import { orderUpdateEvent } from '../../src/model/index.ts';
import { allSettled, setFaults, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

const spot = (id: string, side: 'BUY' | 'SELL', price: string, quantity: string) => ({
  kind: 'placeSpot' as const, strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: id, side, type: 'LIMIT' as const, price, quantity, timeInForce: 'GTC' as const,
});

/** Compares every local order with the venue's own answer for it, and the local open set with openOrders. */
async function expectOrdersMatchVenue(x: Rig): Promise<void> {
  for (const o of x.ex.orders()) {
    if (o.outcome === 'not-placed' || o.outcome === 'rejected') continue;
    const v = await x.gateway.getOrder({ account: o.account, symbol: o.symbol, clientOrderId: o.clientOrderId });
    expect({ id: o.clientOrderId, status: statusOf(o), executedQty: o.executedQty }).toEqual({ id: v.clientOrderId, status: v.status, executedQty: v.executedQty });
  }
  const open = (await x.gateway.openOrders('spot')).map((o) => o.clientOrderId).sort();
  expect(x.ex.orders().filter((o) => ['NEW', 'PARTIALLY_FILLED'].includes(statusOf(o))).map((o) => o.clientOrderId).sort()).toEqual(open);
}

/** Returns free + locked per asset. */
function totals(list: readonly { asset: string; free: string; locked: string }[]): Record<string, string> {
  return Object.fromEntries(list.map((b) => [b.asset, new Decimal(b.free).plus(b.locked).toFixed()]));
}

describe('executor + RestGateway against the simulated venue on 127.0.0.1', () => {
  it('places, fills and cancels; local orders, fills-fed balances and the venue agree', async () => {
    r = await startRig();
    for (const price of ['30000', '30010']) await r.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price, quantity: '0.01', timeInForce: 'GTC' });
    const before = totals((await r.gateway.balances()).spot);
    const rest = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '20000', '0.001'));
    const take = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '31000', '0.02'));
    expect(rest).toBe('bh-run1-1');
    expect(take).toBe('bh-run1-2');
    expect(statusOf(r.ex.order(rest)!)).toBe('PENDING_NEW');
    expect(await until(r, () => allSettled(r!))).toBe(true);
    r.ex.submit({ kind: 'cancel', strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: rest });
    expect(await until(r, () => statusOf(r!.ex.order(rest)!) === 'CANCELED')).toBe(true);
    expect(statusOf(r.ex.order(take)!)).toBe('FILLED');
    // Fills arrive by trade id; until a snapshot is read, the totals come from them alone.
    expect(await until(r, () => r!.events.some((e) => e.type === 'fill'))).toBe(true);
    await r.ex.syncFills();
    const fills = r.events.filter((e) => e.type === 'fill');
    expect(new Set(fills.map((e) => e.type === 'fill' && e.fill.tradeId)).size).toBe(fills.length);
    const venue = totals((await r.gateway.balances()).spot);
    const local = totals(Object.entries(r.portfolio.view().spot).map(([asset, h]) => ({ asset, ...h })));
    expect(venue).not.toEqual(before);
    for (const asset of ['BTC', 'USDT']) expect(local[asset]).toBe(venue[asset]);
    await expectOrdersMatchVenue(r);
    await r.ex.reconcile();
    expect(r.portfolio.view().spot).toEqual(Object.fromEntries((await r.gateway.balances()).spot.map((b) => [b.asset, { free: b.free, locked: b.locked }])));
  });

  it('contract open across two price levels: the position built from fills equals the venue’s', async () => {
    r = await startRig();
    const quote = (side: 'SELL_OPEN', price: string, quantity: string, n: number) => r!.counter.newContractOrder({
      clientOrderId: `cp-${n}`, symbol: 'BTC-SWAP-USDT', side, orderType: 'LIMIT', priceType: 'INPUT', price, quantity, leverage: '5', timeInForce: 'GTC',
    });
    await quote('SELL_OPEN', '30000', '100', 1);
    await quote('SELL_OPEN', '30100.5', '100', 2);
    const c = (side: 'BUY_OPEN', price: string, quantity: string) => ({
      kind: 'placeContract' as const, strategyId: 'trend', symbol: 'BTC-SWAP-USDT', clientOrderId: r!.ex.nextClientOrderId(), side,
      orderType: 'LIMIT' as const, priceType: 'INPUT' as const, price, quantity, leverage: '5', timeInForce: 'IOC' as const,
    });
    r.ex.submit(c('BUY_OPEN', '31000', '150'));
    expect(await until(r, () => allSettled(r!) && r!.portfolio.view().positions.length > 0)).toBe(true);
    await r.ex.syncFills();
    const [vp] = await r.gateway.positions();
    const [lp] = r.portfolio.view().positions;
    expect(lp!.qty).toBe(vp!.position);
    expect(compareDecimal(new Decimal(lp!.avgPrice).toDecimalPlaces(1, Decimal.ROUND_DOWN).toFixed(), vp!.avgPrice)).toBe(0);
    await r.ex.reconcile();
    expect(r.portfolio.view().positions.map((p) => [p.side, p.qty])).toEqual([[vp!.side, vp!.position]]);
  });
});

describe('contract close against the venue', () => {
  it('closes a long with SELL_CLOSE: the order ends FILLED (not unknown), the position is gone and the realized PnL (5 USDT less both fees) is what the venue’s account moved by', async () => {
    r = await startRig();
    const quote = (side: 'SELL_OPEN' | 'BUY_OPEN', price: string, n: number) => r!.counter.newContractOrder({
      clientOrderId: `cq-${n}`, symbol: 'BTC-SWAP-USDT', side, orderType: 'LIMIT', priceType: 'INPUT', price, quantity: '100', leverage: '5', timeInForce: 'GTC',
    });
    const mine = (side: 'BUY_OPEN' | 'SELL_CLOSE', price: string) => ({
      kind: 'placeContract' as const, strategyId: 'trend', symbol: 'BTC-SWAP-USDT', clientOrderId: r!.ex.nextClientOrderId(), side,
      orderType: 'LIMIT' as const, priceType: 'INPUT' as const, price, quantity: '100', timeInForce: 'IOC' as const,
      ...(side === 'BUY_OPEN' ? { leverage: '5' } : {}),
    });
    const before = (await r.gateway.balances()).contract['USDT']!;
    await quote('SELL_OPEN', '30000', 1);
    const open = r.ex.submit(mine('BUY_OPEN', '30000'));
    expect(await until(r, () => statusOf(r!.ex.order(open)!) === 'FILLED')).toBe(true);
    await quote('BUY_OPEN', '30500', 2);
    const close = r.ex.submit(mine('SELL_CLOSE', '30500'));
    expect(await until(r, () => allSettled(r!))).toBe(true);
    expect({ status: statusOf(r.ex.order(close)!), outcome: r.ex.order(close)!.outcome }).toEqual({ status: 'FILLED', outcome: 'placed' });
    await r.ex.syncFills();
    expect(await r.gateway.positions()).toEqual([]);
    expect(r.portfolio.view().positions).toEqual([]);
    const trades = await r.gateway.tradesSince('contract');
    expect(trades.filter((f) => f.orderId === r!.ex.order(close)!.orderId).map((f) => [f.side, f.qty, f.price])).toEqual([['SELL_CLOSE', '100', '30500']]);
    const venueFees = trades.reduce((a, f) => a.plus(f.fee), new Decimal(0));
    // 100 contracts × 0.0001 × (30500 − 30000) = 5 USDT before fees; both fills' fees come off it.
    const expected = new Decimal('5').minus(venueFees);
    expect(r.portfolio.view().realized['BTC-SWAP-USDT']).toBe(expected.toFixed());
    expect(venueFees.isZero()).toBe(false);
    const after = (await r.gateway.balances()).contract['USDT']!;
    expect(new Decimal(after.total).minus(before.total).toFixed()).toBe(expected.toFixed());
    expect(r.portfolio.view().contract['USDT']!.total).toBe(after.total);
  });
});

describe('faults', () => {
  it('a 504 after the order was taken: found by getOrder on its clientOrderId, never sent twice', async () => {
    r = await startRig();
    await setFaults(r.t, { orderTimeoutAfter: { count: 1 } });
    const id = r.ex.submit({ ...spot(r.ex.nextClientOrderId(), 'BUY', '20000', '0.001') });
    expect(await until(r, () => allSettled(r!))).toBe(true);
    expect(r.ex.order(id)!.outcome).toBe('placed');
    expect(statusOf(r.ex.order(id)!)).toBe('NEW');
    const venue = await r.gateway.openOrders('spot');
    expect(venue.map((o) => o.clientOrderId)).toEqual([id]);
    await expectOrdersMatchVenue(r);
  });

  it('a 5xx before the order was taken: settled as never placed after the window and the bounded checks', async () => {
    r = await startRig({}, { settle: { windowMs: 5000, checks: 3, everyMs: 1000 } });
    await setFaults(r.t, { orderErrorBefore: { count: 1 } });
    const id = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '20000', '0.001'));
    await r.ex.idle();
    expect(statusOf(r.ex.order(id)!)).toBe('UNKNOWN');
    const t0 = r.t.clock.now();
    expect(await until(r, () => statusOf(r!.ex.order(id)!) === 'REJECTED')).toBe(true);
    expect(r.t.clock.now() - t0).toBeGreaterThanOrEqual(5000);
    expect(r.ex.order(id)!.outcome).toBe('not-placed');
    expect(await r.gateway.openOrders('spot')).toEqual([]);
    // Each retry left the clock when it fired; nothing waits for a settled order.
    expect(r.exClock.pendingTimeouts()).toBe(0);
  });

  it('a query retry waiting on the clock is dropped when the order settles some other way', async () => {
    r = await startRig({}, { settle: { windowMs: 5000, checks: 3, everyMs: 1000 } });
    await setFaults(r.t, { orderErrorBefore: { count: 1 } });
    const id = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '30000', '0.01'));
    await r.ex.idle();
    await r.ex.idle();
    // The first query found nothing (-2013): a retry waits on the clock.
    expect(statusOf(r.ex.order(id)!)).toBe('UNKNOWN');
    expect(r.exClock.pendingTimeouts()).toBe(1);
    // The request arrives late after all (same clientOrderId), is filled, and the stream reports it.
    await r.rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC', newClientOrderId: id });
    await r.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'IOC' });
    const v = await r.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: id });
    r.bus.publish(orderUpdateEvent({
      account: 'spot', symbol: v.symbol, clientOrderId: id, orderId: v.orderId, status: v.status, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC',
      price: v.price, origQty: v.origQty, executedQty: v.executedQty, cumQuote: new Decimal(v.executedQty).mul(v.avgPrice).toFixed(), lastQty: v.executedQty,
      lastPrice: v.avgPrice, tradeId: undefined, fee: '0', feeAsset: undefined, maker: false, createdTs: v.time, closeOrder: undefined, leverage: undefined, ts: v.time, recvTs: r.t.clock.now(),
    }));
    expect(statusOf(r.ex.order(id)!)).toBe('FILLED');
    // The fill read is the only timer left; once it ran, nothing of the executor waits on the clock.
    await r.t.clock.advance(300);
    await r.ex.idle();
    expect(r.exClock.pendingTimeouts()).toBe(0);
    expect(r.events.filter((e) => e.type === 'fill').length).toBe(1);
  });

  it('a 429 storm: the executor and the client back off, no 418, every order settled once', async () => {
    r = await startRig();
    let banned = 0;
    r.rest.budgets.on((e) => { if (e.type === 'banned') banned += 1; });
    await setFaults(r.t, { rateLimitStorm: { count: 6 } });
    const ids = Array.from({ length: 5 }, (_, i) => r!.ex.submit(spot(r!.ex.nextClientOrderId(), 'BUY', String(20000 + i), '0.001')));
    expect(await until(r, () => allSettled(r!), 120_000, 500)).toBe(true);
    expect(banned).toBe(0);
    const open = (await r.gateway.openOrders('spot')).map((o) => o.clientOrderId);
    expect(new Set(open).size).toBe(open.length);
    for (const id of ids) {
      const o = r.ex.order(id)!;
      expect(['NEW', 'REJECTED']).toContain(statusOf(o));
      expect(open.includes(id)).toBe(statusOf(o) === 'NEW');
    }
  });
});

describe('user-stream reports reordered and duplicated', () => {
  it('moves the order only forward and ends as the venue says', async () => {
    r = await startRig();
    const id = r.ex.submit(spot(r.ex.nextClientOrderId(), 'BUY', '30000', '0.02'));
    expect(await until(r, () => statusOf(r!.ex.order(id)!) === 'NEW')).toBe(true);
    // The venue's own answers at each stage of the order's life become the stream's reports.
    const stages = [await r.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: id })];
    for (let i = 0; i < 2; i++) {
      await r.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'IOC' });
      stages.push(await r.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: id }));
    }
    expect(stages.map((s) => s.status)).toEqual(['NEW', 'PARTIALLY_FILLED', 'FILLED']);
    const seen: string[] = [];
    r.ex.on((e) => { if (e.type === 'order' && e.order.clientOrderId === id) seen.push(`${statusOf(e.order)}:${e.order.executedQty}`); });
    const ev = (s: (typeof stages)[number]) => orderUpdateEvent({
      account: 'spot', symbol: s.symbol, clientOrderId: s.clientOrderId, orderId: s.orderId, status: s.status, side: 'BUY', type: 'LIMIT',
      timeInForce: 'GTC', price: s.price, origQty: s.origQty, executedQty: s.executedQty, cumQuote: new Decimal(s.executedQty).mul(s.avgPrice).toFixed(),
      lastQty: '0', lastPrice: '0', tradeId: undefined, fee: '0', feeAsset: undefined, maker: true, createdTs: s.time, closeOrder: undefined, leverage: undefined, ts: s.time, recvTs: r!.t.clock.now(),
    });
    for (const s of [stages[1]!, stages[2]!, stages[1]!, stages[0]!, stages[2]!]) r.bus.publish(ev(s));
    expect(seen).toEqual(['PARTIALLY_FILLED:0.01', 'FILLED:0.02']);
    expect(statusOf(r.ex.order(id)!)).toBe('FILLED');
    await r.ex.syncFills();
    await expectOrdersMatchVenue(r);
  });
});
