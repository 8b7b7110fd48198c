// trend-follower: long when a fast EMA of the perpetual's mid is above a slow one, short when below; the EMAs come from trading-signals.
import { EMA } from 'trading-signals';
import { defineStrategy, fromSteps, fromTicks, toSteps, toTicks, z, type DepthSnapshotEvent } from 'bhtrade';

export default defineStrategy({
  manifest: {
    name: 'trend-follower',
    apiVersion: '1.0',
    description: 'Perpetual trend follower: EMA crossover on sampled mids, one position of fixed size, IOC orders.',
    params: z.strictObject({
      /** Contracts held when in a trend. */
      contracts: z.string().regex(/^[1-9]\d*$/, 'must be a whole number of contracts written as a string').default('10'),
      leverage: z.string().regex(/^\d+(\.\d+)?$/).default('5'),
      fast: z.number().int().min(1).default(5),
      slow: z.number().int().min(2).default(20),
      /** How often a mid is sampled into the EMAs. */
      barMs: z.number().int().min(50).default(1000),
      /** How far past the best opposite price an IOC order may fill, in ticks. */
      slippageTicks: z.number().int().min(0).default(50),
    }).refine((x) => x.fast < x.slow, { message: 'fast must be below slow', path: ['fast'] }),
  },

  create(ctx) {
    const p = ctx.params;
    const symbol = ctx.symbols[0]!;
    const inst = ctx.instrument(symbol);
    const fast = new EMA(p.fast);
    const slow = new EMA(p.slow);
    const size = toSteps(inst, p.contracts);
    let book: DepthSnapshotEvent | undefined;

    const send = (side: 'BUY_OPEN' | 'SELL_OPEN' | 'BUY_CLOSE' | 'SELL_CLOSE', steps: number): void => {
      if (book?.bids[0] === undefined || book.asks[0] === undefined || steps <= 0) return;
      const buy = side.startsWith('BUY');
      const ticks = buy ? toTicks(inst, book.asks[0][0]) + p.slippageTicks : toTicks(inst, book.bids[0][0]) - p.slippageTicks;
      ctx.orders.place({
        symbol, side, orderType: 'LIMIT', priceType: 'INPUT', timeInForce: 'IOC', price: fromTicks(inst, ticks),
        // Leverage is sent on closes too: the venue then reports the order's leverage instead of an empty field.
        quantity: fromSteps(inst, steps), leverage: p.leverage,
      });
    };

    const bar = (): void => {
      const bid = book?.bids[0];
      const ask = book?.asks[0];
      if (bid === undefined || ask === undefined) return;
      // The indicator takes numbers: the mid is converted for the signal only; orders use exact ticks.
      const mid = (toTicks(inst, bid[0]) + toTicks(inst, ask[0])) / 2;
      fast.update(mid, false);
      slow.update(mid, false);
      // One order at a time: the next waits until the last one is over (every order ends in a terminal event, refusals included).
      if (!slow.isStable || ctx.orders.open(symbol).length > 0) return;
      const want = fast.getResultOrThrow() > slow.getResultOrThrow() ? size : -size;
      // The position is the strategy's own, kept by the framework from its fills.
      const have = toSteps(inst, ctx.portfolio.book(symbol).net);
      if (want === have) return;
      // Close the wrong side first; open on the next bar once the close has settled.
      if (have > 0) send('SELL_CLOSE', have);
      else if (have < 0) send('BUY_CLOSE', -have);
      else send(want > 0 ? 'BUY_OPEN' : 'SELL_OPEN', size);
      ctx.log.info({ want, have, fast: fast.getResult(), slow: slow.getResult() }, 'trend changed');
    };

    return {
      start() {
        ctx.every(p.barMs, bar);
      },
      onDepthSnapshot(ev) {
        book = ev;
      },
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
