// A test strategy that cancels (an unknown id: nothing is sent) from each place a decision can come from, once each: a trade handler, after an await in it, ctx.every, a clock timer and its own bus subscription.
import { defineStrategy, z } from 'bhtrade';

export default defineStrategy({
  manifest: { name: 'handlers', apiVersion: '1.0', params: z.strictObject({}), streams: { trades: true, depth: 'none' } },
  create(ctx) {
    const symbol = ctx.symbols[0]!;
    const once = new Set<string>();
    const mark = (tag: string): void => {
      if (once.has(tag)) return;
      once.add(tag);
      ctx.orders.cancel(symbol, tag);
    };
    return {
      start() {
        ctx.every(1_000, () => mark('every'));
        ctx.clock.setTimeout(() => mark('timeout'), 1_500);
        ctx.bus.on('trade').subscribe(() => mark('bus'));
      },
      async onTrade() {
        mark('trade');
        await ctx.clock.sleep(10);
        mark('after-await');
      },
    };
  },
});
