// The market maker: prices off the book without its own orders, moves a quote only when its target moves enough (or the skew does), keeps to its order budget, and on the simulated venue (its book moved by another account) fills without ever being denied for rate.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/fixed.ts';
import { isWorking, type LocalOrder } from '../../src/execution/order-state.ts';
import { dueSides, needsQuote, OrderBudget, othersBest, ownByTicks, skewTicks, targets } from '../../strategies/market-maker/quotes.ts';
import { fillCounter, HANG_MS, OtherTrader, startStrategy, until } from '../app/scenario.ts';
import { instruments } from './helpers.ts';

const BTC = instruments().get('BTCUSDT')!;
const ours = (price: string, origQty: string, executedQty = '0') => ({ clientOrderId: 'mm-r1-1', symbol: 'BTCUSDT', side: 'BUY', price, origQty, executedQty, status: 'NEW' });

describe('market maker pricing', () => {
  it('leaves its own quantity out of the book: a level that is only ours is skipped, a shared one stays', () => {
    const bids = [['11369.50', '0.002'], ['11369.40', '0.5'], ['11369.30', '1']] as const;
    expect(othersBest(BTC, bids, ownByTicks(BTC, []))).toBe(1136950);
    expect(othersBest(BTC, bids, ownByTicks(BTC, [ours('11369.50', '0.003', '0.001')]))).toBe(1136940);
    expect(othersBest(BTC, bids, ownByTicks(BTC, [ours('11369.40', '0.002')]))).toBe(1136950);
    expect(othersBest(BTC, bids.slice(0, 1), ownByTicks(BTC, [ours('11369.50', '0.002')]))).toBeUndefined();
  });

  it('passes over levels further from the last trade than allowed: a stray bid is not the market', () => {
    const bids = [['10000.00', '0.01']] as const;
    const near = { ticks: 3_000_000, maxTicks: 60_000 };
    expect(othersBest(BTC, bids, ownByTicks(BTC, []), near)).toBeUndefined();
    expect(othersBest(BTC, [['29500.00', '0.01'], ...bids], ownByTicks(BTC, []), near)).toBe(2_950_000);
    expect(othersBest(BTC, bids, ownByTicks(BTC, []))).toBe(1_000_000);
  });

  it('quotes spreadTicks apart around the mid, moved by the skew, never crossing, off one side when the other is empty', () => {
    expect(targets(1000, 1010, 6, 0)).toEqual({ BUY: 1002, SELL: 1008 });
    expect(targets(1000, 1010, 6, 2)).toEqual({ BUY: 1000, SELL: 1006 });
    expect(targets(1000, 1002, 20, 0)).toEqual({ BUY: 991, SELL: 1011 });
    expect(targets(1000, 1002, 20, -30)).toEqual({ BUY: 1001, SELL: 1041 });
    expect(targets(1000, undefined, 6, 0)).toEqual({ BUY: 1000, SELL: 1006 });
    expect(targets(undefined, undefined, 6, 0)).toBeUndefined();
  });

  it('skews against inventory, capped', () => {
    expect(skewTicks('10', '10', '0.002', 1, 200)).toBe(0);
    expect(skewTicks('10.006', '10', '0.002', 1, 200)).toBe(3);
    expect(skewTicks('9.996', '10', '0.002', 2, 200)).toBe(-4);
    expect(skewTicks('20', '10', '0.002', 1, 200)).toBe(200);
    // A quotient that does not end (÷ 0.003) or a position with a base fee off the quantity's grid: as decimal.js figures it.
    expect(skewTicks('0.001', '0', '0.003', 4, 200)).toBe(1);
    expect(skewTicks('0.001998', '0', '0.002', 2.5, 200)).toBe(2);
    expect(skewTicks('-0.005', '0.001', '0.004', 3, 200)).toBe(-4); // −4.5 rounds up
  });

  it('sends the side further from its target first, the bid first when they are as far', () => {
    const at = (ticks: number) => ({ id: `q${ticks}`, ticks, skew: 0 });
    expect(dueSides({ BUY: undefined, SELL: undefined }, { BUY: 1000, SELL: 1010 }, 0, 2)).toEqual(['BUY', 'SELL']);
    expect(dueSides({ BUY: at(995), SELL: undefined }, { BUY: 1000, SELL: 1010 }, 0, 2)).toEqual(['SELL', 'BUY']);
    expect(dueSides({ BUY: at(990), SELL: at(1013) }, { BUY: 1000, SELL: 1010 }, 0, 2)).toEqual(['BUY', 'SELL']);
    expect(dueSides({ BUY: at(997), SELL: at(1013) }, { BUY: 1000, SELL: 1010 }, 0, 2)).toEqual(['BUY', 'SELL']);
    expect(dueSides({ BUY: at(999), SELL: at(1013) }, { BUY: 1000, SELL: 1010 }, 0, 2)).toEqual(['SELL']);
    expect(dueSides({ BUY: at(1000), SELL: at(1010) }, { BUY: 1000, SELL: 1010 }, 0, 2)).toEqual([]);
  });

  it('moves a quote only when its target moved requoteTicks or the skew moved it', () => {
    const q = { id: 'mm-r1-1', ticks: 1000, skew: 0 };
    expect(needsQuote(undefined, 1000, 0, 2)).toBe(true);
    expect(needsQuote(q, 1001, 0, 2)).toBe(false);
    expect(needsQuote(q, 999, 0, 2)).toBe(false);
    expect(needsQuote(q, 1002, 0, 2)).toBe(true);
    expect(needsQuote(q, 999, 1, 2)).toBe(true);
    expect(needsQuote(q, 1000, 1, 2)).toBe(false);
  });
});

