/** Replays a catalog: streams the files of a time range and symbols a row group at a time, merged in local-time order, into the live clients' bus events. */
import { join } from 'node:path';
import { VirtualClock } from '../core/clock.ts';
import { ParseError } from '../core/errors.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import {
  depthSnapshotEvent, fundingEvent, indexEvent, klineEvent, tickerEvent, tradeEvent, type BusEvent,
} from '../model/events.ts';
import type { KlineInterval } from '../model/enums.ts';
import type { Level } from '../model/market.ts';
import { LocalBook } from '../venue/local-book.ts';
import { KlineTracker } from '../venue/market-normalise.ts';
import { readCatalog, type CatalogFile, type CatalogIndex } from './catalog.ts';
import { readColumns, type ColumnSet } from './columns.ts';
import { VERSION_SUFFIX_KEY } from './import-bhtrade.ts';
import { StepFormatter, type Instrument } from './instruments.ts';
import { TableFileReader } from './parquet.ts';
import { TickBook, type BatchRows } from './tick-book.ts';
import { AGGRESSOR, BOOK_FLAG, KLINE_FLAG, SIDE, TABLES, type TableName } from './tables.ts';

// Order: by local time (ns), then by table in TABLES order, then by symbol in name order, then by
// position in the file. Memory: one decoded row group per (table, symbol) at a time, never a whole file.
// Books: each symbol's depth rows go through the live client's LocalBook, which publishes the
// depthSnapshot and depthUpdate events a live subscriber gets; a gap flag invalidates it as a lost diff would live.
// Speed: the book is handed each level's price in ticks beside its text (no parsing back), rows are
// emitted a run at a time in one loop, and decimal strings come from the StepFormatter caches. In batch mode
// (depth: 'batches') a message's rows go whole to a TickBook and out as typed-array views: no string per level.

export interface ReplayOptions {
  /** The catalog folder. */
  readonly catalog: string;
  /** Symbols to replay (all when absent). */
  readonly symbols?: readonly string[];
  /** Tables to replay (all when absent). */
  readonly tables?: readonly TableName[];
  /** Further symbols replayed for their index table alone (the index a replayed contract is marked at). */
  readonly indexOnly?: readonly string[];
  /** First local time (ns, inclusive); the book is warmed up from its day's first rows without publishing. */
  readonly from?: bigint;
  /** End local time (ns, exclusive). */
  readonly to?: bigint;
  /**
   * Receives each event with the exact times of the catalog row that produced it, in µs since the epoch:
   * `localUs` (receive time, the replay's clock) and `exchangeUs` (the venue's time); the event's own
   * `recvTs` and `ts` are the same in ms (a diff the book held until its snapshot keeps its own times).
   */
  readonly sink: (ev: BusEvent, localUs: number, exchangeUs: number) => void;
  /** Publish the whole book after every diff too, as the live client's option does (default false). */
  readonly snapshotEveryUpdate?: boolean;
  /**
   * How book messages reach the sink: 'levels' (default), the live client's depthSnapshot and depthUpdate
   * events with [price, qty] strings; 'batches', one DepthBatchEvent per message with the levels as typed
   * arrays of ticks and lots (the same level changes under the same book rules, several times faster).
   */
  readonly depth?: 'levels' | 'batches';
  /**
   * Asked between runs of rows; when it returns a promise the replay waits for it before reading on
   * (a consumer that works asynchronously, such as the backtest runner, bounds what it holds this way).
   */
  readonly pace?: () => Promise<void> | undefined;
  readonly log?: Logger;
}

/** What a replay published. */
export interface ReplayStats {
  /** Book level changes read (rows of book_deltas that name a level). */
  levels: number;
  trades: number;
  /** Bus events published, all kinds. */
  events: number;
  /** Gaps the local books found themselves (a lost diff, a crossed book). */
  bookGaps: number;
  /** Gaps the conversion found and flagged, each of which put its book out of step until the next snapshot. */
  recordedGaps: number;
}

interface Group {
  readonly n: number;
  readonly us: Float64Array;
  readonly sub: Uint16Array;
  /**
   * Publishes rows [from, to), all inside the replay's range (live) or all before it (only into the book's state);
   * a book row may only add to its message until the message's last row. A loop per run of rows, not a call per row.
   */
  emit(from: number, to: number, live: boolean): void;
}

