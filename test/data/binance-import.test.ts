// Real Binance spot and COIN-M recordings convert without gaps, and the book rebuilt from their snapshot and diffs is never crossed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { compareDecimal, toUnits } from '../../src/core/fixed.ts';
import { convert } from '../../src/data/convert.ts';
import { formatInfo } from '../../src/data/info.ts';
import { collect, CM_RAW, sampleMapping, SPOT_RAW, tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('Binance raw streams into the catalog', () => {
  it('convert the spot and COIN-M samples with 0 gaps and 0 problems, each diff and trade kept', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const { index, report } = await convert({ inputs: [SPOT_RAW, CM_RAW], out: t.dir, mapping: sampleMapping() });
    expect(report.problems).toEqual([]);
    expect(index.gaps).toEqual([]);
    const lines = (f: string, kind: string): number => gunzipSync(readFileSync(f)).toString().split('\n').filter((l) => l.includes(kind)).length;
    expect(report.counts.get('binance depth diffs')).toBe(lines(SPOT_RAW, '@depth') + lines(CM_RAW, '@depth'));
    expect(report.counts.get('binance trades')).toBe(lines(SPOT_RAW, '@trade') + lines(CM_RAW, '@trade'));
    expect(report.counts.get('binance snapshots')).toBe(2);
    expect(index.instruments['BTCUSD-PERP']).toMatchObject({ kind: 'inverse', multiplier: '100', lot: '1', margin: 'BTC' });
    expect(formatInfo(index)).toContain('gaps: 0');
  });

  it('rebuild books that are never crossed and never gap, from snapshot and diffs, on both markets', async () => {
    const t = tempDir();
    cleanup = t.remove;
    await convert({ inputs: [SPOT_RAW, CM_RAW], out: t.dir, mapping: sampleMapping() });
    const { events, stats } = await collect({ catalog: t.dir, tables: ['book_deltas'] });
    expect(stats).toMatchObject({ bookGaps: 0, recordedGaps: 0 });
    // An independent book per symbol, rebuilt from the published snapshot and updates alone, checked after each one.
    const books = new Map<string, TestBook>();
    let checked = 0;
    for (const ev of events) {
      if (ev.kind !== 'depthSnapshot' && ev.kind !== 'depthUpdate') continue;
      let b = books.get(ev.symbol);
      if (!b || ev.kind === 'depthSnapshot') books.set(ev.symbol, (b = new TestBook()));
      for (const [p, q] of ev.bids) b.set(b.bids, p, q);
      for (const [p, q] of ev.asks) b.set(b.asks, p, q);
      const bid = b.best(b.bids, -1);
      const ask = b.best(b.asks, 1);
      expect(bid !== undefined && ask !== undefined && bid < ask, `${ev.symbol} ${ev.version}: ${bid} < ${ask}`).toBe(true);
      checked += 1;
    }
    expect([...books.keys()].sort()).toEqual(['BTCUSD-PERP', 'BTCUSDT']);
    expect(checked).toBe(events.length);
  });

  it('report a lost diff as a gap with its place, and the replayed book stops publishing until a snapshot', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const lines = gunzipSync(readFileSync(SPOT_RAW)).toString().split('\n');
    const diffs = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('@depth'));
    const lost = diffs[40]![1];
    const cut = join(t.dir, 'spot_btcusdt_20240808.gz');
    writeFileSync(cut, gzipSync(lines.filter((_, i) => i !== lost).join('\n')));
    const { index, report } = await convert({ inputs: [cut], out: join(t.dir, 'cat'), mapping: sampleMapping() });
    expect(index.gaps).toHaveLength(1);
    expect(index.gaps[0]!.reason).toMatch(/does not follow/);
    expect(report.problems).toEqual([expect.objectContaining({ line: lost + 1, message: expect.stringContaining('version gap in BTCUSDT') })]);
    const { events, stats } = await collect({ catalog: join(t.dir, 'cat'), tables: ['book_deltas'] });
    const updates = events.filter((e) => e.kind === 'depthUpdate');
    // Live, the book would resync from a new snapshot; a recording has none after the gap, so nothing more is published.
    expect(stats).toMatchObject({ bookGaps: 0, recordedGaps: 1 });
    expect(updates.length).toBeLessThan(40);
    expect(updates.length).toBeGreaterThan(0);
  });
});

/** Price levels keyed by the price as a number of 1e-8 units (exact for these prices), best kept up to date lazily. */
class TestBook {
  readonly bids = new Map<number, string>();
  readonly asks = new Map<number, string>();

  set(side: Map<number, string>, price: string, qty: string): void {
    const key = toUnits(price, '0.00000001');
    if (compareDecimal(qty, '0') === 0) side.delete(key);
    else side.set(key, qty);
  }

  best(side: Map<number, string>, dir: 1 | -1): number | undefined {
    let best: number | undefined;
    for (const k of side.keys()) if (best === undefined || k * dir < best * dir) best = k;
    return best;
  }
}