describe('market maker order budget', () => {
  it('allows perSecond in any second and perMinute in any minute, and nothing while paused', () => {
    const b = new OrderBudget(3, 5);
    const t0 = 1_700_000_000_000;
    expect(b.room(t0)).toBe(3);
    for (let i = 0; i < 3; i++) b.take(t0);
    expect(b.room(t0 + 999)).toBe(0);
    expect(b.room(t0 + 1_000)).toBe(2);
    b.take(t0 + 1_000);
    b.take(t0 + 1_000);
    expect(b.room(t0 + 30_000)).toBe(0);
    expect(b.room(t0 + 60_000)).toBe(3);
    b.pause(t0 + 61_000);
    expect(b.room(t0 + 60_999)).toBe(0);
    expect(b.room(t0 + 61_000)).toBe(3);
  });
});

/** BTCUSDT ticks (0.01) as a price string. */
const price = (ticks: number): string => (ticks / 100).toFixed(2);

describe('market maker on the simulated venue', () => {
  it('fills, and with a budget equal to the gate\'s order rate is never denied while the book keeps moving', async () => {
    const rate = { perSecond: 3, perMinute: 12 };
    const { app, lines } = await startStrategy(
      { id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { quantity: '0.002', spreadTicks: 6, requoteTicks: 2, refreshMs: 100, orderRate: rate } },
      { risk: { strategy: { orderRate: rate } } },
    );
    try {
      // The venue has no agents: the book is another account's bid and ask, moved by the test.
      const other = new OtherTrader(app);
      const mine = (): LocalOrder[] => app.executor.orders().filter((o) => o.strategyId === 'mm');
      // When each order was first held, so the minute budget is checked on the minute it covers even on a very slow machine.
      const firstSeen = new Map<string, number>();
      const offSeen = app.executor.on(() => { for (const o of mine()) if (!firstSeen.has(o.clientOrderId)) firstSeen.set(o.clientOrderId, Date.now()); });
      const fills = fillCounter(app);
      const resting = (side: string): boolean => mine().some((o) => o.side === side && o.orderId !== undefined && isWorking(o) && !o.cancelPending);
      const base = 3_000_000;
      let moves = 0;
      // Steps the book 10 ticks up or back (more than requoteTicks, never onto the bot's quotes) and resolves once the bot has it.
      const move = async (): Promise<number> => {
        const bid = base + (moves++ % 2) * 10;
        await other.show('BTCUSDT', price(bid), price(bid + 20), '1');
        return bid;
      };
      await move();
      await until(app, () => resting('BUY') && resting('SELL'), 'both quotes resting');
      expect(other.takeBot('BTCUSDT', 'BUY')).toBe(true);
      await until(app, () => fills.n() > 0, 'the bid filled');
      // Each step leaves at least one quote off its target, so the strategy sends at least one order; the next step
      // comes as soon as it does, and the strategy sends as fast as its per-second budget lets it until the minute's is spent.
      while (mine().length < rate.perMinute) {
        const before = mine().length;
        const bid = await move();
        await until(app, () => mine().length > before, `a quote following the book to ${price(bid)}`);
      }
      // The book goes on moving with the budget spent: the strategy waits instead of being denied.
      for (let i = 0; i < 10; i++) await move();
      offSeen();
      fills.off();
      // Within its minute budget however slow the machine: no minute holds more orders than it (less a second for when an order was seen).
      const times = [...firstSeen.values()].sort((a, b) => a - b);
      expect(times.length).toBeGreaterThanOrEqual(rate.perMinute);
      const inMinute = times.map((t) => times.filter((u) => u >= t && u < t + 59_000).length);
      expect(Math.max(...inMinute)).toBeLessThanOrEqual(rate.perMinute);
      expect(lines.filter((l) => String(l['msg']).startsWith('denied'))).toEqual([]);
      expect(app.status()).toMatch(/^status mm\[running\] orders=[0-2] pos=[+-]?[\d.]+ BTC gross=[+-]?[\d.]+ fees=[\d.]+ net=[+-]?[\d.]+ USDT$/);
    } finally {
      await app.stop('test over');
    }
  }, 2 * HANG_MS);
});

