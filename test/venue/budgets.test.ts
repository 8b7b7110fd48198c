// Rate budgets on the virtual clock: sliding windows, FIFO waiting, fail-fast, 429 pauses and 418 bans.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { BannedError, BudgetExceededError, ConfigError } from '../../src/core/errors.ts';
import { budgetKindOf, RateBudgets, type Charge } from '../../src/venue/budgets.ts';

const ORDER: Charge = { weight: 1, orders: 1, signed: true };
const READ: Charge = { weight: 5, orders: 0, signed: true };
const PUBLIC: Charge = { weight: 1, orders: 0, signed: false };

function track(budgets: RateBudgets, charge: Charge, clock: VirtualClock, out: number[]): Promise<void> {
  return budgets.acquire(charge).then(() => { out.push(clock.now()); });
}

describe('RateBudgets', () => {
  it('lets 20 orders of 25 through at once and the other 5 one second later', async () => {
    const clock = new VirtualClock(1_000_000);
    const budgets = new RateBudgets(clock);
    const times: number[] = [];
    const all = Array.from({ length: 25 }, () => track(budgets, ORDER, clock, times));
    await clock.advance(0);
    expect(times).toHaveLength(20);
    await clock.advance(999);
    expect(times).toHaveLength(20);
    await clock.advance(1);
    await Promise.all(all);
    expect(times.filter((t) => t === 1_000_000)).toHaveLength(20);
    expect(times.filter((t) => t === 1_001_000)).toHaveLength(5);
  });

  it('charges weight per minute and reads both spellings of request weight', async () => {
    const clock = new VirtualClock(0);
    const budgets = new RateBudgets(clock, [{ rateLimitType: 'REQUESTS_WEIGHT', interval: 'MINUTE', limit: 12 }]);
    expect(budgets.describe()).toEqual({ 'REQUEST_WEIGHT/MINUTE': 12 });
    const times: number[] = [];
    const p = [track(budgets, READ, clock, times), track(budgets, READ, clock, times), track(budgets, READ, clock, times)];
    await clock.advance(59_999);
    expect(times).toEqual([0, 0]);
    await clock.advance(1);
    await Promise.all(p);
    expect(times).toEqual([0, 0, 60_000]);
    expect(budgetKindOf('REQUEST_WEIGHT')).toBe('REQUEST_WEIGHT');
    expect(() => budgetKindOf('WEIGHT')).toThrow(ConfigError);
  });

  it('uses the Bitflex intervalUnit as the window length', async () => {
    const clock = new VirtualClock(0);
    const budgets = new RateBudgets(clock, [{ rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 60, limit: 2 }]);
    expect(budgets.describe()).toEqual({ 'ORDERS/60SECOND': 2 });
    const times: number[] = [];
    const p = [0, 1, 2].map(() => track(budgets, ORDER, clock, times));
    await clock.advance(60_000);
    await Promise.all(p);
    expect(times).toEqual([0, 0, 60_000]);
  });

  it('fails fast with BudgetExceededError naming the budget when configured to', async () => {
    const clock = new VirtualClock(0);
    const budgets = new RateBudgets(clock, [{ rateLimitType: 'ORDERS', interval: 'SECOND', limit: 1 }], { mode: 'fail-fast' });
    await budgets.acquire(ORDER);
    const err = await budgets.acquire(ORDER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect((err as BudgetExceededError).budget).toBe('ORDERS/SECOND');
    expect((err as BudgetExceededError).waitMs).toBe(1000);
  });

  it('pauses a budget for Retry-After, and backs off exponentially without it', async () => {
    const clock = new VirtualClock(0);
    const budgets = new RateBudgets(clock, undefined, { baseBackoffMs: 500 });
    expect(budgets.rateLimited('REQUEST_WEIGHT', 7_000)).toBe(7_000);
    const times: number[] = [];
    const p = track(budgets, PUBLIC, clock, times);
    await clock.advance(6_999);
    expect(times).toEqual([]);
    await clock.advance(1);
    await p;
    expect(times).toEqual([7_000]);
    expect(budgets.rateLimited('ORDERS', undefined)).toBe(500);
    expect(budgets.rateLimited('ORDERS', undefined)).toBe(1_000);
    budgets.succeeded(ORDER);
    expect(budgets.rateLimited('ORDERS', undefined)).toBe(500);
  });

  it('stops signed requests during a 418 ban, including those already waiting, and resumes after it', async () => {
    const clock = new VirtualClock(0);
    const budgets = new RateBudgets(clock, [{ rateLimitType: 'ORDERS', interval: 'SECOND', limit: 1 }]);
    await budgets.acquire(ORDER);
    const waiting = budgets.acquire(ORDER).catch((e: unknown) => e);
    const until = budgets.banned(120_000);
    expect(until).toBe(120_000);
    expect(await waiting).toBeInstanceOf(BannedError);
    await expect(budgets.acquire(READ)).rejects.toMatchObject({ until: 120_000 });
    await budgets.acquire(PUBLIC);
    await clock.advance(120_000);
    expect(budgets.bannedUntil()).toBeUndefined();
    await budgets.acquire(ORDER);
  });
});

describe('RateBudgets lanes', () => {
  it('an ORDERS pause holds back later orders but lets reads through, in order within each lane', async () => {
    const clock = new VirtualClock(0);
    const budgets = new RateBudgets(clock);
    budgets.rateLimited('ORDERS', 2_000);
    const log: string[] = [];
    const p = [
      budgets.acquire(ORDER).then(() => log.push(`order1@${clock.now()}`)),
      budgets.acquire(READ).then(() => log.push(`read@${clock.now()}`)),
      budgets.acquire(ORDER).then(() => log.push(`order2@${clock.now()}`)),
    ];
    await clock.advance(0);
    expect(log).toEqual(['read@0']);
    await clock.advance(2_000);
    await Promise.all(p);
    expect(log).toEqual(['read@0', 'order1@2000', 'order2@2000']);
  });
});
