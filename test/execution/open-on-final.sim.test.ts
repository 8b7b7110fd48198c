// ctx.orders.open() lists the orders not finished: read from the onOrder that shows an order's final status, it no longer lists that order (against the simulated venue's real server).
import { afterEach, describe, expect, it } from 'vitest';
import { isFinalStatus } from '../../src/model/index.ts';
import { rigStrategy, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('ctx.orders.open() from the onOrder of a final status', () => {
  it('no longer lists an order that FILLED, was CANCELED or was REJECTED, while ctx.orders.get() still reads it', async () => {
    r = await startRig({}, {}, { userStream: true });
    const x = r;
    const finals: { id: string; status: string; listed: boolean; read: string | undefined }[] = [];
    const { host, ctx } = await rigStrategy(x, 'of', (ctx) => ({
      onOrder: (v) => {
        if (!isFinalStatus(v.status)) return;
        const listed = ctx.orders.open('BTCUSDT').some((o) => o.clientOrderId === v.clientOrderId) || ctx.orders.open().some((o) => o.clientOrderId === v.clientOrderId);
        finals.push({ id: v.clientOrderId, status: v.status, listed, read: ctx.orders.get(v.clientOrderId)?.status });
      },
    }));
    await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC' });
    const taken = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.001', timeInForce: 'IOC' });
    const resting = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    const refused = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', price: '30000', quantity: '0.001' });
    expect(await until(x, () => ctx.orders.get(resting)?.status === 'NEW', 30_000)).toBe(true);
    ctx.orders.cancel('BTCUSDT', resting);
    expect(await until(x, () => finals.length === 3, 30_000)).toBe(true);
    expect([...finals].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: taken, status: 'FILLED', listed: false, read: 'FILLED' },
      { id: resting, status: 'CANCELED', listed: false, read: 'CANCELED' },
      { id: refused, status: 'REJECTED', listed: false, read: 'REJECTED' },
    ].sort((a, b) => a.id.localeCompare(b.id)));
    await host.stop();
  }, 60_000);
});
