// A test strategy for bar mode: on the first closed bar it places a limit buy below and a buy stop above, on the second a buy stop the next bar gaps over; it notes when it saw each bar and each fill in globalThis.__bars.
import { defineStrategy, z } from 'bhtrade';

/** What the strategy saw. */
export interface Bars {
  klines: { openTime: number; seenAt: number }[];
  fills: { price: string; qty: string; at: number }[];
  net: string;
}

export default defineStrategy({
  manifest: { name: 'bars', apiVersion: '1.0', description: 'bar path orders', params: z.strictObject({}), streams: { depth: 'none', klines: ['1h'] } },
  create(ctx) {
    const symbol = ctx.symbols[0]!;
    const g = globalThis as { __bars?: Bars };
    const b: Bars = (g.__bars = { klines: [], fills: [], net: '0' });
    const open = { symbol, side: 'BUY_OPEN', quantity: '1', leverage: '10' } as const;
    return {
      onKline(ev) {
        if (!ev.closed) return;
        b.klines.push({ openTime: ev.openTime, seenAt: ctx.clock.now() });
        if (b.klines.length === 1) {
          ctx.orders.place({ ...open, orderType: 'LIMIT', priceType: 'INPUT', timeInForce: 'GTC', price: '98' });
          ctx.orders.place({ ...open, orderType: 'STOP', priceType: 'INPUT', triggerPrice: '102', price: '102' });
        }
        if (b.klines.length === 2) ctx.orders.place({ ...open, orderType: 'STOP', priceType: 'INPUT', triggerPrice: '105', price: '110' });
      },
      onFill(f) {
        b.fills.push({ price: f.price, qty: f.qty, at: ctx.clock.now() });
        b.net = ctx.portfolio.book(symbol).net;
      },
    };
  },
});
