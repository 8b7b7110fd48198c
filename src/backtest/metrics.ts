/**
 * Backtest metrics, each defined in docs/backtest.md: PnL and return, CAGR, drawdown, Sharpe and
 * Sortino from daily UTC returns of mark-to-market equity (a day without data carries the last
 * equity, so its return is zero; annualised with 365), Calmar, trade statistics, exposure,
 * turnover, fees, funding and fill shares. Money is exact (decimal.js, returned as text); ratios are numbers.
 */
import { compareScaled, Decimal, DecimalSum, negScaled, SCALED_ZERO, scaledDecimal, scaledOfAny, subScaled, type Scaled } from '../core/fixed.ts';
import { DAY_MS } from '../model/index.ts';
import type { TradeStats } from './trades.ts';

/** Mark-to-market equity at a time (ms), decimal text in the account's currency. */
export interface EquityPoint {
  readonly time: number;
  readonly equity: string;
}

/** One fill as the metrics need it: quantity, notional and fee in the equity's currency (decimal texts). */
export interface MetricsFill {
  readonly qty: string;
  readonly notional: string;
  readonly fee: string;
  readonly isMaker: boolean;
}

/** The sums of the fills the metrics take (turnover, fees, maker share), added up as fills come: a run need not keep its fills for them. */
export class FillTotals {
  // Added on every fill: scaled integers, as decimal.js would add them (see DecimalSum); decimal.js values only when read.
  private readonly notionalSum = new DecimalSum();
  private readonly feeSum = new DecimalSum();
  private readonly makerSum = new DecimalSum();
  private readonly qtySum = new DecimalSum();
  count = 0;

  get notional(): Decimal {
    return this.notionalSum.value();
  }

  get fees(): Decimal {
    return this.feeSum.value();
  }

  get makerQty(): Decimal {
    return this.makerSum.value();
  }

  get allQty(): Decimal {
    return this.qtySum.value();
  }

  add(f: MetricsFill): void {
    this.notionalSum.add(absScaled(scaledOfAny(f.notional, 'notional')));
    this.feeSum.add(scaledOfAny(f.fee, 'fee'));
    const q = absScaled(scaledOfAny(f.qty, 'qty'));
    this.qtySum.add(q);
    if (f.isMaker) this.makerSum.add(q);
    this.count += 1;
  }

  /** Returns the totals of `fills`. */
  static of(fills: readonly MetricsFill[]): FillTotals {
    const t = new FillTotals();
    for (const f of fills) t.add(f);
    return t;
  }
}

/** Returns |a|. */
function absScaled(a: Scaled): Scaled {
  return a.units < 0n ? negScaled(a) : a;
}

/** The position after a change at `time` (decimal text, signed; "0" when flat). */
export interface PositionPoint {
  readonly time: number;
  readonly position: string;
}

/** What the metrics are computed from. */
export interface MetricsInput {
  /** Equity points in time order; the first is the start. */
  readonly equity: readonly EquityPoint[];
  /** The fills, or their totals as a run added them up. */
  readonly fills: readonly MetricsFill[] | FillTotals;
  /** Totals of the closed round trips, flat to flat, net of fees and funding (see trades.ts). */
  readonly trades: TradeStats;
  readonly positions: readonly PositionPoint[];
  readonly fundingPaid: string;
  readonly fundingReceived: string;
  readonly orders: number;
  readonly cancels: number;
}

/** The metrics of one run, keys in a fixed order (summary.json is written from it). */
export interface Metrics {
  readonly start: number;
  readonly end: number;
  readonly startEquity: string;
  readonly endEquity: string;
  readonly netPnl: string;
  readonly return: number | null;
  readonly cagr: number | null;
  readonly maxDrawdown: number;
  readonly maxDrawdownAmount: string;
  readonly maxDrawdownDurationMs: number;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly calmar: number | null;
  readonly days: number;
  readonly trades: number;
  readonly winRate: number | null;
  readonly profitFactor: number | null;
  readonly expectancy: string | null;
  readonly exposure: number;
  readonly tradedNotional: string;
  readonly turnover: number | null;
  readonly fees: string;
  readonly fundingPaid: string;
  readonly fundingReceived: string;
  readonly fills: number;
  readonly makerShare: number | null;
  readonly takerShare: number | null;
  readonly orders: number;
  readonly cancels: number;
}

const ANNUAL_DAYS = 365;

/** Returns the daily UTC returns of an equity series: one per UTC day from the first point's day to the last's. */
export function dailyReturns(equity: readonly EquityPoint[]): number[] {
  if (equity.length === 0) return [];
  const first = Math.floor(equity[0]!.time / DAY_MS);
  const last = Math.floor(equity[equity.length - 1]!.time / DAY_MS);
  const out: number[] = [];
  let prev = new Decimal(equity[0]!.equity);
  let i = 0;
  let close = prev;
  for (let d = first; d <= last; d++) {
    const end = (d + 1) * DAY_MS;
    // Only the day's last point is its close: the others are passed over unread.
    const from = i;
    while (i < equity.length && equity[i]!.time < end) i++;
    if (i > from) close = new Decimal(equity[i - 1]!.equity);
    out.push(prev.isZero() ? 0 : close.div(prev).minus(1).toNumber());
    prev = close;
  }
  return out;
}

