// Klines in an L2 backtest whose catalog has none for the range: built from the recorded trades as the venue builds its stream, so a strategy asking for them gets each minute's candle as live; one that did not ask gets none.
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/fixed.ts';
import { runBacktest } from '../../../src/app/backtest.ts';
import { parseRunConfig } from '../../../src/app/config.ts';
import { replay } from '../../../src/data/replay.ts';
import { TradeKlines } from '../../../src/backtest/run/trade-klines.ts';
import type { KlineEvent, TradeEvent } from '../../../src/model/index.ts';
import { spotInstrument } from '../fixtures.ts';
import type { SeenKline } from './kline-strategy.ts';

const SAMPLE = resolve(import.meta.dirname, '../../../backtest/data/binance-samples');
const SYMBOL = 'BTCUSD-PERP';
const g = globalThis as { __klines?: Record<string, SeenKline[]> };
afterEach(() => {
  delete g.__klines;
});

/** Minute candles computed here from the catalog's trades: open, high, low, close and volume of each minute by exchange time. */
async function candlesOfTrades(): Promise<Map<number, { open: Decimal; high: Decimal; low: Decimal; close: Decimal; volume: Decimal; firstRecv: number }>> {
  const out = new Map<number, { open: Decimal; high: Decimal; low: Decimal; close: Decimal; volume: Decimal; firstRecv: number }>();
  await replay({
    catalog: SAMPLE, symbols: [SYMBOL], tables: ['trades'],
    sink: (ev) => {
      if (ev.kind !== 'trade') return;
      const minute = Math.floor(ev.ts / 60_000) * 60_000;
      const p = new Decimal(ev.price);
      const c = out.get(minute);
      if (c === undefined) out.set(minute, { open: p, high: p, low: p, close: p, volume: new Decimal(ev.qty), firstRecv: ev.recvTs });
      else out.set(minute, { ...c, high: Decimal.max(c.high, p), low: Decimal.min(c.low, p), close: p, volume: c.volume.plus(ev.qty) });
    },
  });
  return out;
}

describe('klines from trades in an L2 backtest', () => {
  it('gives a strategy asking for 1m klines every minute of the recorded trades, closed when the next minute trades, and none to one that did not ask', async () => {
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [
        { id: 'wants', use: resolve(import.meta.dirname, 'kline-strategy.ts'), symbols: [SYMBOL] },
        { id: 'not', use: resolve(import.meta.dirname, 'kline-strategy.ts'), symbols: [SYMBOL], streams: { klines: [] } },
      ],
      backtest: { data: SAMPLE, balances: { BTC: '1' } },
    });
    await runBacktest({ config, baseDir: import.meta.dirname });
    const seen = g.__klines!['wants']!;
    expect(g.__klines!['not']).toEqual([]);
    const expected = await candlesOfTrades();
    const minutes = [...expected.keys()].sort((a, b) => a - b);
    expect(minutes.length).toBeGreaterThanOrEqual(3);
    const closed = seen.filter((k) => k.closed);
    // Every minute but the last closes: the last has no later trade to close it.
    expect(closed.map((k) => k.openTime)).toEqual(minutes.slice(0, -1));
    for (const k of closed) {
      const c = expected.get(k.openTime)!;
      expect([k.open, k.high, k.low, k.close, k.volume].map((x) => new Decimal(x).toFixed())).toEqual([c.open, c.high, c.low, c.close, c.volume].map((x) => x.toFixed()));
      // Closed on the first trade of the next minute, seen when that trade was received.
      const next = minutes[minutes.indexOf(k.openTime) + 1]!;
      expect(k.at).toBe(expected.get(next)!.firstRecv);
    }
    // Before it closes, the current candle is published as it changes, never ahead of the clock.
    expect(seen.filter((k) => !k.closed).length).toBeGreaterThan(closed.length);
    for (const k of seen) expect(k.recvTs).toBeLessThanOrEqual(k.at);
  }, 60_000);

  it('builds the candles of every asked interval from the same trades, on the interval bucket of each trade', () => {
    // ETHUSDT of a published brokerInfo: tick 0.01, step 0.0001.
    const inst = spotInstrument();
    const got: KlineEvent[] = [];
    const k = new TradeKlines(new Map([['ETHUSDT', { inst, intervals: ['1m', '5m'] as const }]]), (ev) => got.push(ev));
    const trade = (ts: number, price: string, qty: string): TradeEvent => ({ kind: 'trade', symbol: 'ETHUSDT', tradeId: String(ts), price, qty, takerSide: 'BUY', ts, recvTs: ts });
    const base = Date.parse('2024-08-08T23:58:30Z');
    k.onTrade(trade(base, '100.00', '0.001'));
    k.onTrade(trade(base + 10_000, '101.50', '0.002'));
    k.onTrade(trade(base + 40_000, '99.25', '0.004'));
    const oneMin = got.filter((e) => e.interval === '1m' && e.closed);
    expect(oneMin).toEqual([expect.objectContaining({ openTime: Date.parse('2024-08-08T23:58:00Z'), open: '100', high: '101.5', low: '100', close: '101.5', volume: '0.003' })]);
    const fiveMin = got.filter((e) => e.interval === '5m');
    expect(fiveMin.every((e) => !e.closed && e.openTime === Date.parse('2024-08-08T23:55:00Z'))).toBe(true);
    expect(fiveMin.at(-1)).toEqual(expect.objectContaining({ open: '100', high: '101.5', low: '99.25', close: '99.25', volume: '0.007' }));
  });
});
