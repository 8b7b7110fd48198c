// docs/strategies.md: every order call returns at once and its outcomes come later. An order cancelled before it was sent ends at once, but its onOrder must not run inside the strategy's own cancel call (against the simulated venue's real server).
import { afterEach, describe, expect, it } from 'vitest';
import { rigStrategy, startRig, until, type Rig } from './helpers.ts';

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('onOrder of an order cancelled before it was sent', () => {
  it('comes after the cancel or cancelAll call returned, not inside it, and in order with the changes that follow', async () => {
    r = await startRig({}, {}, { userStream: true });
    const x = r;
    const seen: string[] = [];
    let inside = false;
    const call = (fn: () => void): void => {
      inside = true;
      try {
        fn();
      } finally {
        inside = false;
      }
    };
    const { host, ctx } = await rigStrategy(x, 're', () => ({ onOrder: (v) => { seen.push(`${v.clientOrderId} ${v.status}${inside ? ' inside' : ''}`); } }));
    const a = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => ctx.orders.get(a)?.status === 'NEW', 30_000)).toBe(true);
    let b = '';
    let c = '';
    // The replacement waits for its old order's end: cancelled meanwhile, it is never sent.
    call(() => {
      b = ctx.orders.replace(a, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29001', quantity: '0.001' });
      ctx.orders.cancel('BTCUSDT', b);
    });
    call(() => {
      c = ctx.orders.replace(b, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29002', quantity: '0.001' });
    });
    const d = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29003', quantity: '0.001' });
    call(() => { ctx.orders.cancelAll('BTCUSDT'); });
    expect(await until(x, () => [a, d].every((id) => ctx.orders.get(id)?.status === 'CANCELED'), 30_000)).toBe(true);
    expect(seen.filter((s) => s.endsWith(' inside'))).toEqual([]);
    expect(seen.filter((s) => s.startsWith(b))).toEqual([`${b} CANCELED`]);
    expect(ctx.orders.get(b)?.reason).toBe('cancelled before it was sent');
    expect(seen.filter((s) => s.startsWith(a))).toEqual([`${a} NEW`, `${a} CANCELED`]);
    expect(c).not.toBe('');
    await host.stop();
  }, 60_000);

  it('from a cancelAll in stop(), comes after stop() returned: an order the strategy places from it is refused with STRATEGY_STOPPED', async () => {
    r = await startRig({}, {}, { userStream: true });
    const x = r;
    const seen: string[] = [];
    const denied: string[] = [];
    const { host, ctx } = await rigStrategy(x, 'st', (ctx) => ({
      onOrder: (v) => {
        seen.push(`${v.clientOrderId} ${v.status}`);
        if (v.status === 'CANCELED' && v.outcome === 'not-placed') ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29004', quantity: '0.001' });
      },
      onDenied: (n) => { denied.push(n.code); },
      stop: () => { ctx.orders.cancelAll('BTCUSDT'); },
    }));
    const a = ctx.orders.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.001' });
    expect(await until(x, () => ctx.orders.get(a)?.status === 'NEW', 30_000)).toBe(true);
    const b = ctx.orders.replace(a, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29001', quantity: '0.001' });
    await host.stop();
    expect(await until(x, () => ctx.orders.get(a)?.status === 'CANCELED' && denied.length > 0, 30_000)).toBe(true);
    expect(seen.filter((s) => s.startsWith(b))).toEqual([`${b} CANCELED`]);
    expect(denied).toEqual(['STRATEGY_STOPPED']);
    expect(x.ex.orders().filter((o) => o.price.startsWith('29004'))).toEqual([]);
    host.finish();
  }, 60_000);
});
