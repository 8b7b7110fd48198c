// A test strategy with lookahead: it notes each trade's price by time in a map the test plants on globalThis (state that outlives one run), and every 5 s bids at the price it finds there 2 s ahead of now, when there is one.
import { defineStrategy, z } from 'bhtrade';

export default defineStrategy({
  manifest: {
    name: 'future-peek', apiVersion: '1.0', description: 'bids at a price it should not know yet',
    params: z.strictObject({ via: z.enum(['trade', 'timer']) }),
    streams: { trades: true, depth: 'none' },
  },
  create(ctx) {
    const prices = (globalThis as { __futurePrices?: Map<number, string> }).__futurePrices!;
    const symbol = ctx.symbols[0]!;
    let last: { time: number; price: string } | undefined;
    let decided = -Infinity;
    const decide = (): void => {
      if (last === undefined) return;
      const ahead = [...prices].find(([t]) => t >= ctx.clock.now() + 2_000);
      ctx.orders.place({ symbol, side: 'BUY', type: 'LIMIT', price: ahead?.[1] ?? last.price, quantity: '0.001', timeInForce: 'IOC' });
    };
    return {
      start() {
        if (ctx.params.via === 'timer') ctx.every(5_000, decide);
      },
      onTrade(ev) {
        prices.set(ev.recvTs, ev.price);
        last = { time: ev.recvTs, price: ev.price };
        if (ctx.params.via === 'trade' && ev.recvTs - decided >= 5_000) {
          decided = ev.recvTs;
          decide();
        }
      },
    };
  },
});
