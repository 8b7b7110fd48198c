// A test strategy for contract backtests: opens one position at the best opposite price on the first book, closes it (IOC at the best opposite price) after holdMs, and notes what its ctx.portfolio shows in globalThis.__hold.
import { defineStrategy, z, type DepthSnapshotEvent } from 'bhtrade';

/** What the strategy saw through ctx.portfolio. */
export interface Hold {
  /** Each snapshot of its positions and book taken on a book event after the open filled, and at stop. */
  seen: { time: number; positions: unknown; net: string; balance: unknown; pnl: { asset: string; realizedGross: string; fees: string; realized: string; unrealized: string } }[];
  rejected: string[];
}

export default defineStrategy({
  manifest: {
    name: 'hold', apiVersion: '1.0', description: 'opens, holds, closes',
    params: z.strictObject({
      side: z.enum(['LONG', 'SHORT']).default('LONG'),
      quantity: z.string(),
      leverage: z.string().default('10'),
      /** Close this long after the open filled; never when 0. */
      holdMs: z.number().int().min(0).default(0),
      asset: z.string(),
    }),
    streams: { depth: 'snapshot', trades: false },
  },
  create(ctx) {
    const p = ctx.params;
    const symbol = ctx.symbols[0]!;
    const g = globalThis as { __hold?: Hold };
    const h: Hold = (g.__hold = { seen: [], rejected: [] });
    let opened: number | undefined;
    let sent = false;
    let closed = false;
    const look = (): void => {
      const { asset, realizedGross, fees, realized, unrealized } = ctx.portfolio.pnl();
      h.seen.push({ time: ctx.clock.now(), positions: ctx.portfolio.positions(symbol), net: ctx.portfolio.book(symbol).net, balance: ctx.portfolio.balance(p.asset, 'contract'), pnl: { asset, realizedGross, fees, realized, unrealized } });
    };
    const send = (book: DepthSnapshotEvent, open: boolean): void => {
      const buy = (p.side === 'LONG') === open;
      const price = buy ? book.asks[0]?.[0] : book.bids[0]?.[0];
      if (price === undefined) return;
      const side = open ? (buy ? 'BUY_OPEN' : 'SELL_OPEN') : buy ? 'BUY_CLOSE' : 'SELL_CLOSE';
      ctx.orders.place({ symbol, side, orderType: 'LIMIT', priceType: 'INPUT', timeInForce: 'IOC', price, quantity: p.quantity, leverage: p.leverage });
    };
    return {
      onDepthSnapshot(ev) {
        if (!sent) {
          sent = true;
          send(ev, true);
          return;
        }
        if (opened === undefined) return;
        look();
        if (!closed && p.holdMs > 0 && ctx.clock.now() >= opened + p.holdMs && ctx.portfolio.positions(symbol).length > 0) {
          closed = true;
          send(ev, false);
        }
      },
      onOrder(o) {
        if (o.status === 'REJECTED') h.rejected.push(o.clientOrderId);
      },
      onFill() {
        opened ??= ctx.clock.now();
      },
      stop() {
        look();
      },
    };
  },
});
