// The strategy host: scoped events, the order API's ids and intents, denials, and a failing strategy stopped and logged while the others go on.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { orderUpdateEvent, type OrderFill, type OrderUpdateEvent, type TradeEvent } from '../../src/model/index.ts';
import { defineStrategy, type StrategyContext, type StrategyHandlers } from '../../src/strategy/index.ts';
import { sampleBook, sampleSpotReport, sampleTrade } from '../bus/samples.ts';
import { makeHost, viewOf } from './helpers.ts';

function plugin(name: string, create: (ctx: StrategyContext<{ n: number }>) => StrategyHandlers) {
  return defineStrategy({ manifest: { name, apiVersion: '1.0', params: z.strictObject({ n: z.number().default(1) }) }, create });
}

/** A fill of `clientOrderId` (strategy = its prefix). */
function fillOf(clientOrderId: string): OrderFill {
  return {
    tradeId: '1', orderId: '1', clientOrderId, strategyId: clientOrderId.split('-')[0]!, account: 'spot', symbol: 'BTCUSDT', side: 'BUY', price: '11369',
    qty: '0.01', fee: '0', feeAsset: '', maker: true, time: 0, source: 'stream',
  };
}

/** The published spot report, re-addressed to one of our clientOrderIds. */
function reportFor(clientOrderId: string, symbol = 'BTCUSDT'): OrderUpdateEvent {
  const s = sampleSpotReport();
  return orderUpdateEvent({ ...s, clientOrderId, symbol });
}