/** Returns a Group's emit that publishes row by row (for the tables with few rows). */
function rowByRow(row: (i: number, live: boolean) => void): Group['emit'] {
  return (from, to, live) => {
    for (let i = from; i < to; i++) row(i, live);
  };
}

const COLUMNS_READ: Readonly<Record<TableName, readonly string[]>> = {
  book_deltas: ['ts_event', 'ts_local', 'side', 'price', 'qty', 'flags', 'sequence'],
  trades: ['ts_event', 'ts_local', 'price', 'qty', 'aggressor', 'trade_id'],
  klines: ['ts_event', 'ts_local', 'interval', 'open_time', 'open', 'high', 'low', 'close', 'volume', 'flags'],
  tickers: ['ts_event', 'ts_local', 'last', 'open', 'high', 'low', 'volume', 'quote_volume'],
  index: ['ts_event', 'ts_local', 'index', 'edp'],
  funding: ['ts_event', 'ts_local', 'rate', 'interval_start', 'interval_end'],
};

/** Returns an int64 value exactly as a decimal string (a number column holds NaN where it passed 2^53). */
function idText(num: Float64Array, cols: ColumnSet, name: string, i: number): string {
  const v = num[i]!;
  return Number.isNaN(v) ? String(cols.raw(name)[i]) : String(v);
}

/** The times of the row being replayed, read by every sink call. */
interface RowTimes {
  localUs: number;
  exchangeUs: number;
}

const REMOVAL_SLOTS = 1 << 12;

/** The per-symbol state a replay keeps: formatters, the local book, the kline tracker. */
class SymbolState {
  readonly price: StepFormatter;
  readonly qty: StepFormatter;
  readonly book: LocalBook;
  bids: Level[] = [];
  asks: Level[] = [];
  /** The prices of `bids` and `asks` in ticks, handed to the book so it never parses them back from text. */
  readonly ticks = { bids: [] as number[], asks: [] as number[] };
  /** Removal levels ([price, "0"]) of recent prices in ticks, a slot per price modulo the size: a level is immutable, so events share them. */
  private readonly removalTicks = new Float64Array(REMOVAL_SLOTS).fill(NaN);
  private readonly removals: Level[] = new Array<Level>(REMOVAL_SLOTS);
  /** Whether the book has been shown to the sink since the replay's start (a start mid-day shows it once). */
  shown = false;
  /** Publishes an event of this book even while muted (the warmed-up book). */
  private readonly out: (ev: BusEvent) => void;
  muted = false;
  /** The message being read carries a gap flag (set on its first row). */
  gapped = false;
  /** In batch mode: the book, the current group's rows, where the open message starts in them, and its rows from earlier groups. */
  readonly tickBook: TickBook | undefined;
  rows: (BatchRows & { n: number }) | undefined;
  msgStart = 0;
  carry = { side: [] as number[], price: [] as number[], qty: [] as number[] };

  constructor(readonly inst: Instrument, o: ReplayOptions, stats: ReplayStats, log: Logger, at: RowTimes) {
    this.price = new StepFormatter(inst.tick);
    this.qty = new StepFormatter(inst.lot);
    this.out = (ev) => {
      stats.events += 1;
      o.sink(ev, at.localUs, at.exchangeUs);
    };
    this.book = new LocalBook({
      symbol: inst.symbol, clock: new VirtualClock(0), tick: inst.tick, log,
      sink: (ev) => {
        if (this.muted) return;
        stats.events += 1;
        o.sink(ev, at.localUs, at.exchangeUs);
      },
      snapshotEveryUpdate: o.snapshotEveryUpdate,
      contiguousVersions: inst.contiguousVersions,
      // A recording cannot ask for a snapshot: the book waits for the next recorded one.
      onGap: () => {
        stats.bookGaps += 1;
      },
    });
    this.tickBook = o.depth !== 'batches' ? undefined : new TickBook({
      symbol: inst.symbol, tick: inst.tick, lot: inst.lot, contiguousVersions: inst.contiguousVersions,
      snapshotEveryUpdate: o.snapshotEveryUpdate,
      publish: (ev) => {
        if (this.muted) return;
        stats.events += 1;
        o.sink(ev, at.localUs, at.exchangeUs);
      },
      onGap: () => {
        stats.bookGaps += 1;
      },
    });
  }

