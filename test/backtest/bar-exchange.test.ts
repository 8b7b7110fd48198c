// The bar-mode exchange on its own clock: orders that arrive during a bar work from the start of the leg they arrive in, fills come at the path's points (a cancel before one stops it), a contract is liquidated where the path crosses its flp, and finished orders are forgotten beyond the bound.
import { describe, expect, it } from 'vitest';
import { BarExchange } from '../../src/backtest/bar-exchange.ts';
import type { Bar } from '../../src/backtest/bars.ts';
import { ContractAccount } from '../../src/backtest/exchange/contract-account.ts';
import { constantLatency } from '../../src/backtest/exchange/latency.ts';
import type { ExecutionReport } from '../../src/backtest/exchange/types.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { fmtAmount } from '../../src/sim/ledger/amount.ts';
import { contractInstrument, limit } from './fixtures.ts';

const H = 3_600_000;
const MIN = 60_000;

/** Hourly bar `i` of BTC-PERP-REV in ticks of 0.01. */
function bar(i: number, open: number, high: number, low: number, close: number): Bar {
  return { openTime: i * H, closeTime: (i + 1) * H, open, high, low, close };
}

function world(o: { account?: ContractAccount; keepFinished?: number; clock?: VirtualClock } = {}) {
  const clock = o.clock ?? new VirtualClock(0);
  const reports: ExecutionReport[] = [];
  const ex = new BarExchange({
    clock, inst: contractInstrument(), latency: constantLatency(0, 0), onReport: (r) => reports.push(r),
    ...(o.account ? { account: o.account } : {}), ...(o.keepFinished ? { keepFinished: o.keepFinished } : {}),
  });
  /** Runs `f` at time `t` on the clock. */
  const at = (t: number, f: () => void): void => {
    clock.setTimeout(f, t - clock.now());
  };
  return { clock, ex, reports, at };
}

describe('the bar exchange', () => {
  it('works an order from the start of the leg it arrives in and fills at the path\'s points; a cancel before the point stops the fill', () => {
    const { clock, ex, reports, at } = world();
    // 8000 → 7900 (the low first: a tie, and the bar closes up) → 8100 → 8050.
    ex.onBar(bar(0, 800_000, 810_000, 790_000, 805_000));
    // 25 minutes in is on the second leg (7900 → 8100): orders work from 7900.
    at(25 * MIN, () => {
      ex.submit(limit('buy', 'BUY_OPEN', 795_000, 1));
      ex.submit(limit('sell', 'SELL_OPEN', 809_000, 1));
      ex.submit(limit('gone', 'SELL_OPEN', 808_000, 1));
    });
    at(35 * MIN, () => ex.cancel('gone'));
    clock.advanceToSync(H);
    const trades = reports.filter((r) => r.execType === 'TRADE').map((r) => [r.clientOrderId, r.lastPriceTicks, r.isMaker, r.exchTime]);
    // The buy is through at 7900: a taker there at once; the sell is touched on the way up, at its price, when the leg ends (40 minutes in).
    expect(trades).toEqual([['buy', 790_000, false, 25 * MIN], ['sell', 809_000, true, 40 * MIN]]);
    expect(reports.filter((r) => r.clientOrderId === 'gone').map((r) => r.execType)).toEqual(['NEW', 'CANCELED']);
    expect(ex.lastPrice).toBe(805_000);
  });

  it('liquidates a contract where the path reaches its flp', () => {
    const clock = new VirtualClock(0);
    const changed: number[] = [];
    const account = new ContractAccount({ clock, inst: contractInstrument(), balance: '1', fees: { maker: '0', taker: '0' }, onChange: () => changed.push(clock.now()) });
    const { ex, reports, at } = world({ account, clock });
    ex.onBar(bar(0, 800_000, 801_000, 799_000, 800_000));
    // Long 1000 at 8000 with leverage 10: margin 0.0125, flp 7309.09 (as in the contracts account's own test).
    ex.submit(limit('open', 'BUY_OPEN', 800_000, 1000, { timeInForce: 'IOC' }));
    clock.advanceToSync(H);
    expect(reports.filter((r) => r.execType === 'TRADE').map((r) => r.lastPriceTicks)).toEqual([800_000]);
    // 7500 → 7600 (nearer) → 7300 → 7400: the low, past the flp, is reached 40 minutes in.
    at(H, () => ex.onBar(bar(1, 750_000, 760_000, 730_000, 740_000)));
    clock.advanceToSync(2 * H);
    expect(account.liquidations.map((l) => fmtAmount(l.flp))).toEqual(['7309.09']);
    expect(changed).toEqual([H + 40 * MIN]);
    expect(fmtAmount(account.balance())).toBe('0.9875');
  });

  it('forgets finished orders beyond its bound', () => {
    const { clock, ex, reports } = world({ keepFinished: 5 });
    // IOC orders with no bar running end at once.
    for (let i = 0; i < 100; i++) ex.submit(limit(`o${i}`, 'BUY_OPEN', 800_000, 1, { timeInForce: 'IOC' }));
    clock.advanceToSync(1);
    expect(reports.filter((r) => r.execType === 'EXPIRED')).toHaveLength(100);
    expect(ex.remembered).toBeLessThanOrEqual(10);
  });
});