describe('StrategyHost', () => {
  it('delivers market events of the strategy\'s own symbols only, and changes, fills and raw reports of its own orders only', async () => {
    const { host, bus, orders } = makeHost();
    const seen: string[] = [];
    let ctx!: StrategyContext<{ n: number }>;
    host.add({ id: 'a', symbols: ['BTCUSDT'], params: {}, definition: plugin('a', (c) => {
      ctx = c;
      return {
        onTrade: (ev: TradeEvent) => { seen.push(`trade ${ev.symbol}`); },
        onDepthSnapshot: (ev) => { seen.push(`book ${ev.symbol}`); },
        onOrder: (ev) => { seen.push(`order ${ev.clientOrderId} ${ev.status}`); },
        onFill: (f) => { seen.push(`fill ${f.clientOrderId} ${f.qty}`); },
      };
    }) });
    host.add({ id: 'ab', symbols: ['BTCUSDT'], params: {}, definition: plugin('ab', () => ({})) });
    await host.start();
    const raw: string[] = [];
    ctx.bus.on('order').subscribe((ev) => raw.push(ev.clientOrderId));
    bus.publish(sampleTrade(0, 'BTCUSDT'));
    bus.publish(sampleTrade(0, 'BTC-PERP-REV'));
    bus.publish(sampleBook('BTCUSDT'));
    for (const id of ['a-r1-1', 'b-r1-1', 'ab-r1-1']) {
      orders.push(viewOf(id));
      orders.pushFill({ ...fillOf(id), qty: '0.01' });
      orders.push(viewOf(id, { status: 'FILLED', executedQty: '0.01' }));
      bus.publish(reportFor(id));
    }
    expect(seen).toEqual(['trade BTCUSDT', 'book BTCUSDT', 'order a-r1-1 NEW', 'fill a-r1-1 0.01', 'order a-r1-1 FILLED']);
    expect(raw).toEqual(['a-r1-1']);
    expect(ctx.orders.get('a-r1-1')?.status).toBe('FILLED');
    expect(ctx.orders.get('ab-r1-1')).toBeUndefined();
  });

  it('returns clientOrderIds at once and hands stamped intents to submit', async () => {
    const { host, sent } = makeHost();
    let ctx!: StrategyContext<{ n: number }>;
    host.add({ id: 'mm', symbols: ['BTCUSDT', 'BTC-PERP-REV'], params: { n: 2 }, definition: plugin('mm', (c) => { ctx = c; return {}; }) });
    await host.start();
    expect(ctx.params).toEqual({ n: 2 });
    const a = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', price: '11369', quantity: '0.01' });
    const b = ctx.orders.place({ symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', price: '11369.5', quantity: '10', leverage: '5' });
    const c = ctx.orders.replace(a, { symbol: 'BTCUSDT', side: 'BUY', price: '11370', quantity: '0.01' });
    ctx.orders.cancel('BTCUSDT', c);
    const d = ctx.orders.closePosition({ symbol: 'BTC-PERP-REV', side: 'LONG' });
    ctx.orders.cancelAll();
    expect([a, b, c, d]).toEqual(['mm-r1-1', 'mm-r1-2', 'mm-r1-3', 'mm-r1-4']);
    expect(sent.map((i) => i.kind)).toEqual(['placeSpot', 'placeContract', 'replace', 'cancel', 'closePosition', 'cancelAll']);
    expect(sent[0]).toMatchObject({ strategyId: 'mm', clientOrderId: a, type: 'LIMIT', price: '11369', quantity: '0.01' });
    expect(sent[1]).toMatchObject({ clientOrderId: b, orderType: 'LIMIT', priceType: 'INPUT', leverage: '5' });
    expect(sent[2]).toMatchObject({ replaces: a, order: { clientOrderId: c, price: '11370' } });
    expect(() => ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY_OPEN', quantity: '1' })).toThrow(/side BUY_OPEN does not fit BTCUSDT/);
    expect(() => ctx.orders.place({ symbol: 'ETHUSDT', side: 'BUY', quantity: '1' })).toThrow('symbol: unknown symbol ETHUSDT; the venue lists: BTC-PERP-BUSDT, BTC-PERP-REV, BTC-SWAP, BTCUSDT');
    expect(() => ctx.instrument('ETHUSDT')).toThrow('symbol: unknown symbol ETHUSDT; the venue lists: ');
  });

  it('tells the strategy when the gate denies an intent, after its own call returned', async () => {
    const { host, sent } = makeHost((i) => (i.kind === 'placeSpot' ? { ok: false, code: 'MIN_NOTIONAL', text: 'MIN_NOTIONAL: notional=0.11369 min=5' } : { ok: true }));
    const denied: string[] = [];
    let ctx!: StrategyContext<{ n: number }>;
    host.add({ id: 'd', symbols: ['BTCUSDT'], params: {}, definition: plugin('d', (c) => { ctx = c; return { onDenied: (n) => { denied.push(n.text); } }; }) });
    await host.start();
    const id = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', price: '11369', quantity: '0.00001' });
    expect(denied).toEqual([]);
    await Promise.resolve();
    expect(denied).toEqual(['MIN_NOTIONAL: notional=0.11369 min=5']);
    expect(sent).toHaveLength(1);
    expect(id).toBe('d-r1-1');
  });

  it('stops and logs a strategy whose handler throws, cancels its orders, and keeps the others going', async () => {
    const { host, bus, sent, lines } = makeHost();
    const good: string[] = [];
    let badCalls = 0;
    let badStopped = false;
    host.add({ id: 'bad', symbols: ['BTCUSDT'], params: {}, definition: plugin('bad', () => ({
      onTrade: () => { badCalls += 1; throw new Error('boom in onTrade'); },
      stop: () => { badStopped = true; },
    })) });
    host.add({ id: 'good', symbols: ['BTCUSDT'], params: {}, definition: plugin('good', () => ({ onTrade: (ev) => { good.push(ev.tradeId); } })) });
    await host.start();
    bus.publish(sampleTrade(0));
    bus.publish(sampleTrade(1));
    expect(badCalls).toBe(1);
    expect(badStopped).toBe(true);
    expect(good).toEqual(['426635153180475392', '426635153373413376']);
    expect(host.status()).toEqual([
      { id: 'bad', name: 'bad', state: 'failed', error: 'boom in onTrade' },
      { id: 'good', name: 'good', state: 'running' },
    ]);
    expect(sent).toEqual([{ kind: 'cancelAll', strategyId: 'bad' }]);
    const line = lines.find((l) => l['msg'] === 'strategy threw: stopped; the other strategies go on');
    expect(line).toMatchObject({ level: 50, strategy: 'bad', plugin: 'bad', err: { message: 'boom in onTrade' } });
  });

  it('stops a strategy whose async handler or timer rejects, and its timers stop firing', async () => {
    const { host, clock } = makeHost();
    let ticks = 0;
    let otherTicks = 0;
    host.add({ id: 'tm', symbols: ['BTCUSDT'], params: {}, definition: plugin('tm', (ctx) => ({
      start: () => { ctx.every(100, async () => { ticks += 1; if (ticks === 3) throw new Error('timer failed'); }); },
    })) });
    host.add({ id: 'ok', symbols: ['BTCUSDT'], params: {}, definition: plugin('ok', (ctx) => ({ start: () => { ctx.every(100, () => { otherTicks += 1; }); } })) });
    await host.start();
    await clock.advance(1000);
    expect(ticks).toBe(3);
    expect(otherTicks).toBe(10);
    expect(host.status()[0]).toMatchObject({ state: 'failed', error: 'timer failed' });
  });

  it('waits for a stop() that never returns no longer than the limit, says so, and still stops the next strategy', async () => {
    const { host, clock, lines } = makeHost();
    let stoppedNext = false;
    host.add({ id: 'hang', symbols: ['BTCUSDT'], params: {}, definition: plugin('hang', () => ({ stop: () => new Promise<void>(() => undefined) })) });
    host.add({ id: 'next', symbols: ['BTCUSDT'], params: {}, definition: plugin('next', () => ({ stop: () => { stoppedNext = true; } })) });
    await host.start();
    let done = false;
    const stopping = host.stop(2_000).then(() => { done = true; });
    await clock.advance(1_999);
    expect(done).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(stoppedNext).toBe(true);
    expect(host.status().map((st) => st.state)).toEqual(['stopping', 'stopping']);
    expect(lines.filter((l) => l['strategy'] === 'hang' && l['level'] === 40).map((l) => l['msg'])).toEqual([
      'stop() did not return within 2000 ms (stop.timeout): the run stops without waiting for it',
    ]);
  });

  it('stops a strategy whose start throws; refuses new orders after stop but lets cancels through', async () => {
    const { host, sent } = makeHost();
    let ctx!: StrategyContext<{ n: number }>;
    host.add({ id: 's1', symbols: ['BTCUSDT'], params: {}, definition: plugin('s1', () => ({ start: () => { throw new Error('no start'); } })) });
    host.add({ id: 's2', symbols: ['BTCUSDT'], params: {}, definition: plugin('s2', (c) => { ctx = c; return { stop: () => { c.orders.cancelAll('BTCUSDT'); } }; }) });
    await host.start();
    expect(host.status().map((s) => s.state)).toEqual(['failed', 'running']);
    await host.stop();
    // Stopping until the run's end: its orders' last events still reach it.
    expect(host.status().map((s) => s.state)).toEqual(['failed', 'stopping']);
    host.finish();
    expect(host.status().map((s) => s.state)).toEqual(['failed', 'stopped']);
    expect(sent).toContainEqual({ kind: 'cancelAll', strategyId: 's2', symbol: 'BTCUSDT' });
    expect(() => ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', price: '1', quantity: '1' })).toThrow(/after the strategy stopped/);
    expect(() => ctx.orders.cancel('BTCUSDT', 's2-r1-9')).not.toThrow();
  });

  it('refuses a bad id, an unknown symbol and bad params with the config path', () => {
    const { host } = makeHost();
    const def = plugin('p', () => ({}));
    expect(() => host.add({ id: 'has-dash', symbols: ['BTCUSDT'], params: {}, definition: def })).toThrow(/strategies.has-dash: a strategy id is 1-12/);
    expect(() => host.add({ id: 'x', symbols: ['BTCUSDT', 'NOPE'], params: {}, definition: def })).toThrow('strategies.x.symbols[1]: unknown symbol NOPE');
    expect(() => host.add({ id: 'x', symbols: ['BTCUSDT'], params: { n: 'one' }, definition: def, paramsPath: 'strategies[0].params' })).toThrow(/^strategies\[0\]\.params\.n: /);
  });
});
