// Metrics against values computed by hand on a small equity series (docs/backtest.md defines each).
import { describe, expect, it } from 'vitest';
import { computeMetrics, dailyReturns, type EquityPoint } from '../../src/backtest/metrics.ts';
import { RoundTrips, tradeStats } from '../../src/backtest/trades.ts';

const DAY = 86_400_000;
const D0 = Date.UTC(2024, 0, 1);
const noon = (d: number): number => D0 + d * DAY + DAY / 2;

// Closes by UTC day: 100, 110, 99, (no data: 99), 108.9.
const SERIES: EquityPoint[] = [
  { time: noon(0), equity: '100' },
  { time: noon(1) - 3_600_000, equity: '104' },
  { time: noon(1), equity: '110' },
  { time: noon(2), equity: '99' },
  { time: noon(4), equity: '108.9' },
];

function metrics(over: Partial<Parameters<typeof computeMetrics>[0]> = {}) {
  return computeMetrics({ equity: SERIES, fills: [], trades: tradeStats([]), positions: [], fundingPaid: '0', fundingReceived: '0', orders: 0, cancels: 0, ...over });
}

describe('metrics', () => {
  it('daily UTC returns count days without data as zero', () => {
    expect(dailyReturns(SERIES)).toEqual([0, 0.1, -0.1, 0, 0.1]);
  });

  it('Sharpe, Sortino, drawdown and Calmar equal the hand computation', () => {
    const m = metrics();
    // Returns r = [0, .1, −.1, 0, .1]: mean .02; sample variance (.0004 + .0064 + .0144 + .0004 + .0064) / 4 = .007.
    // Sharpe = .02 / √.007 × √365 = 4.56696…
    expect(m.sharpe).toBeCloseTo(4.566962, 5);
    // Downside deviation √(.01 / 5) = .0447214; Sortino = .02 / .0447214 × √365 = 8.54400…
    expect(m.sortino).toBeCloseTo(8.544004, 5);
    // Peak 110 → trough 99: 10 %, 11; from the peak (day 1 noon) not recovered by the end (day 4 noon): 3 days.
    expect(m.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(m.maxDrawdownAmount).toBe('11');
    expect(m.maxDrawdownDurationMs).toBe(3 * DAY);
    // CAGR over 4 days: 1.089^(365/4) − 1 = 2391.18…; Calmar = CAGR / 0.1.
    expect(m.cagr).toBeCloseTo(2391.180951, 3);
    expect(m.calmar).toBeCloseTo(23911.80951, 2);
    expect(m.netPnl).toBe('8.9');
    expect(m.return).toBeCloseTo(0.089, 12);
    expect(m.days).toBe(5);
  });

  it('a drawdown that recovers lasts from its peak to the recovery', () => {
    const m = metrics({ equity: [...SERIES, { time: noon(5), equity: '111' }] });
    expect(m.maxDrawdownDurationMs).toBe(4 * DAY);
  });

  it('trade statistics, fees, funding, shares and exposure', () => {
    const m = metrics({
      trades: tradeStats(['3', '-1', '2', '-2']),
      fills: [
        { qty: '1', notional: '100', fee: '0.02', isMaker: true },
        { qty: '3', notional: '-300', fee: '0.225', isMaker: false },
      ],
      positions: [{ time: noon(1), position: '1' }, { time: noon(3), position: '0' }],
      fundingPaid: '0.5',
      fundingReceived: '0.25',
      orders: 7,
      cancels: 3,
    });
    expect(m.winRate).toBe(0.5);
    expect(m.profitFactor).toBeCloseTo(5 / 3, 12);
    expect(m.expectancy).toBe('0.5');
    expect(m.fees).toBe('0.245');
    expect(m.tradedNotional).toBe('400');
    expect(m.turnover).toBe(4);
    expect(m.makerShare).toBe(0.25);
    expect(m.takerShare).toBe(0.75);
    // Open from day 1 noon to day 3 noon of a run from day 0 noon to day 4 noon: half.
    expect(m.exposure).toBe(0.5);
    expect([m.fundingPaid, m.fundingReceived, m.orders, m.cancels]).toEqual(['0.5', '0.25', 7, 3]);
  });

  it('maker and taker shares are each the exact quotient of their quantities, as written to summary.json', () => {
    const m = metrics({ fills: [{ qty: '0.7', notional: '70', fee: '0', isMaker: true }, { qty: '0.3', notional: '30', fee: '0', isMaker: false }] });
    expect(JSON.stringify([m.makerShare, m.takerShare])).toBe('[0.7,0.3]');
  });

  it('return and turnover are null, not 0, when the run starts with no equity', () => {
    const m = metrics({ equity: [{ time: noon(0), equity: '0' }, { time: noon(1), equity: '0' }], fills: [{ qty: '1', notional: '100', fee: '0', isMaker: true }] });
    expect([m.return, m.turnover, m.cagr]).toEqual([null, null, null]);
    expect(m.netPnl).toBe('0');
  });

  it('round trips run flat to flat, a fill through zero closes one and opens the next with its share of what the fill realized', () => {
    const t = new RoundTrips();
    t.fill('-0.1', '2'); // open fee
    t.fill('5', '1');
    t.fill('-1.4', '0'); // trip 1: −0.1 + 5 − 1.4 = 3.5
    t.fill('-2', '-1');
    t.fill('-0.6', '2'); // through zero, 1 of its 3 closes: trip 2 = −2 − 0.2 = −2.2, trip 3 opens with −0.4
    t.fill('1.5', '0'); // trip 3 = 1.1
    expect(t.stats()).toEqual({ count: 3, wins: 2, losses: 1, grossWin: '4.6', grossLoss: '-2.2' });
  });

  it('a spot buy through zero charges the short it closes only the part of the buy that closed it', () => {
    const t = new RoundTrips();
    // Sold 0.0018 BTC at 58 000 (fee 0.1044), bought it back and 0.0002 more at 57 900 in one fill of 0.002: 115.8 paid.
    t.fill('104.2956', '-0.0018');
    t.fill('-115.8', '0.0002');
    // The short: 104.2956 − 0.9 × 115.8 = 0.0756; the long opened with −11.58 and sold at 58 000 less its fee.
    t.fill('11.5884', '0');
    expect(t.stats()).toEqual({ count: 2, wins: 2, losses: 0, grossWin: '0.084', grossLoss: '0' });
  });
});