  /**
   * Starts a book message: muted before the range, and the first one inside it shows the book warmed up
   * so far (none at the range's start: no book yet there), unless it is a snapshot itself.
   */
  enter(live: boolean, snapshot: boolean, version: string, ts: number, recvTs: number): void {
    this.muted = !live;
    if (!live || this.shown) return;
    if (!snapshot) this.show(version, ts, recvTs);
    this.shown = true;
  }

  /**
   * Shows the warmed-up book once, as a new live subscriber gets it (a replay that starts mid-day): the
   * book as it stands, stamped `ts` and `recvTs`; `version` stands in while the book rests on a REST snapshot.
   */
  show(version: string, ts: number, recvTs: number): void {
    if (this.shown) return;
    this.shown = true;
    const tb = this.tickBook;
    if (tb !== undefined) {
      if (tb.state === 'synced') this.out(tb.batch(tb.version ?? version, true, ts, recvTs, tb.whole()));
    } else if (this.book.state === 'synced') {
      this.out(depthSnapshotEvent({ symbol: this.inst.symbol, version: this.book.version ?? version, bids: this.book.bids(), asks: this.book.asks(), ts, recvTs }));
    }
  }

  /** Starts a group of book rows, keeping the rows of a message the previous group left open. */
  startRows(rows: BatchRows & { n: number }): void {
    const prev = this.rows;
    if (prev) {
      for (let i = this.msgStart; i < prev.n; i++) {
        this.carry.side.push(prev.side[i]!);
        this.carry.price.push(prev.price[i]!);
        this.carry.qty.push(prev.qty[i]!);
      }
    }
    this.rows = rows;
    this.msgStart = 0;
  }

  /** Returns the rows of the message ending at row `end` of the current group (views when it lies in this group alone). */
  takeMessage(end: number): BatchRows {
    const r = this.rows!;
    const from = this.msgStart;
    this.msgStart = end + 1;
    if (this.carry.side.length === 0) return { side: r.side.subarray(from, end + 1), price: r.price.subarray(from, end + 1), qty: r.qty.subarray(from, end + 1) };
    const c = this.carry;
    const out = {
      side: Int32Array.from([...c.side, ...r.side.subarray(from, end + 1)]),
      price: Float64Array.from([...c.price, ...r.price.subarray(from, end + 1)]),
      qty: Float64Array.from([...c.qty, ...r.qty.subarray(from, end + 1)]),
    };
    this.carry = { side: [], price: [], qty: [] };
    return out;
  }

  /** Returns the level of `ticks` with `lots` (one shared tuple per price for a removal). */
  level(ticks: number, lots: number): Level {
    if (lots !== 0) return [this.price.format(ticks), this.qty.format(lots)];
    const slot = ticks & (REMOVAL_SLOTS - 1);
    if (this.removalTicks[slot] === ticks) return this.removals[slot]!;
    const l: Level = [this.price.format(ticks), this.qty.format(0)];
    this.removalTicks[slot] = ticks;
    this.removals[slot] = l;
    return l;
  }
}

/** The files of one table and symbol, read a row group at a time. */
class Cursor {
  private fi = 0;
  private reader: TableFileReader | undefined;
  private gi = 0;
  group: Group | undefined;
  i = 0;

  constructor(
    readonly table: TableName,
    readonly rank: number,
    private readonly files: readonly string[],
    private readonly decode: (cols: ColumnSet, meta: Readonly<Record<string, string>>) => Group,
  ) {}

  /** Loads the next row group with rows; returns false when the files are exhausted. */
  async next(): Promise<boolean> {
    this.group = undefined;
    for (;;) {
      if (!this.reader) {
        if (this.fi >= this.files.length) return false;
        this.reader = await TableFileReader.open(this.files[this.fi++]!);
        this.gi = 0;
      }
      const sizes = this.reader.groupRows();
      if (this.gi >= sizes.length) {
        this.reader = undefined;
        continue;
      }
      const g = this.gi++;
      if (sizes[g] === 0) continue;
      const cols = await readColumns(this.reader, g, COLUMNS_READ[this.table]);
      this.group = this.decode(cols, this.reader.keyValues());
      this.i = 0;
      return true;
    }
  }
}

