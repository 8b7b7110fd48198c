// The runner reads books as integer batches: strategies still get exactly the live client's depth events, and the exchange exactly the level changes it got from text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { CatalogWriter, readCatalog } from '../../../src/data/catalog.ts';
import { VERSION_SUFFIX_KEY } from '../../../src/data/import-bhtrade.ts';
import { replay } from '../../../src/data/replay.ts';
import { ConvertReport } from '../../../src/data/report.ts';
import { BOOK_FLAG, SIDE } from '../../../src/data/tables.ts';
import { drive } from '../../../src/backtest/run/drive.ts';
import { simInstrumentOf } from '../../../src/backtest/run/instruments.ts';
import { batchScale, recordBatch, recordBook, type RecordedSink } from '../../../src/backtest/run/replayed.ts';
import { RecordedBook } from '../../../src/backtest/index.ts';
import type { BookSide } from '../../../src/backtest/exchange/types.ts';
import type { BusEvent } from '../../../src/model/index.ts';

const SAMPLES = resolve(import.meta.dirname, '../../../backtest/data/binance-samples');
const MS = 1_000_000n;
const T0 = 1_723_161_600_000n * MS;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A hand-made book: a REST snapshot, a diff setting one price twice and removing a level that is not
 * there, a diff removing the best bid, a gap (the book waits for the next snapshot, a diff meanwhile
 * is held), a socket snapshot, then diffs that cross the level the held diff touched.
 */
function edgeCatalog(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-batches-'));
  dirs.push(dir);
  const cat = new CatalogWriter(dir, new ConvertReport());
  cat.instrument({ symbol: 'BTCUSDT', kind: 'spot', tick: '0.01', lot: '0.001', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: true });
  const meta = { [VERSION_SUFFIX_KEY]: '1' };
  const row = (ms: bigint, side: number, price: bigint, qty: bigint, flags: number, seq: bigint): void => {
    cat.row('book_deltas', 'BTCUSDT', [T0 + ms * MS, T0 + ms * MS + 3n * MS, side, price, qty, flags, seq], meta);
  };
  row(0n, SIDE.BID, 10_000n, 5_000n, BOOK_FLAG.SNAPSHOT | BOOK_FLAG.REST, 0n);
  row(0n, SIDE.BID, 9_998n, 1_500n, BOOK_FLAG.SNAPSHOT | BOOK_FLAG.REST, 0n);
  row(0n, SIDE.ASK, 10_003n, 2_000n, BOOK_FLAG.SNAPSHOT | BOOK_FLAG.REST, 0n);
  row(0n, SIDE.ASK, 10_001n, 7_000n, BOOK_FLAG.SNAPSHOT | BOOK_FLAG.REST | BOOK_FLAG.LAST, 0n);
  row(100n, SIDE.BID, 9_999n, 1_000n, 0, 11n);
  row(100n, SIDE.BID, 9_999n, 2_250n, 0, 11n);
  row(100n, SIDE.ASK, 10_007n, 0n, 0, 11n);
  row(100n, SIDE.ASK, 10_002n, 4_000n, BOOK_FLAG.LAST, 11n);
  row(200n, SIDE.BID, 10_000n, 0n, BOOK_FLAG.LAST, 12n);
  row(300n, SIDE.ASK, 10_004n, 1_000n, BOOK_FLAG.GAP | BOOK_FLAG.LAST, 14n);
  row(400n, SIDE.BID, 9_997n, 3_000n, BOOK_FLAG.SNAPSHOT, 13n);
  row(400n, SIDE.ASK, 10_005n, 6_000n, BOOK_FLAG.SNAPSHOT | BOOK_FLAG.LAST, 13n);
  row(500n, SIDE.BID, 9_998n, 8_000n, 0, 15n);
  row(500n, SIDE.ASK, 10_004n, 0n, BOOK_FLAG.LAST, 15n);
  row(600n, SIDE.NONE, 0n, 0n, BOOK_FLAG.LAST, 16n);
  cat.finish([]);
  return dir;
}

/** Returns where a comparison stops: 20 s into the catalog's books (the sample's whole books make every comparison slow). */
function toOf(catalog: string): bigint {
  const first = readCatalog(catalog).files.filter((f) => f.table === 'book_deltas').map((f) => BigInt(f.firstNs));
  return first.reduce((a, b) => (b < a ? b : a)) + 20_000n * MS;
}

