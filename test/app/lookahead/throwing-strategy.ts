// A test strategy that bids at every 10th trade and throws at the 50th: the host stops it there.
import { defineStrategy, z } from 'bhtrade';

export default defineStrategy({
  manifest: { name: 'throwing', apiVersion: '1.0', params: z.strictObject({}), streams: { trades: true, depth: 'none' } },
  create(ctx) {
    let n = 0;
    return {
      onTrade(ev) {
        if (++n === 50) throw new Error('thrown at trade 50');
        if (n % 10 === 0) ctx.orders.place({ symbol: ctx.symbols[0]!, side: 'BUY', type: 'LIMIT', price: ev.price, quantity: '0.001', timeInForce: 'IOC' });
      },
    };
  },
});
