// `ctx.history` in a backtest answers as a live venue would: the last n candles up to now (none from before a gap in the recording), each with its close time, and the trades of the last hour before now, never anything at or after now.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogHistory, klineCloseTime, klinesWindowStart, TRADES_LOOKBACK_MS } from '../../../src/backtest/run/history.ts';
import { VirtualClock } from '../../../src/core/clock.ts';

// BTCUSDT in the sample: hourly klines 2020-04-30 21:00 to 2020-06-11 12:00 UTC, 1m klines and trades on 2020-09-27 around 14:12, book and trades on 2024-08-08 23:54 to 23:56.
const SAMPLE = resolve(import.meta.dirname, '../../../backtest/data/binance-samples');
const HOUR = 3_600_000;

const at = (iso: string): { clock: VirtualClock; h: ReturnType<typeof catalogHistory> } => {
  const clock = new VirtualClock(Date.parse(iso));
  return { clock, h: catalogHistory(SAMPLE, clock, ['BTCUSDT']) };
};

describe('backtest history', () => {
  it('returns no candles from years before now: the 2024 run sees none of the 2020 klines', async () => {
    const { h } = at('2024-08-08T23:55:00Z');
    expect(await h.klines('BTCUSDT', '1m', 50)).toEqual([]);
    expect(await h.klines('BTCUSDT', '1h', 50)).toEqual([]);
    expect(await h.klines('BTCUSDT', '1d', 5000)).toEqual([]);
  });

  it('returns only the candles among the last n intervals, with the venue close time', async () => {
    // The hourly candles stop with the one opened at 12:00; at 15:30 the last 5 hours are 11:00 to 15:00 (15:00 still open): 13:00 and 14:00 are missing, 11:00 and 12:00 are there.
    const { clock, h } = at('2020-06-11T15:30:00Z');
    const five = await h.klines('BTCUSDT', '1h', 5);
    expect(five.map((k) => new Date(k.openTime).toISOString())).toEqual(['2020-06-11T11:00:00.000Z', '2020-06-11T12:00:00.000Z']);
    for (const k of five) {
      expect(k.closeTime).toBe(k.openTime + HOUR - 1);
      expect(k.closeTime).toBeLessThan(clock.now());
    }
    // With the candles all recent, n is n: contiguous, ending with the last closed one.
    const { clock: c2, h: h2 } = at('2020-05-10T05:30:00Z');
    const ten = await h2.klines('BTCUSDT', '1h', 10);
    expect(ten).toHaveLength(9);
    expect(ten.at(-1)!.openTime).toBe(Date.parse('2020-05-10T04:00:00Z'));
    for (const [i, k] of ten.entries()) if (i > 0) expect(k.openTime - ten[i - 1]!.openTime).toBe(HOUR);
    expect(ten[0]!.openTime).toBeGreaterThan(c2.now() - 10 * HOUR);
  });

  it('returns only trades of the last hour before now, none at or after now', async () => {
    // 6 s into the 2024 recording: a few hundred trades, fewer than 1000; the 2020 trades are four years older.
    const { clock, h } = at('2024-08-08T23:54:20Z');
    const now = clock.now();
    const trades = await h.trades('BTCUSDT', 1000);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.length).toBeLessThan(1000);
    for (const t of trades) {
      expect(t.time).toBeGreaterThanOrEqual(now - TRADES_LOOKBACK_MS);
      // Nothing received at or after now; `time` is the venue's stamp, which in this recording runs 1.18 to 1.27 s ahead of the receive clock the guarantee is on.
      expect(t.time).toBeLessThan(now + 1_300);
    }
    // An hour after the 2020 trades (14:11:54 to 14:15:36), only those of the last hour remain.
    const later = at('2020-09-27T15:15:00Z');
    const old = await later.h.trades('BTCUSDT', 1000);
    expect(old.length).toBeGreaterThan(0);
    expect(old[0]!.time).toBeGreaterThanOrEqual(later.clock.now() - TRADES_LOOKBACK_MS);
    expect((await at('2020-09-27T15:16:00Z').h.trades('BTCUSDT', 1000))).toEqual([]);
  });

  it('names a bad interval as live history does', async () => {
    const { h } = at('2024-08-08T23:55:00Z');
    await expect(h.klines('BTCUSDT', '3m' as never, 5)).rejects.toThrow('history.interval: must be one of');
  });

  it('counts calendar months for 1M', () => {
    const now = Date.parse('2024-03-15T10:00:00Z');
    expect(klinesWindowStart('1M', 1, now)).toBe(Date.parse('2024-03-01T00:00:00Z'));
    expect(klinesWindowStart('1M', 3, now)).toBe(Date.parse('2024-01-01T00:00:00Z'));
    expect(klinesWindowStart('1M', 15, now)).toBe(Date.parse('2023-01-01T00:00:00Z'));
    expect(klineCloseTime('1M', Date.parse('2024-02-01T00:00:00Z'))).toBe(Date.parse('2024-03-01T00:00:00Z') - 1);
    expect(klinesWindowStart('1m', 50, now)).toBe(now - 50 * 60_000 + 1);
  });
});
