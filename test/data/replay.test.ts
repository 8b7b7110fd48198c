// Replay merges tables and symbols in local-time order with a fixed tie order, honours a time range, and reads files a row group at a time.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetReadObjects, parquetSchema } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/data/convert.ts';
import { readCatalog } from '../../src/data/catalog.ts';
import { TableFileReader } from '../../src/data/parquet.ts';
import { replay } from '../../src/data/replay.ts';
import { StepFormatter } from '../../src/data/instruments.ts';
import { SIDE } from '../../src/data/tables.ts';
import type { BusEvent, DepthSnapshotEvent } from '../../src/model/events.ts';
import type { Level } from '../../src/model/market.ts';
import { collect, CM_RAW, sampleMapping, SPOT_RAW, tempDir } from './helpers.ts';

let dir = '';
let remove: () => void = () => {};
let all: BusEvent[] = [];

beforeAll(async () => {
  ({ dir, remove } = tempDir());
  await convert({ inputs: [SPOT_RAW, CM_RAW], out: dir, mapping: sampleMapping() });
  all = (await collect({ catalog: dir })).events;
});
afterAll(() => remove());

describe('replay of a catalog', () => {
  it('publishes trades of both symbols merged in receive-time order, and depth events only from the books', () => {
    const trades = all.filter((e) => e.kind === 'trade');
    expect(new Set(trades.map((t) => t.symbol))).toEqual(new Set(['BTCUSDT', 'BTCUSD-PERP']));
    for (let i = 1; i < trades.length; i++) expect(trades[i]!.recvTs).toBeGreaterThanOrEqual(trades[i - 1]!.recvTs);
    expect(new Set(all.map((e) => e.kind))).toEqual(new Set(['trade', 'depthSnapshot', 'depthUpdate']));
    // Buffered diffs that arrived before the REST snapshot are published right after it, as the live book does; all else is in order.
    let back = 0;
    for (let i = 1; i < all.length; i++) if (all[i]!.recvTs < all[i - 1]!.recvTs) back += 1;
    expect(back).toBeLessThanOrEqual(2);
  });

  it('is the same sequence on every run (a fixed tie order), and for a subset of symbols the same events of those symbols', async () => {
    const again = (await collect({ catalog: dir })).events;
    expect(again).toEqual(all);
    const spot = (await collect({ catalog: dir, symbols: ['BTCUSDT'] })).events;
    expect(spot).toEqual(all.filter((e) => 'symbol' in e && e.symbol === 'BTCUSDT'));
  });

  it('replays a time range: a warmed-up book shown once at the start, then the same events as the full replay', async () => {
    const trades = all.filter((e) => e.kind === 'trade');
    const fromMs = trades[Math.floor(trades.length / 3)]!.recvTs;
    const toMs = trades[Math.floor((2 * trades.length) / 3)]!.recvTs;
    const { events } = await collect({ catalog: dir, from: BigInt(fromMs) * 1_000_000n, to: BigInt(toMs) * 1_000_000n });
    for (const e of events) expect(e.recvTs >= fromMs && e.recvTs < toMs, `${e.kind} ${e.recvTs}`).toBe(true);
    const firstBook = (sym: string): BusEvent | undefined => events.find((e) => 'symbol' in e && e.symbol === sym && e.kind.startsWith('depth'));
    expect(firstBook('BTCUSDT')?.kind).toBe('depthSnapshot');
    expect(firstBook('BTCUSD-PERP')?.kind).toBe('depthSnapshot');
    const inRange = (e: BusEvent): boolean => e.recvTs >= fromMs && e.recvTs < toMs;
    expect(events.filter((e) => e.kind !== 'depthSnapshot')).toEqual(all.filter((e) => e.kind !== 'depthSnapshot' && inRange(e)));
  });

  it('shows each warmed-up book at the start of a range, as a subscriber gets it then, not at the book\'s next change', async () => {
    const trades = all.filter((e) => e.kind === 'trade');
    // One ms after a trade: the books' next changes come later, so before the fix a trade or nothing came first.
    const fromMs = trades[Math.floor(trades.length / 2)]!.recvTs + 1;
    const books = ['BTCUSD-PERP', 'BTCUSDT'];
    for (const depth of ['levels', 'batches'] as const) {
      const seen: [BusEvent, number, number][] = [];
      await replay({ catalog: dir, from: BigInt(fromMs) * 1_000_000n, depth, sink: (ev, localUs, exchangeUs) => seen.push([ev, localUs, exchangeUs]) });
      const first = seen.slice(0, 2);
      expect(first.map(([e]) => [e.kind, 'symbol' in e ? e.symbol : '', e.recvTs])).toEqual(books.map((s) => [depth === 'levels' ? 'depthSnapshot' : 'depthBatch', s, fromMs]));
      for (const [, localUs, exchangeUs] of first) expect([localUs, exchangeUs]).toEqual([fromMs * 1000, fromMs * 1000]);
      // The book each shows is the one the full replay had built by then.
      const full = (await collect({ catalog: dir, snapshotEveryUpdate: true })).events;
      for (const [k, s] of books.entries()) {
        const before = full.filter((e) => e.kind === 'depthSnapshot' && e.symbol === s && e.recvTs < fromMs).at(-1) as DepthSnapshotEvent;
        const shown = canonical(first[k]![0]) as { bids: Level[]; asks: Level[] };
        expect([shown.bids, shown.asks]).toEqual([before.bids, before.asks]);
      }
    }
  });

  it('refuses a symbol the catalog does not have, naming it and the ones it has', async () => {
    await expect(collect({ catalog: dir, symbols: ['BTCUSDT', 'ETHUSDT'] })).rejects.toThrow(/symbols: ETHUSDT not in the catalog .* \(it has BTCUSD-PERP, BTCUSDT\)/);
  });

  it('hands each event the exact µs receive and venue times of its row', async () => {
    const times: [BusEvent, number, number][] = [];
    await replay({ catalog: dir, symbols: ['BTCUSDT'], tables: ['trades'], sink: (ev, localUs, exchangeUs) => times.push([ev, localUs, exchangeUs]) });
    // The first trade: received at 1723161254087896568 ns, traded at T = 1723161255342 ms.
    expect(times[0]!.slice(1)).toEqual([1723161254087896, 1723161255342000]);
    for (const [ev, localUs, exchangeUs] of times) {
      expect(Math.floor(localUs / 1000)).toBe(ev.recvTs);
      expect(Math.floor(exchangeUs / 1000)).toBe(ev.ts);
    }
  });

  it('reads standard Parquet: typed int64 columns, the instrument in the metadata, and more than one row group where a file is large', async () => {
    const index = readCatalog(dir);
    const file = index.files.find((f) => f.table === 'trades' && f.symbol === 'BTCUSDT')!;
    const r = await TableFileReader.open(join(dir, file.path));
    const schema = parquetSchema(r.meta).children.map((c) => [c.element.name, c.element.type]);
    expect(schema).toEqual([['ts_event', 'INT64'], ['ts_local', 'INT64'], ['price', 'INT64'], ['qty', 'INT64'], ['aggressor', 'INT32'], ['trade_id', 'INT64']]);
    expect(JSON.parse(r.keyValues()['bhtrade.instrument']!)).toMatchObject({ symbol: 'BTCUSDT', tick: '0.01' });
    const [first] = await parquetReadObjects({ file: await (await import('hyparquet')).asyncBufferFromFile(join(dir, file.path)), rowEnd: 1 });
    // The first trade of the recording: {"t":3735683259,"p":"61837.63000000","q":"0.02000000","T":1723161255342,"m":true}.
    expect(first).toEqual({ ts_event: 1723161255342000000n, ts_local: 1723161254087896568n, price: 6183763n, qty: 2000000n, aggressor: 2, trade_id: 3735683259n });
    const big = index.files.find((f) => f.table === 'book_deltas' && f.symbol === 'BTCUSD-PERP')!;
    expect((await TableFileReader.open(join(dir, big.path))).groupRows().length).toBeGreaterThan(1);
  });

  it('in batch mode carries exactly the level changes, versions and times of the depth events, under the same book rules', async () => {
    const trades = all.filter((e) => e.kind === 'trade');
    const from = BigInt(trades[Math.floor(trades.length / 3)]!.recvTs) * 1_000_000n;
    // A fresh catalog (pages decoded by pages.ts), part of it (a warmed-up book), and the committed one (written with dictionaries, read by hyparquet).
    for (const o of [{ catalog: dir }, { catalog: dir, from }, { catalog: SAMPLES, symbols: ['BTCUSDT', 'BTCUSD-PERP'] }]) {
      const levels = (await collect(o)).events;
      const { events, stats } = await collect({ ...o, depth: 'batches' });
      expect(events.some((e) => e.kind === 'depthBatch')).toBe(true);
      expect(events.map(canonical)).toEqual(levels.map(canonical));
      expect(stats.bookGaps).toBe(0);
    }
  });
});