/** Streams the catalog into `o.sink`; resolves with what it published when the range is done. */
export async function replay(o: ReplayOptions): Promise<ReplayStats> {
  const index = readCatalog(o.catalog);
  const log = o.log ?? silentLogger();
  const stats: ReplayStats = { levels: 0, trades: 0, events: 0, bookGaps: 0, recordedGaps: 0 };
  const full = new Set(o.symbols ?? Object.keys(index.instruments));
  const symbols = [...new Set([...full, ...(o.indexOnly ?? [])])].sort();
  const unknown = symbols.filter((s) => index.instruments[s] === undefined);
  if (unknown.length > 0) {
    throw new ParseError('symbols', `${unknown.join(', ')} not in the catalog ${o.catalog} (it has ${Object.keys(index.instruments).sort().join(', ')})`);
  }
  const tables = TABLES.filter((t) => !o.tables || o.tables.includes(t));
  const fromUs = o.from === undefined ? -Infinity : Number(o.from / 1000n);
  const fromSub = o.from === undefined ? 0 : Number(o.from % 1000n);
  const toUs = o.to === undefined ? Infinity : Number(o.to / 1000n);
  const toSub = o.to === undefined ? 0 : Number(o.to % 1000n);
  const states = new Map<string, SymbolState>();
  const at: RowTimes = { localUs: 0, exchangeUs: 0 };
  const klines = new KlineTracker((ev) => {
    stats.events += 1;
    o.sink(ev, at.localUs, at.exchangeUs);
  });
  const cursors: Cursor[] = [];
  tables.forEach((table, ti) => {
    symbols.forEach((symbol, si) => {
      if (table !== 'index' && !full.has(symbol)) return;
      const inst = index.instruments[symbol]!;
      const files = filesOf(index, table, symbol, o.from, o.to).map((f) => join(o.catalog, f.path));
      if (files.length === 0) return;
      let st = states.get(symbol);
      if (!st) states.set(symbol, (st = new SymbolState(inst, o, stats, log, at)));
      const decode = decoderOf(table, st, o, stats, klines, at);
      cursors.push(new Cursor(table, ti * symbols.length + si, files, decode));
    });
  });
  const active: Cursor[] = [];
  for (const c of cursors) if (await c.next()) active.push(c);
  // A replay that starts mid-day shows each warmed-up book at its start, as a live subscriber gets the book when it
  // subscribes, not when the book next changes (a strategy started there would otherwise see no book until then).
  let warm = o.from !== undefined;
  const showWarmedUp = (): void => {
    warm = false;
    if (!(fromUs < toUs || (fromUs === toUs && fromSub < toSub))) return;
    at.localUs = fromUs;
    at.exchangeUs = fromUs;
    const ms = Math.floor(fromUs / 1000);
    for (const st of states.values()) st.show(`rest@${ms}`, ms, ms);
  };

  while (active.length > 0) {
    // The cursor with the earliest head runs until its head passes the second earliest (a run, not a row, per pick).
    let best = active[0]!;
    let bUs = best.group!.us[best.i]!;
    let bSub = best.group!.sub[best.i]!;
    for (let k = 1; k < active.length; k++) {
      const c = active[k]!;
      const us = c.group!.us[c.i]!;
      const sub = c.group!.sub[c.i]!;
      if (us < bUs || (us === bUs && (sub < bSub || (sub === bSub && c.rank < best.rank)))) {
        best = c;
        bUs = us;
        bSub = sub;
      }
    }
    let lUs = Infinity;
    let lSub = 0;
    let lRank = Infinity;
    for (const c of active) {
      if (c === best) continue;
      const us = c.group!.us[c.i]!;
      const sub = c.group!.sub[c.i]!;
      if (us < lUs || (us === lUs && (sub < lSub || (sub === lSub && c.rank < lRank)))) {
        lUs = us;
        lSub = sub;
        lRank = c.rank;
      }
    }
    // Every row before the start has been read once the earliest head is past it; until then a run stops at the start.
    if (warm && (bUs > fromUs || (bUs === fromUs && bSub >= fromSub))) showWarmedUp();
    if (warm && (fromUs < lUs || (fromUs === lUs && fromSub <= lSub))) {
      lUs = fromUs;
      lSub = fromSub;
      lRank = -1;
    }
    const ran = run(best, lUs, lSub, lRank, fromUs, fromSub, toUs, toSub);
    const stop = ran === 'exhausted' ? await runOn(best, lUs, lSub, lRank, fromUs, fromSub, toUs, toSub, o.pace) : ran === 'done';
    if (stop) active.splice(active.indexOf(best), 1);
    const wait = o.pace?.();
    if (wait) await wait;
  }
  if (warm) showWarmedUp();
  return stats;
}

