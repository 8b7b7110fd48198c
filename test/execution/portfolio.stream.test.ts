// The portfolio between snapshots, fed by the user stream's balance and position events from the simulated venue.
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, formatDown } from '../../src/core/fixed.ts';
import { statusOf } from '../../src/execution/index.ts';
import { balanceUpdateEvent } from '../../src/model/index.ts';
import type { PositionUpdateEvent } from '../../src/model/index.ts';
import { allSettled, setFaults, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

/** Returns the venue's spot balances of `assets` as `{asset: [free, locked]}`. */
async function venueSpot(x: Rig, assets: readonly string[]): Promise<Record<string, [string, string]>> {
  const list = (await x.gateway.balances()).spot.filter((b) => assets.includes(b.asset));
  return Object.fromEntries(list.map((b) => [b.asset, [new Decimal(b.free).toFixed(), new Decimal(b.locked).toFixed()]]));
}

function localSpot(x: Rig, assets: readonly string[]): Record<string, [string, string]> {
  const v = x.portfolio.view().spot;
  return Object.fromEntries(assets.filter((a) => v[a] !== undefined).map((a) => [a, [new Decimal(v[a]!.free).toFixed(), new Decimal(v[a]!.locked).toFixed()]]));
}

const LIQ_SYMBOL = 'BTC-SWAP-USDT';

/** Has the bot's strategy `trend` buy 100 BTC-SWAP-USDT at 30000 with leverage 20 from a resting seller; returns its clientOrderId. */
async function openLong(x: Rig): Promise<string> {
  await x.counter.newContractOrder({
    clientOrderId: 'lq-maker', symbol: LIQ_SYMBOL, side: 'SELL_OPEN', orderType: 'LIMIT', priceType: 'INPUT', price: '30000', quantity: '100', leverage: '20', timeInForce: 'GTC',
  });
  return x.ex.submit({
    kind: 'placeContract', strategyId: 'trend', symbol: LIQ_SYMBOL, clientOrderId: x.ex.nextClientOrderId(), side: 'BUY_OPEN',
    orderType: 'LIMIT', priceType: 'INPUT', price: '30000', quantity: '100', leverage: '20', timeInForce: 'IOC',
  });
}

/** Walks the index down until the venue liquidates the long: no order of the bot's, only the stream's position event. */
async function liquidateLong(x: Rig): Promise<void> {
  const venue = x.t.venue.backend.venue;
  let index = 30000;
  while ((await x.gateway.positions()).some((p) => p.symbol === LIQ_SYMBOL && p.side === 'LONG') && index > 20000) {
    index -= 50;
    venue.setIndexPrice('BTCUSDT', String(index));
    await x.t.clock.advance(100);
  }
  expect((await x.gateway.positions()).filter((p) => p.symbol === LIQ_SYMBOL && p.side === 'LONG')).toEqual([]);
}

describe('portfolio between snapshots, from the stream', () => {
  it('spot free and locked follow the venue when an order rests (funds locked), fills and is cancelled, with no reconciliation', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const assets = ['BTC', 'USDT'];
    expect(localSpot(r, assets)).toEqual(await venueSpot(r, assets));
    const id = r.ex.submit({
      kind: 'placeSpot', strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: r.ex.nextClientOrderId(), side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.02', timeInForce: 'GTC',
    });
    expect(await until(r, () => statusOf(r!.ex.order(id)!) === 'NEW' && r!.portfolio.view().spot['USDT']!.locked !== '0')).toBe(true);
    expect(localSpot(r, assets)).toEqual(await venueSpot(r, assets));
    expect(r.portfolio.view().spot['USDT']!.locked).toBe('600');
    await r.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'IOC' });
    expect(await until(r, () => statusOf(r!.ex.order(id)!) === 'PARTIALLY_FILLED' && r!.events.some((e) => e.type === 'fill'))).toBe(true);
    await r.ex.idle();
    expect(localSpot(r, assets)).toEqual(await venueSpot(r, assets));
    r.ex.cancel(id);
    expect(await until(r, () => allSettled(r!) && statusOf(r!.ex.order(id)!) === 'CANCELED' && r!.portfolio.view().spot['USDT']!.locked === '0')).toBe(true);
    expect(localSpot(r, assets)).toEqual(await venueSpot(r, assets));
  });

  it('an event older than what the portfolio holds is not taken', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const held = r.portfolio.view().spot['USDT']!;
    const stale = balanceUpdateEvent({ account: 'spot', asset: 'USDT', free: '1', locked: '2', ts: r.t.clock.now() - 60_000, recvTs: r.t.clock.now() });
    expect(r.portfolio.applyBalance(stale)).toBe(false);
    r.bus.publish(stale);
    expect(r.portfolio.view().spot['USDT']).toEqual(held);
  });

  it('the contract margin split (position and order margin) follows the venue for a resting order and an open position', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const token = 'USDT';
    const venueSplit = async () => {
      const b = (await r!.gateway.balances()).contract[token]!;
      return [b.total, b.availableMargin, b.positionMargin, b.orderMargin].map((x) => new Decimal(x).toFixed());
    };
    // The venue shows the account at marginPrecision (0.0001), rounded down.
    const localSplit = () => {
      const b = r!.portfolio.view().contract[token]!;
      return [b.total, b.availableMargin, b.positionMargin, b.orderMargin].map((x) => formatDown(new Decimal(x), 4));
    };
    const order = (side: 'BUY_OPEN', price: string, quantity: string) => ({
      kind: 'placeContract' as const, strategyId: 'trend', symbol: 'BTC-SWAP-USDT', clientOrderId: r!.ex.nextClientOrderId(), side,
      orderType: 'LIMIT' as const, priceType: 'INPUT' as const, price, quantity, leverage: '5', timeInForce: 'GTC' as const,
    });
    await r.counter.newContractOrder({
      clientOrderId: 'cq-1', symbol: 'BTC-SWAP-USDT', side: 'SELL_OPEN', orderType: 'LIMIT', priceType: 'INPUT', price: '30000', quantity: '100', leverage: '5', timeInForce: 'GTC',
    });
    const resting = r.ex.submit(order('BUY_OPEN', '29000', '100'));
    const taking = r.ex.submit(order('BUY_OPEN', '30000', '100'));
    expect(await until(r, () => statusOf(r!.ex.order(resting)!) === 'NEW' && statusOf(r!.ex.order(taking)!) === 'FILLED'
      && r!.portfolio.view().positions.length === 1 && r!.events.some((e) => e.type === 'fill'))).toBe(true);
    await r.ex.idle();
    const split = await venueSplit();
    expect(Number(split[2]) > 0 && Number(split[3]) > 0).toBe(true);
    expect(localSplit()).toEqual(split);
    const [vp] = await r.gateway.positions();
    expect(r.portfolio.view().positions.map((p) => [p.qty, new Decimal(p.margin).toFixed()])).toEqual([[vp!.position, new Decimal(vp!.margin).toFixed()]]);
  });

  it('a position event delivered late (it carries no venue time) never undoes a fill counted before it arrived: the bot holds what the venue holds', async () => {
    const symbol = 'BTC-PERP-REV';
    const contract = (side: 'BUY_OPEN' | 'SELL_OPEN' | 'SELL_CLOSE', price: string, quantity: string, clientOrderId: string) => ({
      clientOrderId, symbol, side, orderType: 'LIMIT' as const, priceType: 'INPUT' as const, price, quantity, leverage: '5', timeInForce: 'GTC' as const,
    });
    r = await startRig({}, { reconcile: { everyMs: 0 } }, {
      userStream: true,
      // The account starts with a LONG 10 from before the bot's start (as after a restart), which the start-up snapshot adopts.
      beforeStart: async ({ rest, counter }) => {
        await counter.newContractOrder(contract('SELL_OPEN', '30000', '10', 'pre-maker'));
        await rest.newContractOrder({ ...contract('BUY_OPEN', '30000', '10', 'pre-taker'), timeInForce: 'IOC' });
      },
    });
    const x = r;
    const longQty = (): string | undefined => x.portfolio.view().positions.find((p) => p.symbol === symbol && p.side === 'LONG')?.qty;
    const nextLongEvent = () => new Promise<PositionUpdateEvent>((resolve) => {
      const off = x.bus.subscribe('position', (ev) => { if (ev.symbol === symbol && ev.side === 'LONG') { off(); resolve(ev); } });
    });
    const venueLong = async (): Promise<string | undefined> => (await x.gateway.positions()).find((p) => p.symbol === symbol && p.side === 'LONG')?.position;
    expect(new Decimal(longQty()!).toFixed()).toBe('10');
    // Every user-stream frame now reaches the bot 1.5 s (of the shared virtual clock) after the venue sent it.
    await setFaults(x.t, { userStreamDelayMs: 1500 });
    const t0 = x.t.clock.now();
    const taker = (side: 'BUY_OPEN' | 'SELL_CLOSE') => ({
      kind: 'placeContract' as const, strategyId: 'trend', symbol, clientOrderId: x.ex.nextClientOrderId(), side,
      orderType: 'LIMIT' as const, priceType: 'INPUT' as const, price: '30000', quantity: '10', leverage: '5', timeInForce: 'IOC' as const,
    });
    // Buy 10 more (LONG 20): the REST answer says FILLED, so the fill is read from myTrades long before the stream's report of it.
    await x.counter.newContractOrder(contract('SELL_OPEN', '30000', '10', 'cq-1'));
    const buy = x.ex.submit(taker('BUY_OPEN'));
    expect(await until(x, () => statusOf(x.ex.order(buy)!) === 'FILLED' && longQty() === '20', 1000, 50)).toBe(true);
    // Sell them back (LONG 10), again counted from myTrades, while the stream's frames of the buy are still on their way.
    await x.counter.newContractOrder(contract('BUY_OPEN', '30000', '10', 'cq-2'));
    const sell = x.ex.submit(taker('SELL_CLOSE'));
    expect(await until(x, () => statusOf(x.ex.order(sell)!) === 'FILLED' && longQty() === '10', 1000, 50)).toBe(true);
    const t1 = x.t.clock.now();
    expect(t1 - t0).toBeLessThan(1500);
    expect(await venueLong()).toBe('10');
    // The buy's frames arrive now (LONG 20 as it was then), the sell's not yet: the bot must still hold LONG 10.
    const stale = nextLongEvent();
    await x.t.clock.advance(t0 + 1500 - x.t.clock.now());
    expect(new Decimal((await stale).position).toFixed()).toBe('20');
    await x.ex.idle();
    expect(longQty()).toBe('10');
    // The sell's frames (LONG 10) arrive too: still LONG 10, as on the venue.
    const fresh = nextLongEvent();
    await x.t.clock.advance(1500);
    expect(new Decimal((await fresh).position).toFixed()).toBe('10');
    await x.ex.idle();
    expect(new Decimal(longQty()!).toFixed()).toBe(new Decimal((await venueLong())!).toFixed());
  });

  it('a liquidation (a position change no own fill explains) shows within seconds, by a reconciliation the disagreeing position event asks for', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const x = r;
    const longQty = (): string | undefined => x.portfolio.view().positions.find((p) => p.symbol === LIQ_SYMBOL && p.side === 'LONG')?.qty;
    const buy = await openLong(x);
    expect(await until(x, () => statusOf(x.ex.order(buy)!) === 'FILLED' && longQty() !== undefined)).toBe(true);
    await liquidateLong(x);
    expect(await until(x, () => longQty() === undefined, 10_000, 250)).toBe(true);
  });

  it('a liquidation closes the position in the book of the strategy that held it too, charging it the margin the account lost', async () => {
    const symbol = LIQ_SYMBOL;
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const x = r;
    const total = async (): Promise<Decimal> => new Decimal((await x.gateway.balances()).contract['USDT']!.total);
    const buy = await openLong(x);
    expect(await until(x, () => statusOf(x.ex.order(buy)!) === 'FILLED' && x.ex.books.symbol('trend', symbol).net === '100')).toBe(true);
    await x.ex.idle();
    const opened = x.ex.books.symbol('trend', symbol);
    const totalOpen = await total();
    await liquidateLong(x);
    const lost = totalOpen.minus(await total());
    expect(lost.gt(0)).toBe(true);
    expect(await until(x, () => x.ex.books.symbol('trend', symbol).net === '0', 10_000, 250)).toBe(true);
    const closed = x.ex.books.symbol('trend', symbol);
    expect(closed.sides).toEqual([]);
    // The book lost what the venue's account lost (its balance, read independently), to the margin precision the book rounds to.
    expect(new Decimal(opened.realized).minus(closed.realized).toFixed()).toBe(lost.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed());
  });

  it('spot balance events delivered late carry the venue time, so fills read after them still move them: totals equal the venue', async () => {
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const x = r;
    const assets = ['BTC', 'USDT'];
    const total = (b: Record<string, [string, string]>) => Object.fromEntries(Object.entries(b).map(([a, [free, locked]]) => [a, new Decimal(free).plus(locked).toFixed()]));
    await setFaults(x.t, { userStreamDelayMs: 1500 });
    const t0 = x.t.clock.now();
    const taker = (side: 'BUY' | 'SELL') => ({
      kind: 'placeSpot' as const, strategyId: 'mm', symbol: 'BTCUSDT', clientOrderId: x.ex.nextClientOrderId(), side, type: 'LIMIT' as const, price: '30000', quantity: '0.01', timeInForce: 'IOC' as const,
    });
    await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC' });
    const buy = x.ex.submit(taker('BUY'));
    expect(await until(x, () => statusOf(x.ex.order(buy)!) === 'FILLED' && x.portfolio.pendingFills() === 1, 1000, 50)).toBe(true);
    await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC' });
    const sell = x.ex.submit(taker('SELL'));
    expect(await until(x, () => statusOf(x.ex.order(sell)!) === 'FILLED' && x.portfolio.pendingFills() === 2, 1000, 50)).toBe(true);
    expect(x.t.clock.now() - t0).toBeLessThan(1500);
    // The buy's balance event (as the account stood after the buy) arrives after both fills were counted.
    const stale = new Promise<void>((resolve) => {
      const off = x.bus.subscribe('balance', (ev) => { if (ev.account === 'spot' && ev.asset === 'BTC') { off(); resolve(); } });
    });
    await x.t.clock.advance(t0 + 1500 - x.t.clock.now());
    await stale;
    await x.ex.idle();
    expect(total(localSpot(x, assets))).toEqual(total(await venueSpot(x, assets)));
  });
});