/** Returns the depth events a levels replay publishes (what the runner published before it read batches). */
async function levelEvents(catalog: string, symbols: string[], snapshotEveryUpdate: boolean, from?: bigint): Promise<BusEvent[]> {
  const out: BusEvent[] = [];
  await replay({
    catalog, symbols, tables: ['book_deltas'], snapshotEveryUpdate, ...(from === undefined ? {} : { from }), to: toOf(catalog),
    sink: (ev) => out.push(ev),
  });
  return out;
}

/** Returns the events the runner's loop publishes for the same books (no traded market). */
async function drivenEvents(catalog: string, symbols: string[], snapshotEveryUpdate: boolean, from?: bigint): Promise<BusEvent[]> {
  return (await drivenRun(catalog, symbols, snapshotEveryUpdate, from)).events;
}

/** Returns drivenEvents' events and the count of events that reached the bus it reported last. */
async function drivenRun(
  catalog: string, symbols: string[], snapshotEveryUpdate: boolean, from?: bigint, readsUpdates?: (symbol: string) => boolean, snapshotLevels?: (symbol: string) => number,
): Promise<{ events: BusEvent[]; counted: number }> {
  const events: BusEvent[] = [];
  let counted = 0;
  await drive({
    catalog, symbols, tables: ['book_deltas'], snapshotEveryUpdate, ...(from === undefined ? {} : { from }), to: toOf(catalog),
    clock: new VirtualClock(0), markets: new Map(), publish: (ev) => events.push(ev),
    ...(readsUpdates === undefined ? {} : { readsUpdates }),
    ...(snapshotLevels === undefined ? {} : { snapshotLevels }),
    onEvent: (n) => {
      counted = n;
    },
  });
  return { events, counted };
}

/** A sink that writes down every level change it is given. */
function tape(): RecordedSink & { calls: [BookSide, number, number][] } {
  const calls: [BookSide, number, number][] = [];
  return {
    calls,
    recordDepth: (side, priceTicks, lots) => calls.push([side, priceTicks, lots]),
    recordTrade: () => undefined,
  };
}

