// grid: keeps buy and sell orders on a fixed ladder around the first mid; each filled buy is answered by a sell one level up, each filled sell by a buy one level down.
import { defineStrategy, fromTicks, toTicks, z } from 'bhtrade';

export default defineStrategy({
  manifest: {
    name: 'grid',
    apiVersion: '1.0',
    description: 'Spot grid: a ladder of limit orders around the starting mid, refilled on the other side as they fill.',
    params: z.strictObject({
      /** Base quantity of each grid order. */
      quantity: z.string().regex(/^\d+(\.\d+)?$/).default('0.001'),
      /** Orders on each side of the centre. */
      levels: z.number().int().min(1).max(50).default(5),
      /** Distance between levels, in ticks. */
      stepTicks: z.number().int().min(1).default(30),
      /** How often levels without a live order (refused, or not yet placed) are placed again. */
      retryMs: z.number().int().min(100).default(1000),
    }),
  },

  create(ctx) {
    const p = ctx.params;
    const symbol = ctx.symbols[0]!;
    const inst = ctx.instrument(symbol);
    let centre: number | undefined;
    // The ladder: level (ticks) → the side wanted there. Which levels have an order is read from the executor (ctx.orders.open).
    const wanted = new Map<number, 'BUY' | 'SELL'>();

    /** Places an order on every wanted level that has none (orders sent and not answered yet count as there). */
    const fill = (): void => {
      const covered = new Set(ctx.orders.open(symbol).map((o) => toTicks(inst, o.price)));
      for (const [ticks, side] of wanted) {
        if (covered.has(ticks) || ticks <= 0) continue;
        ctx.orders.place({ symbol, side, type: 'LIMIT', timeInForce: 'GTC', price: fromTicks(inst, ticks), quantity: p.quantity });
      }
    };

    return {
      start() {
        ctx.every(p.retryMs, fill);
      },
      onDepthSnapshot(ev) {
        if (centre !== undefined || ev.bids[0] === undefined || ev.asks[0] === undefined) return;
        centre = Math.floor((toTicks(inst, ev.bids[0][0]) + toTicks(inst, ev.asks[0][0])) / 2);
        ctx.log.info({ centre: fromTicks(inst, centre), levels: p.levels, step: fromTicks(inst, p.stepTicks) }, 'grid laid');
        for (let k = 1; k <= p.levels; k++) {
          wanted.set(centre - k * p.stepTicks, 'BUY');
          wanted.set(centre + k * p.stepTicks, 'SELL');
        }
        fill();
      },
      // Each of its orders ends once; a FILLED level is answered one step away on the other side.
      onOrder(ev) {
        if (ev.status !== 'FILLED') return;
        const ticks = toTicks(inst, ev.price);
        // A fill reported earlier may already have turned this level to the other side (levels filled in one sweep, reported out of price order): that answer stays.
        if (wanted.get(ticks) === ev.side) wanted.delete(ticks);
        if (ev.side === 'BUY') wanted.set(ticks + p.stepTicks, 'SELL');
        else wanted.set(ticks - p.stepTicks, 'BUY');
        fill();
      },
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
