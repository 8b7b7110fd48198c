// Trades of the 2020-09-27 sample, replayed from the catalog and aggregated into 1m klines, equal the venue's own 1m klines replayed beside them.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, compareDecimal } from '../../src/core/fixed.ts';
import { convert } from '../../src/data/convert.ts';
import type { KlineEvent, TradeEvent } from '../../src/model/events.ts';
import { collect, REAL, sampleMapping, tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

interface Bar { open: string; high: string; low: string; close: string; volume: Decimal }

function aggregate(trades: readonly TradeEvent[]): Map<number, Bar> {
  const bars = new Map<number, Bar>();
  for (const t of trades) {
    const minute = t.ts - (t.ts % 60_000);
    const b = bars.get(minute);
    if (!b) {
      bars.set(minute, { open: t.price, high: t.price, low: t.price, close: t.price, volume: new Decimal(t.qty) });
      continue;
    }
    if (compareDecimal(t.price, b.high) > 0) b.high = t.price;
    if (compareDecimal(t.price, b.low) < 0) b.low = t.price;
    b.close = t.price;
    b.volume = b.volume.plus(t.qty);
  }
  return bars;
}

describe('trades aggregated into 1m klines', () => {
  it('equal the venue\'s own 1m klines, OHLCV as exact decimals, for every minute of the 2020-09-27 sample', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const { report } = await convert({ inputs: [join(REAL, 'trades.json'), join(REAL, 'candlestick1m.json')], out: t.dir, mapping: sampleMapping() });
    expect(report.problems).toEqual([]);
    const { events } = await collect({ catalog: t.dir });
    const trades = events.filter((e): e is TradeEvent => e.kind === 'trade');
    const klines = new Map(events.filter((e): e is KlineEvent => e.kind === 'kline').map((k) => [k.openTime, k]));
    expect(trades).toHaveLength(1000);
    expect(klines.size).toBe(500);
    const bars = aggregate(trades);
    const minutes = [...bars.keys()].sort((a, b) => a - b);
    // 14:11:54 to 14:15:36: the first and last minutes hold only the trades the sample has; the three between are whole.
    expect(minutes.map((m) => new Date(m).toISOString().slice(11, 16))).toEqual(['14:11', '14:12', '14:13', '14:14', '14:15']);
    for (const m of minutes.slice(1, -1)) {
      const b = bars.get(m)!;
      const k = klines.get(m)!;
      expect({ open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume.toFixed() }, new Date(m).toISOString())
        .toEqual({ open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume });
      expect(k.closed).toBe(true);
    }
    // The partial minutes: the first (trades from 14:11:54 on) ends as the venue's does and stays inside its range;
    // the last starts as the venue's does (that candle was fetched while still open, so it holds fewer trades than the sample).
    const first = bars.get(minutes[0]!)!;
    const k0 = klines.get(minutes[0]!)!;
    expect(first.close).toBe(k0.close);
    expect(compareDecimal(first.high, k0.high) <= 0 && compareDecimal(first.low, k0.low) >= 0 && first.volume.lte(k0.volume)).toBe(true);
    expect(bars.get(minutes[4]!)!.open).toBe(klines.get(minutes[4]!)!.open);
  });
});
