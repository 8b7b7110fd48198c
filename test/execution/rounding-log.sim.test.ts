// risk.rounding: round moves an order onto the instrument's filters; the order is sent as rounded and the executor's debug log says what moved (against the simulated venue's real server).
import { afterEach, describe, expect, it } from 'vitest';
import { capturedLogger } from '../bus/samples.ts';
import { rigStrategy, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('an order the risk gate rounded', () => {
  it('is sent as rounded, and the executor logs each rounding at debug level', async () => {
    const log = capturedLogger();
    r = await startRig({}, { logger: log.logger }, { risk: { rounding: 'round' } });
    const x = r;
    const { host, ctx } = await rigStrategy(x, 'rnd', () => ({}));
    const id = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000.017', quantity: '0.0012345' });
    expect(await until(x, () => ctx.orders.get(id)?.status === 'NEW', 30_000)).toBe(true);
    expect(ctx.orders.get(id)).toMatchObject({ price: '29000.01', origQty: '0.001234' });
    const rounded = log.lines.filter((l) => l['msg'] === 'order rounded to the instrument\'s filters');
    expect(rounded).toEqual([expect.objectContaining({
      level: 20, strategy: 'rnd', clientOrderId: id,
      adjusted: ['PRICE_FILTER: price=29000.017 rounded=29000.01 tickSize=0.01', 'LOT_SIZE: qty=0.0012345 rounded=0.001234 stepSize=0.000001'],
    })]);
    // An order already on the filters is not logged.
    const plain = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => ctx.orders.get(plain)?.status === 'NEW', 30_000)).toBe(true);
    expect(log.lines.filter((l) => l['msg'] === 'order rounded to the instrument\'s filters')).toHaveLength(1);
    await host.stop();
  }, 60_000);
});
