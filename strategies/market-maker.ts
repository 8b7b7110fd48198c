// market-maker: quotes one bid and one ask around the mid of a spot book, skewed against its inventory so it leans back toward its target holding.
import { z } from 'zod';
import { Decimal } from '../src/core/fixed.ts';
import type { DepthSnapshotEvent } from '../src/model/index.ts';
import { defineStrategy, fromTicks, toTicks } from '../src/strategy/index.ts';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal written as a string, e.g. "0.001"');

export default defineStrategy({
  manifest: {
    name: 'market-maker',
    apiVersion: '1.0',
    description: 'Spot market maker: one bid and one ask around the mid, skewed by inventory.',
    params: z.strictObject({
      /** Base quantity of each quote. */
      quantity: decimal.default('0.001'),
      /** Distance between our bid and ask, in ticks. */
      spreadTicks: z.number().int().min(2).default(20),
      /** Base asset holding the maker aims for; the skew is zero there. */
      targetInventory: decimal.default('10'),
      /** Ticks the quotes move per `quantity` of inventory above (down) or below (up) the target. */
      skewTicksPerQuantity: z.number().min(0).default(2),
      /** Largest skew, in ticks. */
      maxSkewTicks: z.number().int().min(0).default(200),
      /** A quote is moved only when its wanted price is this many ticks away (saves order budget). */
      requoteTicks: z.number().int().min(1).default(3),
      /** How often the quotes are reconsidered. */
      refreshMs: z.number().int().min(50).default(500),
    }),
  },

  create(ctx) {
    const p = ctx.params;
    const symbol = ctx.symbols[0]!;
    const inst = ctx.instrument(symbol);
    let book: DepthSnapshotEvent | undefined;
    // Our live quote on each side: its clientOrderId and price in ticks.
    const quotes: Record<'BUY' | 'SELL', { id: string; ticks: number } | undefined> = { BUY: undefined, SELL: undefined };

    /** Returns the skew in ticks: positive when long of the target, so both quotes move down. */
    const skewTicks = (): number => {
      const b = ctx.portfolio.balance(inst.baseAsset, 'spot');
      const excess = new Decimal(b.free).plus(b.locked).minus(p.targetInventory).div(p.quantity);
      // A signal, not an amount: a float is fine here and never reaches an order.
      const skew = Math.round(excess.toNumber() * p.skewTicksPerQuantity);
      return Math.max(-p.maxSkewTicks, Math.min(p.maxSkewTicks, skew));
    };

    /** Returns the best price of a side in ticks, leaving out our own quote (else the maker would chase itself). */
    const best = (levels: readonly (readonly [string, string])[], own: { ticks: number } | undefined): number | undefined => {
      for (const [price, qty] of levels) {
        const ticks = toTicks(inst, price);
        if (own !== undefined && ticks === own.ticks && new Decimal(qty).lte(p.quantity)) continue;
        return ticks;
      }
      return undefined;
    };

    const requote = (): void => {
      if (book === undefined) return;
      const bid = best(book.bids, quotes.BUY);
      const ask = best(book.asks, quotes.SELL);
      if (bid === undefined && ask === undefined) return;
      // A one-sided book (our own stale quote can keep another maker's post-only orders out): price off the side there is.
      const bestBid = bid ?? ask! - p.spreadTicks;
      const bestAsk = ask ?? bid! + p.spreadTicks;
      const mid2 = bestBid + bestAsk; // twice the mid, to stay in whole ticks
      const skew = skewTicks();
      const half = Math.floor(p.spreadTicks / 2);
      // Never cross the book: a maker quote rests at most one tick inside the other side.
      const want = {
        BUY: Math.min(Math.floor(mid2 / 2) - half - skew, bestAsk - 1),
        SELL: Math.max(Math.ceil(mid2 / 2) + half - skew, bestBid + 1),
      };
      for (const side of ['BUY', 'SELL'] as const) {
        const q = quotes[side];
        if (q !== undefined && Math.abs(q.ticks - want[side]) < p.requoteTicks) continue;
        const req = { symbol, side, type: 'LIMIT' as const, timeInForce: 'GTC' as const, price: fromTicks(inst, want[side]), quantity: p.quantity };
        const id = q === undefined ? ctx.orders.place(req) : ctx.orders.replace(q.id, req);
        quotes[side] = { id, ticks: want[side] };
      }
    };

    return {
      start() {
        ctx.every(p.refreshMs, requote);
      },
      onDepthSnapshot(ev) {
        book = ev;
      },
      onOrder(ev) {
        for (const side of ['BUY', 'SELL'] as const) {
          const q = quotes[side];
          if (q?.id !== ev.clientOrderId) continue;
          if (ev.status === 'FILLED' || ev.status === 'CANCELED' || ev.status === 'REJECTED') quotes[side] = undefined;
          if (ev.status === 'FILLED') ctx.log.info({ side, price: ev.price, qty: ev.executedQty }, 'quote filled');
        }
      },
      // Nothing was sent: forget the quote; a refused replace leaves the old order resting, so cancel it.
      onDenied(n) {
        const id = n.intent.kind === 'replace' ? n.intent.order.clientOrderId : 'clientOrderId' in n.intent ? n.intent.clientOrderId : undefined;
        for (const side of ['BUY', 'SELL'] as const) if (quotes[side]?.id === id) quotes[side] = undefined;
        if (n.intent.kind === 'replace') ctx.orders.cancel(symbol, n.intent.replaces);
      },
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
