// DenialNotice.clientOrderId: the id the refused call returned (place, replace, closePosition), the id a refused cancel named, none for cancelAll.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type DenialNotice, type StrategyContext } from '../../src/strategy/index.ts';
import { makeHost } from './helpers.ts';

describe('DenialNotice.clientOrderId', () => {
  it('names the id each refused call returned or named, and is absent for cancelAll', async () => {
    const { host } = makeHost((i) => ({ ok: false, code: 'TEST_DENY', text: `TEST_DENY: kind=${i.kind}` }));
    let ctx!: StrategyContext<unknown>;
    const denied: DenialNotice[] = [];
    host.add({ id: 'mm', symbols: ['BTCUSDT', 'BTC-PERP-REV'], params: {}, definition: defineStrategy({
      manifest: { name: 'probe', apiVersion: '1.0', params: z.strictObject({}) },
      create: (c) => { ctx = c; return { onDenied: (n) => { denied.push(n); } }; },
    }) });
    await host.start();
    const placed = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', price: '11369', quantity: '0.01' });
    const replaced = ctx.orders.replace('mm-r1-77', { symbol: 'BTCUSDT', side: 'BUY', price: '11370', quantity: '0.01' });
    const closed = ctx.orders.closePosition({ symbol: 'BTC-PERP-REV', side: 'LONG' });
    ctx.orders.cancel('BTCUSDT', 'mm-r1-78');
    ctx.orders.cancelAll('BTCUSDT');
    await Promise.resolve();
    expect(denied.map((n) => [n.intent.kind, n.clientOrderId])).toEqual([
      ['placeSpot', placed], ['replace', replaced], ['closePosition', closed], ['cancel', 'mm-r1-78'], ['cancelAll', undefined],
    ]);
    expect('clientOrderId' in denied[4]!).toBe(false);
    expect(new Set([placed, replaced, closed]).size).toBe(3);
    await host.stop();
  });
});