/**
 * Publishes `c`'s rows of its current row group while they come before (us, sub, rank): 'done' when the
 * range ended, 'paused' when another cursor's head comes first, 'exhausted' when the group ran out (then
 * runOn loads the next). Synchronous: most runs end inside their group, without a promise per run.
 */
function run(
  c: Cursor, lUs: number, lSub: number, lRank: number, fromUs: number, fromSub: number, toUs: number, toSub: number,
): 'done' | 'paused' | 'exhausted' {
  const before = c.rank < lRank;
  const g = c.group!;
  const { us, sub, n } = g;
  // Rows go to emit in runs of the same liveness (inside the range or before it).
  let start = c.i;
  let live = start < n && (us[start]! > fromUs || (us[start] === fromUs && sub[start]! >= fromSub));
  let i = start;
  let end: 'done' | 'paused' | 'exhausted' = 'exhausted';
  for (; i < n; i++) {
    const u = us[i]!;
    if (u > toUs || (u === toUs && sub[i]! >= toSub)) {
      end = 'done';
      break;
    }
    if (u > lUs || (u === lUs && (sub[i]! > lSub || (sub[i] === lSub && !before)))) {
      end = 'paused';
      break;
    }
    const rowLive = u > fromUs || (u === fromUs && sub[i]! >= fromSub);
    if (rowLive !== live) {
      g.emit(start, i, live);
      start = i;
      live = rowLive;
    }
  }
  if (i > start) g.emit(start, i, live);
  c.i = i;
  return end;
}

/** Goes on with a run whose row group ran out: loads the cursor's next groups and runs them; returns true when the cursor is done (files or range). */
async function runOn(
  c: Cursor, lUs: number, lSub: number, lRank: number, fromUs: number, fromSub: number, toUs: number, toSub: number, pace: ReplayOptions['pace'],
): Promise<boolean> {
  for (;;) {
    const wait = pace?.();
    if (wait) await wait;
    if (!(await c.next())) return true;
    const end = run(c, lUs, lSub, lRank, fromUs, fromSub, toUs, toSub);
    if (end !== 'exhausted') return end === 'done';
  }
}

/** Returns the files of a table and symbol whose rows can fall in [from, to) (book files from the day of `from`, to warm the book up). */
function filesOf(index: CatalogIndex, table: TableName, symbol: string, from: bigint | undefined, to: bigint | undefined): CatalogFile[] {
  const dayNs = 86_400_000_000_000n;
  return index.files
    .filter((f) => f.table === table && f.symbol === symbol)
    .filter((f) => to === undefined || BigInt(f.firstNs) < to)
    .filter((f) => from === undefined || (table === 'book_deltas' ? BigInt(f.lastNs) >= (from / dayNs) * dayNs : BigInt(f.lastNs) >= from))
    .sort((a, b) => a.day.localeCompare(b.day));
}

/** The decoded columns of one group of book rows. */
interface BookColumns {
  readonly n: number;
  readonly us: Float64Array;
  readonly sub: Uint16Array;
  readonly evMs: Float64Array;
  readonly side: Int32Array;
  readonly flags: Int32Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly seq: Float64Array;
  readonly suffix: string;
}

