// A test strategy for the run's wind-down: rests a bid 3 % below the book (inside the price band, never reached), sends a marketable IOC in its stop handler (with `cancelFirst`, behind a cancelAll of its own), answers the first order event after its stop with a new order (as a grid answers a fill), with `retry` answers each refusal of it with another, and notes in globalThis.__windDown every order, fill and denial it gets.
import { defineStrategy, z, type DepthSnapshotEvent } from 'bhtrade';

export interface WindDown {
  events: string[];
  resting?: string;
  ioc?: string;
  placeAfterStop?: string;
  /** STRATEGY_STOPPED notices received. */
  stoppedNotices: number;
}

export default defineStrategy({
  manifest: { name: 'wind-down', apiVersion: '1.0', params: z.strictObject({ retry: z.boolean().default(false), cancelFirst: z.boolean().default(false) }), streams: { depth: 'snapshot', trades: false } },
  create(ctx) {
    const symbol = ctx.symbols[0]!;
    const g = globalThis as { __windDown?: WindDown };
    const w: WindDown = (g.__windDown = { events: [], stoppedNotices: 0 });
    let book: DepthSnapshotEvent | undefined;
    let stopped = false;
    return {
      onDepthSnapshot(ev) {
        book = ev;
        if (w.resting !== undefined) return;
        const bid = ev.bids[0]?.[0];
        if (bid === undefined) return;
        const price = (Math.floor(Number(bid) * 0.97 * 100) / 100).toFixed(2);
        w.resting = ctx.orders.place({ symbol, side: 'BUY', type: 'LIMIT', price, quantity: '0.001' });
      },
      onOrder(o) {
        w.events.push(`order ${o.clientOrderId} ${o.status}`);
        if (stopped && w.placeAfterStop === undefined) w.placeAfterStop = ctx.orders.place({ symbol, side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.001' });
      },
      onDenied(n) {
        if (n.code === 'STRATEGY_STOPPED') w.stoppedNotices += 1;
        if (ctx.params.retry && n.code === 'STRATEGY_STOPPED') ctx.orders.place({ symbol, side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.001' });
        else w.events.push(`denied ${n.clientOrderId ?? '-'} ${n.text}`);
      },
      onFill(f) {
        w.events.push(`fill ${f.clientOrderId} ${f.qty}`);
      },
      stop() {
        stopped = true;
        if (ctx.params.cancelFirst) ctx.orders.cancelAll(symbol);
        const ask = book?.asks[0]?.[0];
        if (ask !== undefined) w.ioc = ctx.orders.place({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: ask, quantity: '0.001' });
      },
    };
  },
});
