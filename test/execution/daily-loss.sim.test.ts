// DAILY_LOSS reads the strategy's loss at the mark, not only what it closed: a strategy buying more into a falling price is stopped before it sells anything (against the simulated venue's real server).
import { afterEach, describe, expect, it } from 'vitest';
import { rigStrategy, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('DAILY_LOSS with a position losing at the mark', () => {
  it('denies new risk once the unrealized loss passes the limit, with nothing realized', async () => {
    r = await startRig({}, {}, { userStream: true, risk: { strategy: { dailyLossLimit: '1.5' } } });
    const x = r;
    const denied: string[] = [];
    const { host, ctx } = await rigStrategy(x, 'dl', () => ({ onDenied: (d) => void denied.push(`${d.clientOrderId ?? ''} ${d.text}`) }));
    await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC' });
    const first = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'IOC' });
    expect(await until(x, () => ctx.orders.get(first)?.status === 'FILLED', 30_000)).toBe(true);
    // Bought 0.01 at 30 000, its taker fee of 0.00001 BTC (0.3 USDT at the fill price) realized and 0.00999 held:
    // at 29 900, −0.3 + 0.00999 × −100 = −1.299, within the limit.
    x.portfolio.setPrice('BTCUSDT', { last: '29900' });
    const second = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => ctx.orders.get(second)?.status === 'NEW', 30_000)).toBe(true);
    // At 29 800, −0.3 + 0.00999 × −200 = −2.298: the next buy is denied.
    x.portfolio.setPrice('BTCUSDT', { last: '29800' });
    const third = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => denied.length > 0, 30_000)).toBe(true);
    expect(denied).toEqual([`${third} DAILY_LOSS: strategy=dl pnl=-2.298 limit=1.5`]);
    await host.stop();
  }, 60_000);
});