describe('market maker before the first trade', () => {
  it('waits on a one-sided book (the risk gate has no price to check a quote against) and quotes once the book has both sides, never denied', async () => {
    const { app, lines } = await startStrategy({ id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { quantity: '0.002', spreadTicks: 6, refreshMs: 100 } });
    try {
      const other = new OtherTrader(app);
      let bidSeenAt: number | undefined;
      const off = app.bus.subscribe('depthSnapshot', (ev) => {
        if (ev.symbol === 'BTCUSDT' && ev.bids.length > 0 && ev.asks.length === 0) bidSeenAt ??= lines.length;
      });
      other.rest('BTCUSDT', 'BUY', '29999', '1');
      await until(app, () => bidSeenAt !== undefined, 'the one-sided book');
      // Two status lines (1 s apart) after the bot saw it: its 100 ms requote timer ran many times on that book. The bid
      // grows now and then meanwhile, so the bot gets book events to check on.
      const statusAfter = (): number => lines.slice(bidSeenAt).filter((l) => String(l['msg']).startsWith('status mm[')).length;
      const grow = setInterval(() => other.rest('BTCUSDT', 'BUY', '29999', '0.001'), 250);
      try {
        await until(app, () => statusAfter() >= 2, 'two status lines on the one-sided book');
      } finally {
        clearInterval(grow);
      }
      off();
      expect(app.executor.orders().filter((o) => o.strategyId === 'mm')).toEqual([]);
      await other.show('BTCUSDT', '29999', '30010', '1');
      const mine = (): LocalOrder[] => app.executor.orders().filter((o) => o.strategyId === 'mm' && isWorking(o));
      await until(app, () => mine().some((o) => o.side === 'BUY') && mine().some((o) => o.side === 'SELL'), 'both quotes');
      expect(lines.filter((l) => String(l['msg']).startsWith('denied'))).toEqual([]);
    } finally {
      await app.stop('test over');
    }
  }, 2 * HANG_MS);
});

describe('market maker and a stray order on the venue', () => {
  it('quotes around the last trade, not around a bid a third under it, and is never denied', async () => {
    const { app, lines } = await startStrategy({ id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { quantity: '0.002', spreadTicks: 6, refreshMs: 100 } });
    try {
      const maker = new OtherTrader(app);
      const taker = new OtherTrader(app);
      // Once the bot sees the book, a trade at 30000 sets the market (or at the market maker's own ask, when it
      // already quotes inside); then the only bid left is a stray one at 20000, the best ask 30010.
      let traded = false;
      const off = app.bus.subscribe('trade', (ev) => { traded ||= ev.symbol === 'BTCUSDT'; });
      await maker.show('BTCUSDT', '29999', '30000', '0.01');
      taker.quote('BTCUSDT', '30000', '31000', '0.001');
      await until(app, () => traded, 'a trade');
      off();
      await maker.show('BTCUSDT', '20000', '30010', '0.01');
      const working = (side: string): LocalOrder[] => app.executor.orders().filter((o) => o.strategyId === 'mm' && o.side === side && isWorking(o) && o.phase === 'NEW');
      const denials = (): unknown[] => lines.filter((l) => String(l['msg']).startsWith('denied'));
      // Its quotes sat inside 29999 / 30000: it moves them once it has read the new book, or is denied trying.
      await until(app, () => denials().length > 0 || working('SELL').some((o) => new Decimal(o.price).gt('30000')), 'the market maker requoting on the new book');
      expect(denials()).toEqual([]);
      await until(app, () => working('BUY').length > 0 && working('SELL').length > 0, 'a bid and an ask of the market maker resting');
      for (const o of [...working('BUY'), ...working('SELL')]) expect(new Decimal(o.price).gt('29000')).toBe(true);
    } finally {
      await app.stop('test over');
    }
  }, 3 * HANG_MS);
});

