// market-maker: quotes one bid and one ask around the others' mid of a spot book, at least the venue's maker fee from the mid on each side, skewed against its own position so it leans back toward its target.
import { Decimal, defineStrategy, fromTicks, toTicks, z, type DepthSnapshotEvent } from 'bhtrade';
import { dueSides, feeHalfSpreadTicks, OrderBudget, othersBest, ownByTicks, pctTicks, skewTicks, targets, type Near, type Quote } from './market-maker/quotes.ts';

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal written as a string, e.g. "0.001"');
const SIDES = ['BUY', 'SELL'] as const;

export default defineStrategy({
  manifest: {
    name: 'market-maker',
    apiVersion: '1.0',
    description: 'Spot market maker: one bid and one ask around the mid, at least the maker fee away, skewed by its own position, within its own order budget.',
    params: z.strictObject({
      /** Base quantity of each quote. */
      quantity: decimal.default('0.001'),
      /** Distance between our bid and ask, in ticks; widened when needed so each side is at least the venue's maker fee from the mid. */
      spreadTicks: z.number().int().min(2).default(20),
      /** The strategy's own position (base bought less sold by its fills) it aims for; the skew is zero there. */
      targetPosition: decimal.default('0'),
      /** Ticks the quotes move per `quantity` of inventory above (down) or below (up) the target. */
      skewTicksPerQuantity: z.number().min(0).default(2),
      /** Largest skew, in ticks. */
      maxSkewTicks: z.number().int().min(0).default(200),
      /** A quote is moved only when its target moved this many ticks (or the skew moved it): saves order budget and queue place. */
      requoteTicks: z.number().int().min(1).default(3),
      /** How often the quotes are reconsidered. */
      refreshMs: z.number().int().min(50).default(500),
      /** Post-only quotes (LIMIT_MAKER): a quote priced off a stale book is refused by the venue rather than paying the taker fee. */
      postOnly: z.boolean().default(true),
      /** How long a quote we moved or lost may still show in the book we read (depth pushes lag): it is left out of the others' prices that long. */
      bookLagMs: z.number().int().min(0).default(1_000),
      /** Book levels further than this percent from the last trade are not the market (a stray or fat-finger order) and are not quoted against. */
      maxLevelDistancePct: decimal.default('2'),
      /** Orders (places and replaces) the maker allows itself; keep it at most the risk gate's `orderRate` for this strategy. */
      orderRate: z.strictObject({
        perSecond: z.number().int().min(1).default(5),
        perMinute: z.number().int().min(1).default(150),
      }).default({ perSecond: 5, perMinute: 150 }),
    }),
  },

  create(ctx) {
    const p = ctx.params;
    const symbol = ctx.symbols[0]!;
    const inst = ctx.instrument(symbol);
    const budget = new OrderBudget(p.orderRate.perSecond, p.orderRate.perMinute);
    // A quote's size in steps, as the gate sends it (rounded to the step) and the book then shows it.
    const quoteSteps = new Decimal(p.quantity).div(inst.stepSize).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    let book: DepthSnapshotEvent | undefined;
    // The last trade's price: the reference that tells the market from a stray order. Trades come far more often than
    // quotes, so its text is kept and turned into ticks only when a requote reads it after it changed.
    let lastPrice: string | undefined;
    let lastRead: string | undefined;
    let last: number | undefined;
    let near: Near | undefined;
    let skewOf = { net: '', skew: 0 };
    const quotes: Record<'BUY' | 'SELL', Quote | undefined> = { BUY: undefined, SELL: undefined };
    // Quotes we replaced or lost, until the book can no longer show them: read as others' orders, they would pull the mid back to them.
    let ghosts: { ticks: number; until: number }[] = [];
    const forget = (side: 'BUY' | 'SELL'): void => {
      const q = quotes[side];
      if (q !== undefined) ghosts.push({ ticks: q.ticks, until: ctx.clock.now() + p.bookLagMs });
      quotes[side] = undefined;
    };

    const requote = (): void => {
      if (book === undefined) return;
      const open = ctx.orders.open(symbol);
      // A quote no longer working is over (filled, cancelled or refused).
      for (const side of SIDES) if (quotes[side] !== undefined && !open.some((o) => o.clientOrderId === quotes[side]!.id)) forget(side);
      const now = ctx.clock.now();
      if (ghosts.some((g) => g.until <= now)) ghosts = ghosts.filter((g) => g.until > now);
      const own = ownByTicks(inst, open);
      for (const g of ghosts) own.set(g.ticks, (own.get(g.ticks) ?? 0) + quoteSteps);
      // Both move with few events (our fills, the last trade's price): figured again only then.
      const net = ctx.portfolio.book(symbol).net;
      if (net !== skewOf.net) skewOf = { net, skew: skewTicks(net, p.targetPosition, p.quantity, p.skewTicksPerQuantity, p.maxSkewTicks) };
      const skew = skewOf.skew;
      if (lastPrice !== lastRead) {
        lastRead = lastPrice;
        last = lastPrice === undefined ? undefined : toTicks(inst, lastPrice);
      }
      if (last !== undefined && last !== near?.ticks) near = { ticks: last, maxTicks: pctTicks(last, p.maxLevelDistancePct) };
      const bid = othersBest(inst, book.bids, own, near);
      const ask = othersBest(inst, book.asks, own, near);
      // Before the first trade the risk gate's price reference is the mid: a one-sided book has none, and a quote would only be denied.
      if (last === undefined && (bid === undefined || ask === undefined)) return;
      // Each side at least the maker fee from the mid: a round trip of two maker fills then earns at least its fees.
      const spread = Math.max(p.spreadTicks, 2 * feeHalfSpreadTicks(bid ?? ask, ctx.fees(symbol)?.maker ?? '0'));
      const want = targets(bid, ask, spread, skew);
      if (want === undefined) return;
      // The side furthest from its target goes first when the budget has room for one only.
      const due = dueSides(quotes, want, skew, p.requoteTicks);
      let room = budget.room(ctx.clock.now());
      for (const side of due) {
        if (room <= 0) return;
        const q = quotes[side];
        const req = p.postOnly
          ? { symbol, side, type: 'LIMIT_MAKER' as const, price: fromTicks(inst, want[side]), quantity: p.quantity }
          : { symbol, side, type: 'LIMIT' as const, timeInForce: 'GTC' as const, price: fromTicks(inst, want[side]), quantity: p.quantity };
        room -= 1;
        if (q !== undefined) ghosts.push({ ticks: q.ticks, until: ctx.clock.now() + p.bookLagMs });
        const id = q === undefined ? ctx.orders.place(req) : ctx.orders.replace(q.id, req);
        // Charged after the send, at a time read after the gate's: our window then never frees a slot before the gate's does.
        budget.take(ctx.clock.now());
        quotes[side] = { id, ticks: want[side], skew };
      }
    };

    return {
      start() {
        ctx.every(p.refreshMs, requote);
      },
      onDepthSnapshot(ev) {
        book = ev;
      },
      onTrade(ev) {
        lastPrice = ev.price;
      },
      onOrder(ev) {
        for (const side of SIDES) {
          if (quotes[side]?.id !== ev.clientOrderId) continue;
          if (ev.status === 'FILLED' || ev.status === 'CANCELED' || ev.status === 'REJECTED') forget(side);
        }
      },
      onFill(f) {
        ctx.log.info({ side: f.side, price: f.price, qty: f.qty, fee: f.fee, feeAsset: f.feeAsset }, 'quote filled');
      },
      // Nothing was sent: forget the quote; a refused replace leaves the old order resting, so cancel it.
      onDenied(n) {
        for (const side of SIDES) if (quotes[side]?.id === n.clientOrderId) quotes[side] = undefined; // never sent, so never in the book
        if (n.intent.kind === 'replace') ctx.orders.cancel(symbol, n.intent.replaces);
        // The gate counts differently than we do (another instance, a restart): wait a full window before trying again.
        if (n.code === 'ORDER_RATE') budget.pause(ctx.clock.now() + 1_000);
      },
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
