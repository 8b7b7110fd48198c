// The strategy host's refusal log: a strategy that keeps hitting a limit, or whose orders the venue keeps rejecting, gives one line per code per interval, with the count of the ones in between, never a storm.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../../src/strategy/index.ts';
import { makeHost, viewOf } from './helpers.ts';

const RATE = 'ORDER_RATE: strategy=mm count=10 limit=10 window=1s';

function denyingHost() {
  return makeHost((i) => (i.kind === 'placeSpot' ? { ok: false, code: 'ORDER_RATE', text: RATE } : i.kind === 'replace' ? { ok: false, code: 'MAX_OPEN_ORDERS', text: 'MAX_OPEN_ORDERS: open=10 max=10' } : { ok: true }));
}

describe('StrategyHost denial log', () => {
  it('logs a denial code once per 5 s with the count of those not logged, and still tells the strategy of each', async () => {
    const { host, clock, lines } = denyingHost();
    let ctx!: StrategyContext<unknown>;
    let told = 0;
    host.add({ id: 'mm', symbols: ['BTCUSDT'], params: {}, definition: defineStrategy({
      manifest: { name: 'storm', apiVersion: '1.0', params: z.strictObject({}) },
      create: (c) => { ctx = c; return { onDenied: () => { told += 1; } }; },
    }) });
    await host.start();
    const denials = (): Record<string, unknown>[] => lines.filter((l) => String(l['msg']).startsWith('denied '));
    const place = (): string => ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', price: '11369', quantity: '0.01' });

    for (let i = 0; i < 30; i++) place();
    const replaced = ctx.orders.replace('mm-r1-1', { symbol: 'BTCUSDT', side: 'BUY', price: '11370', quantity: '0.01' });
    await clock.advance(1_000);
    expect(told).toBe(31);
    expect(denials().map((l) => l['msg'])).toEqual([`denied ${RATE}`, 'denied MAX_OPEN_ORDERS: open=10 max=10']);
    expect(denials()[0]).toMatchObject({ level: 40, code: 'ORDER_RATE', clientOrderId: 'mm-r1-1' });
    expect(denials()[1]).toMatchObject({ code: 'MAX_OPEN_ORDERS', clientOrderId: replaced });

    for (let i = 0; i < 10; i++) place();
    await clock.advance(3_999);
    place();
    await Promise.resolve();
    expect(denials()).toHaveLength(2);

    await clock.advance(1);
    place();
    await Promise.resolve();
    expect(denials()).toHaveLength(3);
    expect(denials()[2]).toMatchObject({ code: 'ORDER_RATE', notLogged: 40, sinceMs: 5_000, msg: `denied ${RATE}` });

    for (let i = 0; i < 4; i++) place();
    await Promise.resolve();
    await host.stop();
    expect(denials()).toHaveLength(4);
    expect(denials()[3]).toMatchObject({ code: 'ORDER_RATE', notLogged: 4, msg: 'denied ORDER_RATE 4 more times since the last line' });
  });

  it('logs the venue\'s rejections of its orders by code, even without onOrder: a post-only refusal as information, others as warnings', async () => {
    const { host, clock, lines, orders } = makeHost();
    host.add({ id: 'mm', symbols: ['BTCUSDT'], params: {}, definition: defineStrategy({
      manifest: { name: 'quiet', apiVersion: '1.0', params: z.strictObject({}) },
      create: () => ({}),
    }) });
    await host.start();
    const refused = (): Record<string, unknown>[] => lines.filter((l) => String(l['msg']).startsWith('order rejected'));
    const reject = (n: number, reason: string): void => orders.push(viewOf(`mm-r1-${n}`, { status: 'REJECTED', outcome: 'rejected', reason, orderId: undefined }));
    const POST_ONLY = 'venue -1158: create limit maker order failed';
    const AMOUNT = 'venue -1148: Market order amount decimal too long';
    reject(1, POST_ONLY);
    reject(2, AMOUNT);
    reject(3, POST_ONLY);
    // Another strategy's rejection, and an order this one's host decided not to send, are not the venue's refusals of its orders.
    orders.push(viewOf('other-r1-1', { status: 'REJECTED', outcome: 'rejected', reason: AMOUNT }));
    orders.push(viewOf('mm-r1-4', { status: 'REJECTED', outcome: 'not-placed', reason: 'ORDER_FINISHED: clientOrderId=mm-r1-3 status=FILLED' }));
    expect(refused().map((l) => [l['level'], l['code'], l['clientOrderId'], l['msg']])).toEqual([
      [30, 'venue -1158', 'mm-r1-1', `order rejected: ${POST_ONLY}`],
      [40, 'venue -1148', 'mm-r1-2', `order rejected: ${AMOUNT}`],
    ]);
    await clock.advance(5_000);
    reject(5, POST_ONLY);
    expect(refused()[2]).toMatchObject({ level: 30, code: 'venue -1158', notLogged: 1, sinceMs: 5_000 });
    reject(6, AMOUNT);
    reject(7, AMOUNT);
    await host.stop();
    expect(refused().slice(3).map((l) => [l['level'], l['msg']])).toEqual([
      [40, 'order rejected: venue -1148: Market order amount decimal too long'],
      [40, 'order rejected (venue -1148) 1 more times since the last line'],
    ]);
  });
});