describe('closePosition of a contract shared by two strategies', () => {
  it('closes only the closing strategy\'s own contracts: the other\'s stay open on the venue and in its book', async () => {
    const symbol = 'BTC-PERP-REV';
    r = await startRig({}, { reconcile: { everyMs: 0 } }, { userStream: true });
    const x = r;
    const counter = (side: 'SELL_OPEN' | 'BUY_OPEN', quantity: string, clientOrderId: string) => x.counter.newContractOrder({
      clientOrderId, symbol, side, orderType: 'LIMIT', priceType: 'INPUT', price: '30000', quantity, leverage: '5', timeInForce: 'GTC',
    });
    const buy = (strategyId: string, quantity: string) => x.ex.submit({
      kind: 'placeContract', strategyId, symbol, clientOrderId: x.ex.nextClientOrderId(), side: 'BUY_OPEN',
      orderType: 'LIMIT', priceType: 'INPUT', price: '30000', quantity, leverage: '5', timeInForce: 'IOC',
    });
    const venueLong = async (): Promise<string> => new Decimal((await x.gateway.positions()).find((p) => p.symbol === symbol && p.side === 'LONG')?.position ?? '0').toFixed();
    const net = (id: string): string => new Decimal(x.ex.books.symbol(id, symbol).net).toFixed();
    await counter('SELL_OPEN', '17', 'cq-1');
    const a = buy('a', '10');
    const b = buy('b', '7');
    expect(await until(x, () => statusOf(x.ex.order(a)!) === 'FILLED' && statusOf(x.ex.order(b)!) === 'FILLED' && net('a') === '10' && net('b') === '7', 2000, 50)).toBe(true);
    expect(await venueLong()).toBe('17');
    await counter('BUY_OPEN', '50', 'cq-2');
    // At a price: the rig feeds no market data, and a close at market needs the last price for the minimum notional.
    const close = x.ex.submit({ kind: 'closePosition', strategyId: 'a', symbol, clientOrderId: x.ex.nextClientOrderId(), side: 'LONG', price: '30000' });
    expect(await until(x, () => x.ex.order(close) !== undefined && statusOf(x.ex.order(close)!) === 'FILLED' && net('a') === '0', 2000, 50)).toBe(true);
    await x.ex.idle();
    expect(new Decimal(x.ex.order(close)!.origQty).toFixed()).toBe('10');
    expect(await venueLong()).toBe('7');
    expect([net('a'), net('b')]).toEqual(['0', '7']);
  });
});
