// The market recorder against the simulated venue's real server on a virtual clock: depth and trade frames of each symbol as sent,
// a diffDepth gap forced by the venue's fault marked and followed by a REST snapshot, a contract's index recorded on its index symbol, a reconnect marked and followed by snapshots.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MarketRecorder } from '../../../src/data/capture/recorder.ts';
import { CaptureReader } from '../../../src/data/capture/reader.ts';
import type { CaptureRecord } from '../../../src/data/capture/line-format.ts';
import { limit, setFaults, startVenueOnClock, until, type Venue } from '../../venue/streams/helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'bhtrade-recorder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let v: Venue | undefined;
let rec: MarketRecorder | undefined;
afterEach(async () => {
  await rec?.stop();
  await v?.close();
  rec = undefined;
  v = undefined;
});

function recorder(venue: Venue, dir: string, symbols: string[], virtualNs = false, topics = ['diffDepth', 'trade']): MarketRecorder {
  return new MarketRecorder({
    restUrl: venue.url, wsUrl: venue.ws, clock: venue.clock, dir, symbols,
    topics, rotateBytes: 64 * 1024 * 1024, hourly: true, snapshotDepth: 100, diffVersions: 'contiguous',
    // Receive times from the virtual clock, where a test checks times against the venue's cadences.
    ...(virtualNs ? { nanos: () => BigInt(venue.clock.now()) * 1_000_000n } : {}),
  });
}

async function readBack(files: readonly string[]): Promise<CaptureRecord[]> {
  const reader = new CaptureReader(files);
  const out: CaptureRecord[] = [];
  for await (const r of reader.records()) out.push(r);
  expect(reader.issues).toEqual([]);
  return out;
}

interface Frame { symbol: string; topic: string; f: boolean; data: { v?: string; p?: string; q?: string; b?: string[][]; a?: string[][] }[] }
const parsed = (r: CaptureRecord): Frame => JSON.parse(r.frame) as Frame;

