// The market maker: prices off the book without its own orders, moves a quote only when its target moves enough (or the skew does), keeps to its order budget, and on the simulated venue fills without ever being denied for rate.
import { describe, expect, it } from 'vitest';
import type { RunningApp } from '../../src/app/run.ts';
import { needsQuote, OrderBudget, othersBest, ownByTicks, skewTicks, targets } from '../../strategies/market-maker/quotes.ts';
import { startStrategy } from '../app/scenario.ts';
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

/** Resolves once `pred` holds after an event of the bot's bus (orders and books), or rejects after `ms` with the status. */
function until(app: RunningApp, pred: () => boolean, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const offs: (() => void)[] = [];
    const done = (err?: Error): void => { clearTimeout(timer); offs.forEach((off) => off()); if (err) reject(err); else resolve(); };
    const timer = setTimeout(() => done(new Error(`${what}: not within ${ms} ms; status: ${app.status()}`)), ms);
    const check = (): void => { if (pred()) done(); };
    offs.push(app.bus.subscribe('order', check), app.bus.subscribe('depthSnapshot', check));
    check();
  });
}

describe('market maker on the simulated venue', () => {
  it('fills, and with a budget equal to the gate\'s order rate is never denied while the book moves every 300 ms', async () => {
    const rate = { perSecond: 3, perMinute: 12 };
    const { app, lines } = await startStrategy(
      { id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { quantity: '0.002', spreadTicks: 6, requoteTicks: 2, refreshMs: 100, orderRate: rate } },
      { risk: { strategy: { orderRate: rate } } },
    );
    try {
      const placed = (): number => app.executor.orders().filter((o) => o.strategyId === 'mm').length;
      const filled = (): boolean => app.executor.orders().some((o) => o.strategyId === 'mm' && o.executedQty !== '0');
      // The minute's budget runs out within seconds on a book this fast; books keep coming after it.
      await until(app, () => placed() >= rate.perMinute && filled(), 20_000, 'a fill and the whole minute budget used');
      let books = 0;
      const off = app.bus.subscribe('depthSnapshot', () => { books += 1; });
      await until(app, () => books >= 10, 10_000, 'ten more books');
      off();
      expect(placed()).toBe(rate.perMinute);
      expect(lines.filter((l) => String(l['msg']).startsWith('denied'))).toEqual([]);
      expect(app.status()).toMatch(/^status mm\[running\] orders=[0-2] pos=[+-]?[\d.]+ BTC gross=[+-]?[\d.]+ fees=[\d.]+ net=[+-]?[\d.]+ USDT$/);
    } finally {
      await app.stop('test over');
    }
  }, 40_000);
});
