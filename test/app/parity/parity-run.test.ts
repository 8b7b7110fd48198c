// `bhtrade parity` end to end on a virtual clock: the market maker live on the embedded venue for 20 s of simulated time, recorded, backtested on the recording and compared; checks what must hold whatever the market did.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../src/app/config.ts';
import { runParity, type ParityResult } from '../../../src/app/parity/run.ts';
import { parityLines, writeParity } from '../../../src/app/parity/report.ts';
import { CaptureReader, captureFiles } from '../../../src/data/capture/index.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Decimal } from '../../../src/core/fixed.ts';
import { loadVenueConfig } from '../../../src/sim/server/config.ts';
import { ROOT } from '../scenario.ts';
import { testDir } from '../../fixtures/temp-dir.ts';

const QTY = '0.002';
const MAX_OPEN = 10;

async function parityRun(): Promise<{ p: ParityResult; out: string; lines: string[] }> {
  const clock = new VirtualClock(1_700_000_000_000);
  const out = testDir('bh-parity-');
  const config = parseRunConfig({
    venue: 'embedded',
    strategies: [{ id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { quantity: QTY, spreadTicks: 6, requoteTicks: 2, refreshMs: 100, orderRate: { perSecond: 8, perMinute: 240 } } }],
    risk: { symbols: { BTCUSDT: { maxPosition: '12', maxOpenOrders: MAX_OPEN } }, strategy: { orderRate: { perSecond: 10, perMinute: 300 } } },
    status: { every: '1h' }, log: { level: 'error' },
  });
  const p = await runParity({ config, baseDir: join(ROOT, 'config') }, {
    out, durationMs: 20_000, clock, venueConfig: loadVenueConfig(join(ROOT, 'config/venue.yaml')),
    // Simulated time moves in steps of 100 ms, each after the bot's sockets and promises had their turn.
    wait: async (ms) => {
      const end = clock.now() + ms;
      while (clock.now() < end) await clock.advance(100);
    },
  });
  const lines = parityLines(p, 4);
  writeParity(out, p, lines);
  return { p, out, lines };
}

/** Every diffDepth push of a market capture folder, in order: time and levels by side and price. */
async function depthPushes(dir: string, files?: string[]): Promise<{ t: number; levels: Map<string, string> }[]> {
  const reader = new CaptureReader(files ?? await captureFiles(dir, 'market'));
  const out: { t: number; levels: Map<string, string> }[] = [];
  for await (const r of reader.records()) {
    if (r.marker !== undefined || !r.frame.includes('"diffDepth"')) continue;
    const v = JSON.parse(r.frame) as { data: { t: number; b: [string, string][]; a: [string, string][] }[] };
    for (const d of v.data) {
      const levels = new Map<string, string>();
      for (const [p, q] of d.b) levels.set(`b${new Decimal(p).toFixed()}`, q);
      for (const [p, q] of d.a) levels.set(`a${new Decimal(p).toFixed()}`, q);
      out.push({ t: d.t, levels });
    }
  }
  return out;
}

describe('bhtrade parity on a virtual clock', () => {
  it('reports every fill once (matched, or unmatched with a cause), matched fills agree, and the bot\'s own orders leave the recorded book', async () => {
    const { p, out, lines } = await parityRun();
    const c = p.comparison;
    // The maker quoted: orders were placed live and in the backtest, and round trips were recorded.
    expect(c.live.orders).toBeGreaterThan(0);
    expect(c.backtest.orders).toBeGreaterThan(0);
    expect(p.latency.trips).toBeGreaterThan(0);
    expect(c.live.orders).toBe(p.journal.orders.length);
    expect(c.backtest.orders).toBe(p.backtest.results.orders.length);

    // Counts add up: each fill of each run is matched once or unmatched once.
    const unmatched = (run: 'live' | 'backtest') => c.unmatched.filter((u) => u.run === run).length;
    expect(c.matched.length + unmatched('live')).toBe(c.live.fills);
    expect(c.matched.length + unmatched('backtest')).toBe(c.backtest.fills);
    expect(c.live.fills).toBe(p.journal.fills.length);
    expect(c.backtest.fills).toBe(p.backtest.results.fills.length);
    expect(Object.values(c.causes).reduce((a, b) => a + b, 0)).toBe(c.unmatched.length);
    expect(new Set(c.matched.map((m) => m.live))).toHaveProperty('size', c.matched.length);
    expect(new Set(c.matched.map((m) => m.backtest))).toHaveProperty('size', c.matched.length);

    // Matched fills agree in side and quantity, within 1 s; a price difference is what the report says.
    for (const m of c.matched) {
      expect(m.backtest.side).toBe(m.live.side);
      expect(new Decimal(m.backtest.qty).eq(m.live.qty)).toBe(true);
      expect(Math.abs(m.backtest.time - m.live.time)).toBeLessThanOrEqual(1000);
      expect(new Decimal(m.backtest.price).minus(m.live.price).eq(m.priceDiff)).toBe(true);
    }
    // Every unmatched fill has a cause and says what the other run did.
    for (const u of c.unmatched) {
      expect(['queue', 'latency', 'own-impact', 'diverged']).toContain(u.cause);
      expect(u.detail.length).toBeGreaterThan(20);
    }

    // The bot's own orders are out of the public book: each level of each push is the recorded size less
    // at most the bot's open quotes, never below zero, and some size was taken out.
    const raw = await depthPushes(p.dirs.recording);
    const pub = await depthPushes(p.dirs.publicBook, [join(p.dirs.publicBook, 'market-public.jsonl.gz')]);
    expect(pub.length).toBe(raw.length);
    let removed = new Decimal(0);
    raw.forEach((r, k) => {
      const q = pub[k]!;
      expect(q.t).toBe(r.t);
      expect([...q.levels.keys()]).toEqual([...r.levels.keys()]);
      for (const [key, size] of r.levels) {
        const d = new Decimal(size).minus(q.levels.get(key)!);
        expect(d.isNegative()).toBe(false);
        expect(d.lte(new Decimal(QTY).times(MAX_OPEN))).toBe(true);
        expect(new Decimal(q.levels.get(key)!).isNegative()).toBe(false);
        removed = removed.plus(d);
      }
    });
    expect(removed.isPositive()).toBe(true);
    expect(removed.toFixed()).toBe(new Decimal(p.ownRemoval.removedQty).toFixed());
    // A level that held only the bot's quote (size equal to its own resting size) is empty in the public book.
    expect(p.ownRemoval.levelsAdjusted).toBeGreaterThan(0);

    // The files say the same as the report.
    const json = JSON.parse(readFileSync(join(out, 'parity.json'), 'utf8')) as { matched: number; unmatched: number; live: { fills: number }; report: string[] };
    expect(json.matched).toBe(c.matched.length);
    expect(json.unmatched).toBe(c.unmatched.length);
    expect(json.live.fills).toBe(c.live.fills);
    expect(json.report).toEqual(lines);
    expect(readFileSync(join(out, 'matched.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(c.matched.length + 1);
    expect(readFileSync(join(out, 'unmatched.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(c.unmatched.length + 1);
    expect(lines.some((l) => l.includes('orders placed'))).toBe(true);
    expect(gunzipSync(readFileSync(join(p.dirs.publicBook, 'market-public.jsonl.gz'))).length).toBeGreaterThan(0);
  }, 240_000);
});