describe('books read as batches', () => {
  it('give strategies the live client\'s depth events, level for level, on the recorded Binance sample and on a hand-made book', async () => {
    for (const [catalog, symbols] of [[SAMPLES, ['BTCUSDT', 'BTCUSD-PERP']], [edgeCatalog(), ['BTCUSDT']]] as const) {
      for (const every of [false, true]) {
        const want = await levelEvents(catalog, [...symbols], every);
        expect(want.length).toBeGreaterThan(3);
        expect(await drivenEvents(catalog, [...symbols], every)).toEqual(want);
      }
    }
  });

  it('make no depthUpdate of a symbol nobody reads them of, and the same book snapshots', async () => {
    for (const [catalog, symbols] of [[SAMPLES, ['BTCUSDT', 'BTCUSD-PERP']], [edgeCatalog(), ['BTCUSDT']]] as const) {
      for (const every of [false, true]) {
        const all = await drivenRun(catalog, [...symbols], every);
        const some = await drivenRun(catalog, [...symbols], every, undefined, (symbol) => symbol !== 'BTCUSDT');
        expect(all.events.some((ev) => ev.kind === 'depthUpdate' && ev.symbol === 'BTCUSDT')).toBe(true);
        expect(some.events).toEqual(all.events.filter((ev) => !(ev.kind === 'depthUpdate' && ev.symbol === 'BTCUSDT')));
        // Each diff still counts as an event that reached the bus (progress and the run's event count do not change).
        expect(all.counted).toBe(all.events.length);
        expect(some.counted).toBe(all.counted);
      }
    }
  });

  it('show at most the snapshot topic\'s levels a side when capped: the best of the whole book, the diffs as they were', async () => {
    const cap = (symbol: string): number => (symbol === 'BTCUSDT' ? 100 : 40);
    for (const every of [false, true]) {
      const whole = (await drivenRun(SAMPLES, ['BTCUSDT', 'BTCUSD-PERP'], every)).events;
      const capped = (await drivenRun(SAMPLES, ['BTCUSDT', 'BTCUSD-PERP'], every, undefined, undefined, cap)).events;
      // The recorded books are deeper than the caps (else this would show nothing).
      expect(whole.some((ev) => ev.kind === 'depthSnapshot' && ev.symbol === 'BTCUSDT' && ev.bids.length > 100 && ev.asks.length > 100)).toBe(true);
      expect(whole.some((ev) => ev.kind === 'depthSnapshot' && ev.symbol === 'BTCUSD-PERP' && ev.bids.length > 40)).toBe(true);
      expect(capped).toEqual(whole.map((ev) => (ev.kind === 'depthSnapshot' ? { ...ev, bids: ev.bids.slice(0, cap(ev.symbol)), asks: ev.asks.slice(0, cap(ev.symbol)) } : ev)));
    }
  });

  it('show, capped at one level, a level that rises into view when the best goes, and the same best while only deeper levels change', async () => {
    const catalog = edgeCatalog();
    for (const every of [false, true]) {
      const whole = (await drivenRun(catalog, ['BTCUSDT'], every)).events;
      const capped = (await drivenRun(catalog, ['BTCUSDT'], every, undefined, undefined, () => 1)).events;
      expect(capped).toEqual(whole.map((ev) => (ev.kind === 'depthSnapshot' ? { ...ev, bids: ev.bids.slice(0, 1), asks: ev.asks.slice(0, 1) } : ev)));
      if (!every) continue;
      const bestBids = capped.flatMap((ev) => (ev.kind === 'depthSnapshot' ? [ev.bids.map(([p]) => p).join(',')] : []));
      // 100 through the diff at 100 ms, which set 99.99 below the cap; the diff at 200 ms removes 100 and 99.99 shows.
      expect(bestBids.slice(0, 3)).toEqual(['100', '100', '99.99']);
    }
  });

  it('show a run that starts mid-book the warmed-up book first, as a levels replay does', async () => {
    const dir = edgeCatalog();
    const from = T0 + 150n * MS;
    const want = await levelEvents(dir, ['BTCUSDT'], true, from);
    expect(want[0]?.kind).toBe('depthSnapshot');
    expect(await drivenEvents(dir, ['BTCUSDT'], true, from)).toEqual(want);
  });

  it('change the exchange\'s book in the order and by the sizes the text did', async () => {
    for (const [catalog, symbol] of [[SAMPLES, 'BTCUSDT'], [SAMPLES, 'BTCUSD-PERP'], [edgeCatalog(), 'BTCUSDT']] as const) {
      const index = readCatalog(catalog);
      const inst = simInstrumentOf(index.instruments[symbol]!);
      const fromText = tape();
      const textBook = new RecordedBook();
      const fromBatches = tape();
      const batchBook = new RecordedBook();
      // The runner applies a snapshot published beside its diff once (its version was just applied).
      let lastText: string | undefined;
      await replay({
        catalog, symbols: [symbol], tables: ['book_deltas'], snapshotEveryUpdate: true,
        sink: (ev) => {
          if (ev.kind !== 'depthSnapshot' && ev.kind !== 'depthUpdate') return;
          if (ev.kind === 'depthSnapshot' && ev.version === lastText) return;
          lastText = ev.version;
          recordBook(ev, inst, (s) => textBook.levels(s), both(fromText, textBook));
        },
      });
      await replay({
        catalog, symbols: [symbol], tables: ['book_deltas'], depth: 'batches',
        sink: (ev) => {
          if (ev.kind === 'depthBatch') recordBatch(ev, batchScale(inst, ev.tick, ev.lot), (s) => batchBook.levels(s), both(fromBatches, batchBook));
        },
      });
      expect(fromText.calls.length).toBeGreaterThan(3);
      expect(fromBatches.calls).toEqual(fromText.calls);
      for (const s of [0, 1] as const) expect(batchBook.levels(s)).toEqual(textBook.levels(s));
    }
  });
});

/** Returns a sink that writes the change down and applies it to `book`. */
function both(t: ReturnType<typeof tape>, book: RecordedBook): RecordedSink {
  return {
    recordDepth: (side, p, lots) => {
      t.recordDepth(side, p, lots);
      book.setLevel(side, p, lots);
    },
    recordTrade: () => undefined,
  };
}
