// A test strategy that logs one line per trade and throws on its `failAt`-th trade (never when 0), itself or (badSide) through a spot order with a contract side that bhtrade refuses, for what a backtest does with a strategy that fails.
import { defineStrategy, z } from 'bhtrade';

export default defineStrategy({
  manifest: {
    name: 'thrower', apiVersion: '1.0',
    params: z.strictObject({ failAt: z.number().int().min(0), badSide: z.boolean().default(false) }),
    streams: { depth: 'none', trades: true },
  },
  create(ctx) {
    let trades = 0;
    return {
      onTrade(t) {
        trades++;
        ctx.log.info({ price: t.price }, 'trade seen');
        if (trades !== ctx.params.failAt) return;
        if (ctx.params.badSide) ctx.orders.place({ symbol: t.symbol, side: 'BUY_OPEN', price: t.price, quantity: '0.001' });
        throw new Error(`planted failure on trade ${trades}`);
      },
    };
  },
});