describe('MarketRecorder on the simulated venue', () => {
  it('records depth and trade frames of each symbol, and marks a forced diffDepth gap followed by a REST snapshot', async () => {
    v = await startVenueOnClock();
    const venue = v;
    const dir = join(root, 'gap');
    rec = recorder(venue, dir, ['ETHBTC', 'BTC-PERP-REV']);
    await rec.start();
    const r = rec;
    // The first push of each subscription: diffDepth and trade for two symbols.
    await until(venue.clock, 'first pushes', () => r.stats().frames >= 4);
    await limit(venue.maker, 'ETHBTC', 'SELL', '2', '0.05');
    await until(venue.clock, 'a diff', () => r.stats().frames >= 5);
    await limit(venue.taker, 'ETHBTC', 'BUY', '1.5', '0.05');
    await until(venue.clock, 'trade and diff', () => r.stats().frames >= 7);

    // The venue loses the next diff it sends: the one after it no longer follows.
    await setFaults(venue, { marketDiffDrop: { count: 1 } });
    await limit(venue.maker, 'ETHBTC', 'SELL', '1', '0.06');
    await until(venue.clock, 'the dropped diff is cut', () => venue.venue.server.faults.fired.marketDiffDrop === 1);
    await limit(venue.maker, 'ETHBTC', 'SELL', '1', '0.07');
    await until(venue.clock, 'snapshot after the gap', () => r.stats().snapshots === 1);
    expect(r.stats()).toMatchObject({ gaps: 1, reconnects: 0, snapshotFailures: 0 });
    await r.stop();

    const lines = await readBack(r.files());
    expect(lines.slice(0, 2).map((l) => l.marker)).toEqual(['session', 'instruments']);
    expect(JSON.parse(lines[0]!.frame)).toMatchObject({ format: 1, stream: 'market', symbols: ['ETHBTC', 'BTC-PERP-REV'], topics: ['diffDepth', 'trade'] });
    expect(JSON.parse(lines[1]!.frame)).toHaveProperty('symbols');
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.ns >= lines[i - 1]!.ns).toBe(true);

    const frames = lines.filter((l) => l.marker === undefined).map(parsed);
    for (const s of ['ETHBTC', 'BTC-PERP-REV']) {
      expect(frames.some((f) => f.symbol === s && f.topic === 'diffDepth' && f.f)).toBe(true);
      expect(frames.some((f) => f.symbol === s && f.topic === 'trade' && f.f)).toBe(true);
    }
    expect(frames.find((f) => f.topic === 'trade' && !f.f)?.data[0]).toMatchObject({ p: '0.05', q: '1.5' });
    const diffs = frames.filter((f) => f.symbol === 'ETHBTC' && f.topic === 'diffDepth' && !f.f);
    expect(diffs.length).toBeGreaterThanOrEqual(3);

    const gapAt = lines.findIndex((l) => l.marker === 'gap');
    const gap = JSON.parse(lines[gapAt]!.frame) as { symbol: string; after: string; got: string; reason: string };
    expect(gap).toMatchObject({ symbol: 'ETHBTC', reason: expect.stringContaining('does not follow') });
    // The gap is marked right after the frame that showed it (same receive time).
    expect(parsed(lines[gapAt - 1]!).data[0]!.v).toBe(gap.got);
    expect(lines[gapAt - 1]!.ns).toBe(lines[gapAt]!.ns);
    const snapAt = lines.findIndex((l) => l.marker === 'snapshot');
    expect(snapAt).toBeGreaterThan(gapAt);
    const snap = JSON.parse(lines[snapAt]!.frame) as { symbol: string; reason: string; requestNs: string; path: string; status: number; body: { asks: string[][]; bids: string[][] } };
    expect(snap).toMatchObject({ symbol: 'ETHBTC', reason: 'gap', status: 200, path: '/openapi/quote/v1/depth?symbol=ETHBTC&limit=100' });
    expect(BigInt(snap.requestNs) >= lines[gapAt]!.ns && BigInt(snap.requestNs) <= lines[snapAt]!.ns).toBe(true);
    // The book the REST answer holds: what is left of the three resting sells.
    expect(snap.body.asks).toEqual([['0.05', '0.5'], ['0.06', '1'], ['0.07', '1']]);
  });

  it('records a contract\'s index on the index\'s own symbol (the venue has no index topic for a contract), with no error frame', async () => {
    v = await startVenueOnClock();
    const venue = v;
    rec = recorder(venue, join(root, 'index'), ['BTC-SWAP-USDT'], false, ['trade', 'index']);
    await rec.start();
    const r = rec;
    expect(r.indexSymbols()).toEqual(['BTCUSDT']);
    venue.venue.backend.venue.setIndexPrice('BTCUSDT', '30000.5');
    await until(venue.clock, 'first pushes and an index', () => r.stats().frames >= 3);
    await r.stop();
    const frames = (await readBack(r.files())).filter((l) => l.marker === undefined).map((l) => JSON.parse(l.frame) as { symbol?: string; topic?: string; code?: string });
    expect(frames.filter((f) => f.code !== undefined)).toEqual([]);
    expect(frames.filter((f) => f.topic === 'index').every((f) => f.symbol === 'BTCUSDT')).toBe(true);
    expect(frames.some((f) => f.topic === 'index')).toBe(true);
    expect(frames.some((f) => f.topic === 'trade' && f.symbol === 'BTC-SWAP-USDT')).toBe(true);
  });

  it('marks a reconnect, resubscribes, and records a REST snapshot of every symbol (contracts from the contract path)', async () => {
    v = await startVenueOnClock();
    const venue = v;
    rec = recorder(venue, join(root, 'reconnect'), ['ETHBTC', 'BTC-PERP-REV']);
    await rec.start();
    const r = rec;
    await until(venue.clock, 'first pushes', () => r.stats().frames >= 4);
    r.drop();
    await until(venue.clock, 'snapshots after the reconnect', () => r.stats().snapshots === 2 && r.stats().frames >= 8);
    await r.stop();
    expect(r.stats()).toMatchObject({ reconnects: 1, gaps: 0 });
    const lines = await readBack(r.files());
    const at = lines.findIndex((l) => l.marker === 'reconnect');
    expect(JSON.parse(lines[at]!.frame)).toEqual({ attempt: 1 });
    const after = lines.slice(at + 1);
    const snaps = after.filter((l) => l.marker === 'snapshot').map((l) => JSON.parse(l.frame) as { symbol: string; reason: string; path: string; status: number });
    expect(snaps.map((s) => [s.symbol, s.reason, s.path.split('?')[0], s.status]).sort()).toEqual([
      ['BTC-PERP-REV', 'reconnect', '/openapi/quote/v1/contract/depth', 200],
      ['ETHBTC', 'reconnect', '/openapi/quote/v1/depth', 200],
    ]);
    const again = after.filter((l) => l.marker === undefined).map(parsed).filter((f) => f.f);
    expect(again.map((f) => `${f.symbol} ${f.topic}`).sort()).toEqual(['BTC-PERP-REV diffDepth', 'BTC-PERP-REV trade', 'ETHBTC diffDepth', 'ETHBTC trade']);
  });

  it('takes at most one REST snapshot per symbol a second however many gaps come, each gap still marked', async () => {
    v = await startVenueOnClock();
    const venue = v;
    rec = recorder(venue, join(root, 'storm'), ['ETHBTC'], true);
    await rec.start();
    const r = rec;
    await until(venue.clock, 'first pushes', () => r.stats().frames >= 2);
    // Every other diff is lost: a gap each 600 ms (two diff cadences), faster than one snapshot a second.
    let price = 500;
    for (let i = 0; i < 8; i++) {
      const fired = venue.venue.server.faults.fired.marketDiffDrop;
      await setFaults(venue, { marketDiffDrop: { count: 1 } });
      await limit(venue.maker, 'ETHBTC', 'SELL', '1', `0.${price++}`);
      await until(venue.clock, `diff ${i} lost`, () => venue.venue.server.faults.fired.marketDiffDrop > fired);
      const gaps = r.stats().gaps;
      await limit(venue.maker, 'ETHBTC', 'SELL', '1', `0.${price++}`);
      await until(venue.clock, `gap ${i}`, () => r.stats().gaps > gaps);
    }
    // The last gap's snapshot may be owed: it comes within the next second.
    await until(venue.clock, 'the owed snapshots', () => r.stats().pendingSnapshots === 0);
    await r.stop();
    const s = r.stats();
    expect(s.gaps).toBe(8);
    expect(s.snapshots).toBeLessThan(s.gaps);
    const lines = await readBack(r.files());
    expect(lines.filter((l) => l.marker === 'gap')).toHaveLength(s.gaps);
    const asked = lines.filter((l) => l.marker === 'snapshot').map((l) => BigInt((JSON.parse(l.frame) as { requestNs: string }).requestNs));
    expect(asked).toHaveLength(s.snapshots);
    for (let i = 1; i < asked.length; i++) expect(asked[i]! - asked[i - 1]! >= 1_000_000_000n).toBe(true);
    // Yet every gap has a snapshot asked at or after it.
    for (const g of lines.filter((l) => l.marker === 'gap')) expect(asked.some((a) => a >= g.ns)).toBe(true);
  });

  it('refuses a symbol the venue does not list, naming it, before writing anything', async () => {
    v = await startVenueOnClock();
    rec = recorder(v, join(root, 'unknown'), ['ETHBTC', 'DOGEUSDT']);
    await expect(rec.start()).rejects.toThrow(/record\.symbols: the venue lists no DOGEUSDT/);
    expect(rec.files()).toEqual([]);
  });
});