/** Returns the Group of book rows in batch mode: each message goes whole to the TickBook, which publishes it as one DepthBatchEvent. */
function batchGroup(
  tb: TickBook, st: SymbolState, c: BookColumns, seqText: (i: number) => string, stats: ReplayStats,
  publish: (ev: BusEvent) => void, recvMs: (i: number) => number,
): Group {
  const { n, us, sub, evMs, side, flags, price, qty, suffix } = c;
  st.startRows({ side, price, qty, n });
  const message = (i: number, live: boolean): void => {
    const f = flags[i]!;
    const text = seqText(i);
    const version = suffix === '' ? text : `${text}_${suffix}`;
    const rows = st.takeMessage(i);
    st.enter(live, (f & BOOK_FLAG.SNAPSHOT) !== 0, version, evMs[i]!, recvMs(i));
    if (st.gapped) {
      st.gapped = false;
      stats.recordedGaps += 1;
      tb.invalidate();
    }
    if ((f & BOOK_FLAG.REST) !== 0) tb.applySnapshot(undefined, evMs[i]!, recvMs(i), rows);
    else if ((f & BOOK_FLAG.SNAPSHOT) !== 0) tb.applySnapshot(version, evMs[i]!, recvMs(i), rows);
    else tb.applyDiff(version, evMs[i]!, recvMs(i), rows);
  };
  return {
    n, us, sub,
    emit(from, to, live) {
      let levels = 0;
      for (let i = from; i < to; i++) {
        if (side[i] !== SIDE.NONE) {
          levels += 1;
          if (Number.isNaN(price[i]!) || Number.isNaN(qty[i]!)) {
            throw new ParseError('book_deltas', `row ${i} of a row group: price or qty beyond 2^53 ticks or lots cannot be batched; replay it as levels`);
          }
        }
        const f = flags[i]!;
        if ((f & BOOK_FLAG.GAP) !== 0) st.gapped = true;
        if ((f & BOOK_FLAG.LAST) !== 0) message(i, live);
      }
      stats.levels += levels;
    },
  };
}