const SAMPLES = fileURLToPath(new URL('../../backtest/data/binance-samples/', import.meta.url));

/** Returns a depth event (levels or batch) as the level strings a subscriber reads: a snapshot as its whole book best first, a diff in message order. */
function canonical(e: BusEvent): unknown {
  if (e.kind === 'depthSnapshot' || e.kind === 'depthUpdate') {
    return { symbol: e.symbol, snapshot: e.kind === 'depthSnapshot', version: e.version, ts: e.ts, recvTs: e.recvTs, bids: e.bids, asks: e.asks };
  }
  if (e.kind !== 'depthBatch') return e;
  const price = new StepFormatter(e.tick);
  const qty = new StepFormatter(e.lot);
  const side = (s: number, dir: number): Level[] => {
    let rows = [...e.side.keys()].filter((i) => e.side[i] === s);
    // A snapshot replaces the book: its zero rows are no levels, and the book lists its levels best first.
    if (e.snapshot) rows = rows.filter((i) => e.qty[i] !== 0).sort((a, b) => (e.price[a]! - e.price[b]!) * dir);
    return rows.map((i) => [price.format(e.price[i]!), qty.format(e.qty[i]!)]);
  };
  return { symbol: e.symbol, snapshot: e.snapshot, version: e.version, ts: e.ts, recvTs: e.recvTs, bids: side(SIDE.BID, -1), asks: side(SIDE.ASK, 1) };
}
