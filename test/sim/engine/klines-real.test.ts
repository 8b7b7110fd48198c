// Klines built from real trades (BTCUSDT, 2020-09-27) match the venue's own 1m candles for every minute the trades fully cover.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareDecimal, toUnits } from '../../../src/core/fixed.ts';
import { bucketOf, KlineBook, barQuote } from '../../../src/sim/engine/klines.ts';

interface RealTrade { id: number; price: string; qty: string; time: number; isBuyerMaker: boolean }
type RealKline = [number, string, string, string, string, string, number, string, number, string, string, string];

const dir = new URL('../../fixtures/real/', import.meta.url);
const trades = JSON.parse(readFileSync(new URL('trades.json', dir), 'utf8')) as RealTrade[];
const candles = JSON.parse(readFileSync(new URL('candlestick1m.json', dir), 'utf8')) as RealKline[];
const TICK = '0.01';
const STEP = '0.000001';

describe('klines from real trades', () => {
  it('match the venue\'s 1m open, high, low, close, volume, trade count and taker-buy volume', () => {
    for (let i = 1; i < trades.length; i++) expect(trades[i]!.id).toBe(trades[i - 1]!.id + 1);
    const book = new KlineBook();
    for (const t of trades) book.addTrade(t.time, toUnits(t.price, TICK), toUnits(t.qty, STEP), !t.isBuyerMaker);
    const first = bucketOf('1m', trades[0]!.time)[1];
    const last = bucketOf('1m', trades[trades.length - 1]!.time)[0];
    const ours = book.klines('1m', 1000).filter((b) => b.openTime >= first && b.openTime < last);
    expect(ours.length).toBe(3);
    for (const b of ours) {
      const k = candles.find((c) => c[0] === b.openTime)!;
      expect(k, `candle ${b.openTime}`).toBeDefined();
      const price = (ticks: number): string => (ticks / 100).toFixed(2);
      expect([price(b.open), price(b.high), price(b.low), price(b.close)]).toEqual([k[1], k[2], k[3], k[4]].map((s) => (+s).toFixed(2)));
      expect(compareDecimal(String(b.volume / 1e6), k[5])).toBe(0);
      expect(b.closeTime).toBe(k[6]);
      expect(b.trades).toBe(k[8]);
      expect(compareDecimal(String(b.takerBuyVolume / 1e6), k[9])).toBe(0);
      // Quote volume in tick×step units (1e-8): the venue's figure rounds each trade's quote to 8 decimals.
      expect(compareDecimal((Number(barQuote(b)) / 1e8).toFixed(8), k[7])).toBe(0);
    }
  });

  it('aggregate every interval from the same trades: bars split at interval boundaries, weeks from Monday, calendar months', () => {
    const book = new KlineBook();
    for (const t of trades) book.addTrade(t.time, toUnits(t.price, TICK), toUnits(t.qty, STEP), !t.isBuyerMaker);
    const total = trades.reduce((s, t) => s + toUnits(t.qty, STEP), 0);
    // 14:11:54 to 14:15:36 crosses the 14:15 boundary once.
    const expected: Record<string, number> = { '1m': 5, '3m': 3, '5m': 2, '15m': 2, '30m': 1, '1h': 1, '4h': 1, '1d': 1, '3d': 1, '1w': 1, '1M': 1 };
    for (const [iv, n] of Object.entries(expected)) {
      const bars = book.klines(iv as '1m', 10);
      expect(bars, iv).toHaveLength(n);
      expect(bars.reduce((s, b) => s + b.volume, 0)).toBe(total);
      expect(bars.reduce((s, b) => s + b.trades, 0)).toBe(1000);
    }
    expect(book.klines('15m', 10).map((b) => b.openTime)).toEqual([Date.UTC(2020, 8, 27, 14, 0), Date.UTC(2020, 8, 27, 14, 15)]);
    expect(book.klines('1w', 1)[0]!.openTime).toBe(Date.UTC(2020, 8, 21));
    expect(book.klines('1M', 1)[0]!.openTime).toBe(Date.UTC(2020, 8, 1));
    expect(book.klines('1M', 1)[0]!.closeTime).toBe(Date.UTC(2020, 9, 1) - 1);
  });
});