function decoderOf(table: TableName, st: SymbolState, o: ReplayOptions, stats: ReplayStats, klines: KlineTracker, at: RowTimes) {
  const symbol = st.inst.symbol;
  const publish = (ev: BusEvent): void => {
    stats.events += 1;
    o.sink(ev, at.localUs, at.exchangeUs);
  };
  return (cols: ColumnSet, meta: Readonly<Record<string, string>>): Group => {
    const { us, sub } = cols.micros('ts_local');
    const n = us.length;
    const evUs = cols.micros('ts_event').us;
    const evMs = new Float64Array(n);
    for (let i = 0; i < n; i++) evMs[i] = Math.floor(evUs[i]! / 1000);
    const recvMs = (i: number): number => {
      at.localUs = us[i]!;
      at.exchangeUs = evUs[i]!;
      return Math.floor(us[i]! / 1000);
    };
    switch (table) {
      case 'book_deltas': {
        const side = cols.int32s('side');
        const flags = cols.int32s('flags');
        const price = cols.numbers('price');
        const qty = cols.numbers('qty');
        const seq = cols.numbers('sequence');
        const suffix = meta[VERSION_SUFFIX_KEY] ?? '';
        const tb = st.tickBook;
        if (tb) return batchGroup(tb, st, { n, us, sub, evMs, side, flags, price, qty, seq, suffix }, (i) => idText(seq, cols, 'sequence', i), stats, publish, recvMs);
        const ticks = st.ticks;
        const message = (i: number, live: boolean): void => {
          const f = flags[i]!;
          const seqText = idText(seq, cols, 'sequence', i);
          const version = suffix === '' ? seqText : `${seqText}_${suffix}`;
          const bids = st.bids;
          const asks = st.asks;
          st.bids = [];
          st.asks = [];
          st.enter(live, (f & BOOK_FLAG.SNAPSHOT) !== 0, version, evMs[i]!, recvMs(i));
          if (st.gapped) {
            st.gapped = false;
            stats.recordedGaps += 1;
            st.book.invalidate('a gap in the recording');
          }
          const keys = st.ticks;
          if ((f & BOOK_FLAG.REST) !== 0) st.book.applySnapshot({ time: evMs[i]!, bids, asks }, recvMs(i), keys);
          else if ((f & BOOK_FLAG.SNAPSHOT) !== 0) st.book.applySnapshot({ version, time: evMs[i]!, bids, asks }, recvMs(i), keys);
          else st.book.applyDiff({ time: evMs[i]!, version, bids, asks }, recvMs(i), keys);
          keys.bids.length = 0;
          keys.asks.length = 0;
        };
        return {
          n, us, sub,
          emit(from, to, live) {
            let levels = 0;
            for (let i = from; i < to; i++) {
              const s = side[i]!;
              if (s !== SIDE.NONE) {
                const p = price[i]!;
                const level = st.level(p, qty[i]!);
                if (s === SIDE.BID) {
                  st.bids.push(level);
                  ticks.bids.push(p);
                } else {
                  st.asks.push(level);
                  ticks.asks.push(p);
                }
                levels += 1;
              }
              const f = flags[i]!;
              if ((f & BOOK_FLAG.GAP) !== 0) st.gapped = true;
              if ((f & BOOK_FLAG.LAST) !== 0) message(i, live);
            }
            stats.levels += levels;
          },
        };
      }
      case 'trades': {
        const price = cols.numbers('price');
        const qty = cols.numbers('qty');
        const aggr = cols.int32s('aggressor');
        const id = cols.numbers('trade_id');
        return {
          n, us, sub,
          emit: rowByRow((i, live) => {
            if (!live) return;
            stats.trades += 1;
            publish(tradeEvent({
              symbol, tradeId: idText(id, cols, 'trade_id', i), price: st.price.format(price[i]!), qty: st.qty.format(qty[i]!),
              takerSide: aggr[i] === AGGRESSOR.BUY ? 'BUY' : 'SELL', ts: evMs[i]!, recvTs: recvMs(i),
            }));
          }),
        };
      }
      case 'klines': {
        const interval = cols.strings('interval') as readonly KlineInterval[];
        const openMs = cols.millis('open_time');
        const [op, hi, lo, cl] = (['open', 'high', 'low', 'close'] as const).map((k) => cols.numbers(k));
        const vol = cols.numbers('volume');
        const flags = cols.int32s('flags');
        return {
          n, us, sub,
          emit: rowByRow((i, live) => {
            if (!live) return;
            const candle = {
              openTime: openMs[i]!, open: st.price.format(op![i]!), high: st.price.format(hi![i]!), low: st.price.format(lo![i]!),
              close: st.price.format(cl![i]!), volume: st.qty.format(vol[i]!),
            };
            if ((flags[i]! & KLINE_FLAG.CLOSED) !== 0) publish(klineEvent({ symbol, interval: interval[i]!, ...candle, closed: true, ts: evMs[i]!, recvTs: recvMs(i) }));
            else klines.update(symbol, interval[i]!, candle, evMs[i]!, recvMs(i));
          }),
        };
      }
      case 'tickers': {
        const [last, op, hi, lo] = (['last', 'open', 'high', 'low'] as const).map((k) => cols.numbers(k));
        const vol = cols.numbers('volume');
        const qv = cols.strings('quote_volume');
        return {
          n, us, sub,
          emit: rowByRow((i, live) => {
            if (!live) return;
            publish(tickerEvent({
              symbol, last: st.price.format(last![i]!), open: st.price.format(op![i]!), high: st.price.format(hi![i]!), low: st.price.format(lo![i]!),
              volume: st.qty.format(vol[i]!), quoteVolume: qv[i] === '' ? undefined : qv[i], ts: evMs[i]!, recvTs: recvMs(i),
            }));
          }),
        };
      }
      case 'index': {
        const ix = cols.strings('index');
        const edp = cols.strings('edp');
        return {
          n, us, sub,
          emit: rowByRow((i, live) => {
            if (live) publish(indexEvent({ symbol, index: ix[i]!, edp: edp[i] === '' ? undefined : edp[i], ts: evMs[i]!, recvTs: recvMs(i) }));
          }),
        };
      }
      case 'funding': {
        const rate = cols.strings('rate');
        const start = cols.millis('interval_start');
        const end = cols.millis('interval_end');
        return {
          n, us, sub,
          emit: rowByRow((i, live) => {
            if (!live) return;
            publish(fundingEvent({
              symbol, rate: rate[i]!, intervalStart: start[i]!, intervalEnd: end[i]!, ts: evMs[i]!, recvTs: recvMs(i),
            }));
          }),
        };
      }
      default: {
        const never: never = table;
        throw new Error(`unknown table ${String(never)}`);
      }
    }
  };
}
