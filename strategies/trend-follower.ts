// trend-follower: long when a fast EMA of the price is above a slow one, short (spot: flat) when below; the price is the book's sampled mid or each closed kline; the EMAs come from trading-signals.
import { EMA } from 'trading-signals';
import { Decimal, defineStrategy, fromSteps, fromTicks, toSteps, toTicks, z } from 'bhtrade';

export default defineStrategy({
  manifest: {
    name: 'trend-follower',
    apiVersion: '1.0',
    description: 'Trend follower: EMA crossover on sampled mids or kline closes, one position of fixed size (perpetuals long or short, spot long or flat), IOC orders.',
    params: z.strictObject({
      /** Contracts held when in a trend (perpetuals). */
      contracts: z.string().regex(/^[1-9]\d*$/, 'must be a whole number of contracts written as a string').default('10'),
      /** Base quantity held in an uptrend (spot symbols, which are long or flat). */
      quantity: z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal written as a string').default('0.01'),
      /** book: the book's mid sampled every barMs; klines: the close of each closed kline of the intervals the strategy streams (streams.klines). */
      signal: z.enum(['book', 'klines']).default('book'),
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
    const spot = inst.kind === 'spot';
    const fast = new EMA(p.fast);
    const slow = new EMA(p.slow);
    const size = toSteps(inst, spot ? p.quantity : p.contracts);
    // The best bid and ask in ticks: the book's, or the last kline's close on both sides.
    let quote: { bid: number; ask: number } | undefined;

    const send = (side: 'BUY' | 'SELL' | 'BUY_OPEN' | 'SELL_OPEN' | 'BUY_CLOSE' | 'SELL_CLOSE', steps: number): void => {
      if (quote === undefined || steps <= 0) return;
      const buy = side.startsWith('BUY');
      const price = fromTicks(inst, buy ? quote.ask + p.slippageTicks : quote.bid - p.slippageTicks);
      const quantity = fromSteps(inst, steps);
      if (side === 'BUY' || side === 'SELL') ctx.orders.place({ symbol, side, type: 'LIMIT', timeInForce: 'IOC', price, quantity });
      // Leverage is sent on closes too: the venue then reports the order's leverage instead of an empty field.
      else ctx.orders.place({ symbol, side, orderType: 'LIMIT', priceType: 'INPUT', timeInForce: 'IOC', price, quantity, leverage: p.leverage });
    };

    /** Takes one price sample (ticks) and trades toward the trend it shows. */
    const sample = (ticks: number): void => {
      // The indicator takes numbers: the price is converted for the signal only; orders use exact ticks.
      fast.update(ticks, false);
      slow.update(ticks, false);
      // One order at a time: the next waits until the last one is over (every order ends in a terminal event, refusals included).
      if (!slow.isStable || ctx.orders.open(symbol).length > 0) return;
      const up = fast.getResultOrThrow() > slow.getResultOrThrow();
      const want = up ? size : spot ? 0 : -size;
      // The position is the strategy's own, kept by the framework from its fills (spot: net of fees paid in the base, so whole steps of it are counted).
      const have = new Decimal(ctx.portfolio.book(symbol).net).divToInt(inst.stepSize).toNumber();
      if (spot) {
        // Long means bought (the fee leaves a little less than `size`), flat means sold what is held.
        if (up && have < size / 2) send('BUY', size - have);
        else if (!up && have > 0) send('SELL', have);
        else return;
      } else if (want === have) {
        return;
      }
      // Close the wrong side first; open on the next sample once the close has settled.
      else if (have > 0) send('SELL_CLOSE', have);
      else if (have < 0) send('BUY_CLOSE', -have);
      else send(want > 0 ? 'BUY_OPEN' : 'SELL_OPEN', size);
      // The EMAs run on ticks: shown as prices, to the nearest tick.
      const price = (ema: EMA): string => fromTicks(inst, Math.round(ema.getResultOrThrow()));
      ctx.log.info({ trend: up ? 'up' : 'down', position: fromSteps(inst, have), target: fromSteps(inst, want), fast: price(fast), slow: price(slow) }, 'order toward the trend');
    };

    return {
      start() {
        if (p.signal === 'book') ctx.every(p.barMs, () => quote && sample((quote.bid + quote.ask) / 2));
      },
      onDepthSnapshot(ev) {
        const bid = ev.bids[0];
        const ask = ev.asks[0];
        if (p.signal === 'book') quote = bid === undefined || ask === undefined ? undefined : { bid: toTicks(inst, bid[0]), ask: toTicks(inst, ask[0]) };
      },
      onKline(ev) {
        if (p.signal !== 'klines' || !ev.closed) return;
        const close = toTicks(inst, ev.close);
        quote = { bid: close, ask: close };
        sample(close);
      },
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