/** Returns the largest fall from a peak as a fraction and an amount, and how long that episode lasted (peak to recovery, or to the end). */
export function maxDrawdown(equity: readonly EquityPoint[]): { fraction: number; amount: Decimal; durationMs: number } {
  let best = { fraction: 0, amount: new Decimal(0), durationMs: 0 };
  if (equity.length === 0) return best;
  // In scaled integers, one point at a time; a fraction (a division) only for a new low of its episode:
  // under one peak the fraction grows with the amount, so no smaller amount can beat the episode's worst (nor so the best).
  let peak = scaledOfAny(equity[0]!.equity, 'equity');
  let peakTime = equity[0]!.time;
  let worstInEpisode = 0;
  let worstAmount = SCALED_ZERO;
  const close = (until: number): void => {
    if (worstInEpisode > 0 && worstInEpisode >= best.fraction) best = { ...best, durationMs: until - peakTime };
  };
  for (const p of equity) {
    const e = scaledOfAny(p.equity, 'equity');
    if (compareScaled(e, peak) >= 0) {
      close(p.time);
      peak = e;
      peakTime = p.time;
      worstInEpisode = 0;
      worstAmount = SCALED_ZERO;
      continue;
    }
    // A peak of zero or less gives no drawdown fraction above zero.
    if (peak.units <= 0n) continue;
    const amount = subScaled(peak, e);
    if (compareScaled(amount, worstAmount) <= 0) continue;
    const fraction = scaledDecimal(amount).div(scaledDecimal(peak)).toNumber();
    if (fraction > worstInEpisode) {
      worstInEpisode = fraction;
      worstAmount = amount;
    }
    if (fraction > best.fraction) best = { fraction, amount: scaledDecimal(amount), durationMs: best.durationMs };
  }
  close(equity[equity.length - 1]!.time);
  return best;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Returns the annualised Sharpe ratio of daily returns (risk-free 0, sample standard deviation); null with fewer than 2 days or no variation. */
export function sharpe(daily: readonly number[]): number | null {
  if (daily.length < 2) return null;
  const m = mean(daily);
  const sd = Math.sqrt(daily.reduce((s, x) => s + (x - m) ** 2, 0) / (daily.length - 1));
  return sd === 0 ? null : (m / sd) * Math.sqrt(ANNUAL_DAYS);
}

/** Returns the annualised Sortino ratio: mean over the downside deviation sqrt(Σ min(r, 0)² / n); null with no losing day. */
export function sortino(daily: readonly number[]): number | null {
  if (daily.length < 2) return null;
  const dd = Math.sqrt(daily.reduce((s, x) => s + Math.min(x, 0) ** 2, 0) / daily.length);
  return dd === 0 ? null : (mean(daily) / dd) * Math.sqrt(ANNUAL_DAYS);
}

/** Returns the time-weighted share of the run with a position open. */
function exposureOf(positions: readonly PositionPoint[], start: number, end: number): number {
  if (end <= start) return 0;
  let open = 0;
  let since = start;
  let holding = false;
  for (const p of positions) {
    const t = Math.min(Math.max(p.time, start), end);
    if (holding) open += t - since;
    since = t;
    holding = scaledOfAny(p.position, 'position').units !== 0n;
  }
  if (holding) open += end - since;
  return open / (end - start);
}

/** Returns every metric of a run. */
export function computeMetrics(input: MetricsInput): Metrics {
  const eq = input.equity;
  if (eq.length === 0) throw new Error('metrics need at least one equity point');
  const start = eq[0]!.time;
  const end = eq[eq.length - 1]!.time;
  const e0 = new Decimal(eq[0]!.equity);
  const e1 = new Decimal(eq[eq.length - 1]!.equity);
  const net = e1.minus(e0);
  const ret = e0.isZero() ? null : net.div(e0).toNumber();
  const years = (end - start) / DAY_MS / ANNUAL_DAYS;
  const cagr = years > 0 && e0.gt(0) && e1.gte(0) ? e1.div(e0).pow(new Decimal(1).div(years)).minus(1).toNumber() : null;
  const dd = maxDrawdown(eq);
  const daily = dailyReturns(eq);
  const t = input.trades;
  const grossWin = new Decimal(t.grossWin);
  const grossLoss = new Decimal(t.grossLoss).abs();
  const { notional, fees, makerQty, allQty, count } = input.fills instanceof FillTotals ? input.fills : FillTotals.of(input.fills);
  const makerShare = allQty.isZero() ? null : makerQty.div(allQty).toNumber();
  // From the quantities, not 1 − makerShare: a float subtraction leaves artefacts (1 − 0.7 = 0.30000000000000004) in summary.json.
  const takerShare = allQty.isZero() ? null : allQty.minus(makerQty).div(allQty).toNumber();
  return {
    start,
    end,
    startEquity: e0.toString(),
    endEquity: e1.toString(),
    netPnl: net.toString(),
    return: ret,
    cagr,
    maxDrawdown: dd.fraction,
    maxDrawdownAmount: dd.amount.toString(),
    maxDrawdownDurationMs: dd.durationMs,
    sharpe: sharpe(daily),
    sortino: sortino(daily),
    calmar: cagr !== null && dd.fraction > 0 ? cagr / dd.fraction : null,
    days: daily.length,
    trades: t.count,
    winRate: t.count === 0 ? null : t.wins / t.count,
    profitFactor: grossLoss.isZero() ? null : grossWin.div(grossLoss).toNumber(),
    // A mean need not be a finite decimal: kept to 12 places.
    expectancy: t.count === 0 ? null : grossWin.minus(grossLoss).div(t.count).toDecimalPlaces(12).toString(),
    exposure: exposureOf(input.positions, start, end),
    tradedNotional: notional.toString(),
    turnover: e0.isZero() ? null : notional.div(e0).toNumber(),
    fees: fees.toString(),
    fundingPaid: new Decimal(input.fundingPaid).toString(),
    fundingReceived: new Decimal(input.fundingReceived).toString(),
    fills: count,
    makerShare,
    takerShare,
    orders: input.orders,
    cancels: input.cancels,
  };
}
