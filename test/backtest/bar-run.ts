/**
 * A small bar-mode run over the committed real hourly BTCUSDT klines, made for the report tests:
 * a long-only moving-average crossover (24 h over 72 h) buying 0.1 BTC at the next bar's open, with a
 * take-profit limit 3 % above the entry; fees 0.1 % taker, 0.02 % maker; equity in USDT at each close.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from '../../src/core/fixed.ts';
import { fillsOnBar, type Bar, type BarOrder } from '../../src/backtest/bars.ts';
import { computeMetrics, type EquityPoint, type MetricsFill, type PositionPoint } from '../../src/backtest/metrics.ts';
import type { BacktestResults, FillRow, OrderRow, PricePoint } from '../../src/backtest/report/results.ts';
import { sha256 } from '../../src/backtest/report/hash.ts';
import { tradeStats } from '../../src/backtest/trades.ts';

const FILE = join(import.meta.dirname, 'data', 'binance-btcusdt-1h-2020', 'extracted_api_v3_klines_BTCUSDT_1h_2020-04-30_2020-06-11.json');
const TICK = new Decimal('0.01');

/** Returns the klines as bars in ticks of 0.01 (the venue sends prices with 8 decimals, all whole cents). */
export function realBars(): Bar[] {
  const raw = JSON.parse(readFileSync(FILE, 'utf8')) as [number, string, string, string, string, string, number][];
  const ticks = (s: string): number => new Decimal(s).div(TICK).toNumber();
  return raw.map((k) => ({ openTime: k[0], closeTime: k[6] + 1, open: ticks(k[1]), high: ticks(k[2]), low: ticks(k[3]), close: ticks(k[4]) }));
}

/** Returns the results of the run over `bars` (deterministic: the same bars give the same results). */
export function barRun(bars: readonly Bar[] = realBars()): BacktestResults {
  const qty = new Decimal('0.1');
  const fees = { maker: new Decimal('0.0002'), taker: new Decimal('0.001') };
  let cash = new Decimal(10_000);
  let pos = new Decimal(0);
  let tripCash = new Decimal(0);
  const orders: OrderRow[] = [];
  const fills: FillRow[] = [];
  const mfills: MetricsFill[] = [];
  const equity: EquityPoint[] = [];
  const positions: PositionPoint[] = [];
  const prices: PricePoint[] = [];
  const trades: string[] = [];
  let working: (BarOrder & { time: number })[] = [];
  let cancels = 0;
  let n = 0;
  const closes: number[] = [];
  const sma = (len: number, back = 0): number | undefined => {
    if (closes.length < len + back) return undefined;
    let s = 0;
    for (let i = closes.length - len - back; i < closes.length - back; i++) s += closes[i]!;
    return s / len;
  };
  const place = (o: Omit<BarOrder, 'id'>, time: number): void => {
    const id = `o${++n}`;
    working.push({ ...o, id, time });
    orders.push({
      time, clientOrderId: id, orderId: String(1000 + n), side: o.side, type: o.type, timeInForce: 'GTC',
      price: o.priceTicks === undefined ? '0' : new Decimal(o.priceTicks).times(TICK).toString(), qty: qty.toString(), status: 'NEW', executedQty: '0', updateTime: time,
      priceType: '', triggerPrice: '', leverage: '',
    });
  };
  const finish = (id: string, status: string, time: number, executed: string): void => {
    const i = orders.findIndex((o) => o.clientOrderId === id);
    orders[i] = { ...orders[i]!, status, updateTime: time, executedQty: executed };
  };
  equity.push({ time: bars[0]?.openTime ?? 0, equity: cash.toString() });
  for (const bar of bars) {
    const path = fillsOnBar(bar, working);
    for (const f of path) {
      const o = working.find((w) => w.id === f.id)!;
      const price = new Decimal(f.priceTicks).times(TICK);
      const notional = price.times(qty);
      const fee = notional.times(f.isMaker ? fees.maker : fees.taker).toDecimalPlaces(8, Decimal.ROUND_UP);
      const buy = o.side === 'BUY';
      const flow = (buy ? notional.neg() : notional).minus(fee);
      cash = cash.plus(flow);
      tripCash = tripCash.plus(flow);
      pos = buy ? pos.plus(qty) : pos.minus(qty);
      const time = bar.openTime + (f.leg * (bar.closeTime - bar.openTime)) / 3;
      fills.push({ time, orderId: String(1000 + Number(o.id.slice(1))), clientOrderId: o.id, side: o.side, price: price.toString(), qty: qty.toString(), fee: fee.toString(), feeAsset: 'USDT', isMaker: f.isMaker });
      mfills.push({ qty: qty.toString(), notional: notional.toString(), fee: fee.toString(), isMaker: f.isMaker });
      positions.push({ time, position: pos.toString() });
      finish(o.id, 'FILLED', time, qty.toString());
      working = working.filter((w) => w.id !== o.id);
      if (pos.isZero()) {
        trades.push(tripCash.toString());
        tripCash = new Decimal(0);
        for (const w of working) {
          finish(w.id, 'CANCELED', time, '0');
          cancels++;
        }
        working = [];
      } else if (buy) {
        place({ side: 'SELL', type: 'LIMIT', priceTicks: Math.round(f.priceTicks * 1.03) }, time);
      }
    }
    closes.push(bar.close);
    prices.push({ time: bar.closeTime, price: new Decimal(bar.close).times(TICK).toString() });
    equity.push({ time: bar.closeTime, equity: cash.plus(pos.times(new Decimal(bar.close).times(TICK))).toString() });
    const f0 = sma(24);
    const s0 = sma(72);
    const f1 = sma(24, 1);
    const s1 = sma(72, 1);
    if (f0 === undefined || s0 === undefined || f1 === undefined || s1 === undefined) continue;
    const flat = pos.isZero() && working.every((w) => w.type !== 'MARKET');
    if (flat && f1 <= s1 && f0 > s0) place({ side: 'BUY', type: 'MARKET' }, bar.closeTime);
    if (pos.gt(0) && f1 >= s1 && f0 < s0 && working.every((w) => w.type !== 'MARKET')) {
      for (const w of working) {
        finish(w.id, 'CANCELED', bar.closeTime, '0');
        cancels++;
      }
      working = [];
      place({ side: 'SELL', type: 'MARKET' }, bar.closeTime);
    }
  }
  const metrics = computeMetrics({ equity, fills: mfills, trades: tradeStats(trades), positions, fundingPaid: '0', fundingReceived: '0', orders: orders.length, cancels });
  return {
    name: 'sma-cross', symbol: 'BTCUSDT', currency: 'USDT', moneyDecimals: 2,
    configHash: sha256('sma-cross 24/72 qty 0.1 tp 3%'), dataHash: sha256(readFileSync(FILE, 'utf8')), seed: 1,
    orders, fills, equity, positions, prices, metrics,
  };
}
