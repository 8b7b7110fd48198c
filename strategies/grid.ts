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
    // The ladder: level (ticks) → the side wanted there; and clientOrderId → the level and side of each live order.
    const wanted = new Map<number, 'BUY' | 'SELL'>();
    const live = new Map<string, { side: 'BUY' | 'SELL'; ticks: number }>();

    /** Places an order on every wanted level that has none. */
    const fill = (): void => {
      const covered = new Set([...live.values()].map((o) => o.ticks));
      for (const [ticks, side] of wanted) {
        if (covered.has(ticks) || ticks <= 0) continue;
        const id = ctx.orders.place({ symbol, side, type: 'LIMIT', timeInForce: 'GTC', price: fromTicks(inst, ticks), quantity: p.quantity });
        live.set(id, { side, ticks });
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
      onOrder(ev) {
        const o = live.get(ev.clientOrderId);
        if (o === undefined) return;
        if (ev.status === 'FILLED') {
          live.delete(ev.clientOrderId);
          wanted.delete(o.ticks);
          // Take the step's profit on the other side.
          if (o.side === 'BUY') wanted.set(o.ticks + p.stepTicks, 'SELL');
          else wanted.set(o.ticks - p.stepTicks, 'BUY');
          fill();
        } else if (ev.status === 'CANCELED' || ev.status === 'REJECTED') {
          live.delete(ev.clientOrderId);
        }
      },
      // Nothing was sent: the level stays wanted and the next retry places it again.
      onDenied(n) {
        if ('clientOrderId' in n.intent) live.delete(n.intent.clientOrderId);
      },
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
