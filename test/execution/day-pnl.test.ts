// The day's PnL that DAILY_LOSS reads: realized since 00:00 UTC plus the unrealized move since then, hand-computed through a position opened, carried over midnight, and closed.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { DayPnl } from '../../src/execution/day-pnl.ts';
import { StrategyBooks } from '../../src/execution/strategy-book.ts';
import { DAY_MS, type OrderFill } from '../../src/model/index.ts';
import { instruments } from '../strategy/helpers.ts';

const DAY1 = 20_000 * DAY_MS;
let trade = 0;
const fill = (side: 'BUY' | 'SELL', price: string, qty: string, time: number): OrderFill => ({
  tradeId: String(++trade), orderId: `o${trade}`, clientOrderId: `c${trade}`, strategyId: 'mm', account: 'spot', symbol: 'BTCUSDT', side, price, qty, fee: '0',
  feeAsset: 'USDT', maker: true, time, source: 'stream',
});

describe('the day\'s PnL of DAILY_LOSS', () => {
  it('counts a losing position before it is closed, only its move since midnight once carried over, and no loss twice when it closes', async () => {
    const prices = new Map<string, { last?: string }>([['BTCUSDT', { last: '10000' }]]);
    const books = new StrategyBooks(instruments(), { price: (s) => prices.get(s) });
    const clock = new VirtualClock(DAY1 + 10 * 3_600_000);
    const day = new DayPnl(clock, books);
    day.start();
    // Bought 0.5 at 10 000 today, marked at 9 900: 0.5 × −100 = −50, none of it realized yet.
    books.apply(fill('BUY', '10000', '0.5', clock.now()));
    prices.set('BTCUSDT', { last: '9900' });
    expect(day.of('mm', undefined, clock.now())).toBe('-50');
    // A strategy without a fill has lost nothing.
    expect(day.of('grid', undefined, clock.now())).toBe('0');
    // Past midnight the −50 belongs to yesterday; down to 9 800 is today's 0.5 × −100.
    await clock.advance(14 * 3_600_000 + 1);
    expect(day.of('mm', '0', clock.now())).toBe('0');
    prices.set('BTCUSDT', { last: '9800' });
    expect(day.of('mm', '0', clock.now())).toBe('-50');
    // Sold at 9 800: the fill realizes 0.5 × −200 = −100 today, of which −50 was yesterday's.
    books.apply(fill('SELL', '9800', '0.5', clock.now()));
    expect(day.of('mm', '-100', clock.now())).toBe('-50');
    day.stop();
  });

  it('starts the day at the first check past midnight when the midnight timer has not run yet', () => {
    const prices = new Map<string, { last?: string }>([['BTCUSDT', { last: '10000' }]]);
    const books = new StrategyBooks(instruments(), { price: (s) => prices.get(s) });
    const clock = new VirtualClock(DAY1 + 23 * 3_600_000);
    const day = new DayPnl(clock, books);
    books.apply(fill('BUY', '10000', '1', clock.now()));
    prices.set('BTCUSDT', { last: '9990' });
    expect(day.of('mm', undefined, clock.now())).toBe('-10');
    expect(day.of('mm', '0', DAY1 + DAY_MS)).toBe('0');
  });
});
