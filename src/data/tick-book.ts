/** The replay's book for depth batches: integer ticks → lots, kept by the live LocalBook's rules, one event per message. */
// The rules: versions, stale and late diffs, a crossed book is a gap, a bounded buffer while out of step.
// Each applied message is published as one DepthBatchEvent instead of a tuple and two strings per level.
import { depthBatchEvent, type DepthBatchEvent } from '../model/events.ts';
import { compareVersions, follows } from '../venue/local-book.ts';
import { SIDE } from './tables.ts';

/** One message's rows: side, price in ticks and quantity in lots, index for index. */
export interface BatchRows {
  readonly side: Int32Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
}

export interface TickBookOptions {
  readonly symbol: string;
  readonly tick: string;
  readonly lot: string;
  readonly contiguousVersions: boolean;
  readonly publish: (ev: DepthBatchEvent) => void;
  readonly onGap: (reason: string) => void;
  /** Publish the whole book after every applied diff too (default false). */
  readonly snapshotEveryUpdate?: boolean;
  /** Diffs kept while waiting for a snapshot (default 1000, as LocalBook; older ones are dropped). */
  readonly maxBuffered?: number;
}

const EMPTY = NaN;
/** Ticks behind a removed best that are looked up one by one before the whole side is scanned. */
const NEAR_TICKS = 64;
const GONE = -Infinity;

/**
 * One side's levels: price in ticks → lots in an open-addressing table of doubles (linear probing,
 * removed slots marked and swept on growth), a few times cheaper per change than a Map; the best
 * price is kept as levels change and rescanned only after the best goes.
 */
export class TickSide {
  private keys: Float64Array;
  private vals: Float64Array;
  private mask: number;
  /** Live levels, and slots used (live or removed): the table grows or sweeps at half full. */
  size = 0;
  private used = 0;
  private top = NaN;
  private stale = false;

  constructor(private readonly dir: 1 | -1, capacity = 1024) {
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.vals = new Float64Array(capacity);
    this.mask = capacity - 1;
  }

  /** Sets the level at `price` to `lots` (0 removes it); returns its lots before (0 when there was no level). */
  set(price: number, lots: number): number {
    const keys = this.keys;
    const mask = this.mask;
    let i = slotOf(price) & mask;
    let free = -1;
    for (;;) {
      const k = keys[i]!;
      if (k === price) {
        const prev = this.vals[i]!;
        if (lots === 0) {
          keys[i] = GONE;
          this.size -= 1;
          if (price === this.top) this.stale = true;
        } else this.vals[i] = lots;
        return prev;
      }
      if (k !== k) break; // EMPTY (NaN): the price is not here
      if (k === GONE && free < 0) free = i;
      i = (i + 1) & mask;
    }
    if (lots === 0) return 0;
    if (free >= 0) i = free;
    else this.used += 1;
    keys[i] = price;
    this.vals[i] = lots;
    this.size += 1;
    // While the best is gone every level lies behind the old best: one added ahead of it is the new best.
    if (Number.isNaN(this.top) || (this.dir > 0 ? price <= this.top : price >= this.top)) {
      this.top = price;
      this.stale = false;
    }
    if (this.used * 2 > keys.length) this.rehash(this.size * 4 > keys.length ? keys.length * 2 : keys.length);
    return 0;
  }

  /** Returns the lots at `price` (0 when there is no level). */
  get(price: number): number {
    const keys = this.keys;
    for (let i = slotOf(price) & this.mask; ; i = (i + 1) & this.mask) {
      const k = keys[i]!;
      if (k === price) return this.vals[i]!;
      if (k !== k) return 0;
    }
  }

  clear(): void {
    this.keys.fill(EMPTY);
    this.size = 0;
    this.used = 0;
    this.top = NaN;
    this.stale = false;
  }

  /** Returns the prices of the levels, in no order. */
  prices(): number[] {
    const out = new Array<number>(this.size);
    const keys = this.keys;
    let n = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k === k && k !== GONE) out[n++] = k;
    }
    out.length = n;
    return out;
  }

  /** Returns the slots of the table (a walk over them visits this many). */
  get capacity(): number {
    return this.keys.length;
  }

  /** Calls `fn` with the price of each level in [lo, hi], in no order. */
  each(lo: number, hi: number, fn: (price: number) => void): void {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      // EMPTY (NaN) and GONE (-Infinity) fail the range test.
      if (k >= lo && k <= hi) fn(k);
    }
  }

  /** Returns the best price, NaN when the side is empty (after the best went: the next tick behind it that holds a level, or a scan). */
  best(): number {
    if (this.stale) {
      this.stale = false;
      for (let k = 1; k <= NEAR_TICKS; k++) {
        const p = this.top + this.dir * k;
        if (this.get(p) !== 0) {
          this.top = p;
          return p;
        }
      }
      let top = NaN;
      const keys = this.keys;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (k === k && k !== GONE && (top !== top || (this.dir > 0 ? k < top : k > top))) top = k;
      }
      this.top = top;
    }
    return this.top;
  }

  private rehash(capacity: number): void {
    const keys = this.keys;
    const vals = this.vals;
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.vals = new Float64Array(capacity);
    this.mask = capacity - 1;
    this.used = 0;
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j]!;
      if (k !== k || k === GONE) continue;
      let i = slotOf(k) & this.mask;
      while (this.keys[i] === this.keys[i]) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.vals[i] = vals[j]!;
      this.used += 1;
    }
  }
}

/** Returns a well-mixed 32-bit hash of an integer price (prices of one book are close together). */
function slotOf(price: number): number {
  const h = Math.imul((price | 0) ^ Math.imul((price / 4294967296) | 0, 0x85ebca6b), 0x9e3779b1);
  return h ^ (h >>> 16);
}

interface Buffered {
  readonly version: string;
  readonly time: number;
  readonly recvTs: number;
  readonly rows: BatchRows;
}

/** A book for one symbol fed whole messages of rows; see the file comment. */
export class TickBook {
  private st: 'empty' | 'syncing' | 'synced' = 'empty';
  private readonly bids = new TickSide(-1);
  private readonly asks = new TickSide(1);
  private ver: string | undefined;
  private restTime = 0;
  private lastFrom: 'snapshot' | 'diff' = 'snapshot';
  private readonly buffer: Buffered[] = [];
  private readonly maxBuffered: number;

  constructor(private readonly o: TickBookOptions) {
    this.maxBuffered = o.maxBuffered ?? 1000;
  }

  get state(): 'empty' | 'syncing' | 'synced' {
    return this.st;
  }

  get version(): string | undefined {
    return this.ver;
  }

  /** Marks the book out of step (a gap in the recording); diffs are buffered until the next snapshot. */
  invalidate(): void {
    if (this.st !== 'empty') this.st = 'syncing';
  }

  /** Replaces the book with a snapshot message (`version` undefined for a REST snapshot), publishes it, and applies the buffered diffs newer than it. */
  applySnapshot(version: string | undefined, time: number, recvTs: number, rows: BatchRows): void {
    this.bids.clear();
    this.asks.clear();
    this.setRows(rows);
    this.ver = version;
    this.restTime = version === undefined ? time : 0;
    this.lastFrom = 'snapshot';
    this.st = 'synced';
    this.o.publish(this.batch(this.ver ?? `rest@${time}`, true, time, recvTs, rows));
    const waiting = this.buffer.splice(0);
    for (const w of waiting) {
      if (this.st !== 'synced') {
        this.buffer.push(w);
        continue;
      }
      this.applyDiff(w.version, w.time, w.recvTs, w.rows);
    }
  }

  /** Applies one diff message and publishes it; buffers it (copied) while out of step; reports a gap. */
  applyDiff(version: string, time: number, recvTs: number, rows: BatchRows): void {
    if (this.st !== 'synced') {
      this.buffer.push({ version, time, recvTs, rows: { side: rows.side.slice(), price: rows.price.slice(), qty: rows.qty.slice() } });
      if (this.buffer.length > this.maxBuffered) this.buffer.shift();
      return;
    }
    if (this.ver === undefined) {
      // On a REST snapshot (no version) a diff flushed before it is already inside it.
      if (time < this.restTime) return;
    } else {
      const c = compareVersions(version, this.ver);
      if (c <= 0) {
        if (c < 0 && this.lastFrom === 'diff') this.gap(`diff ${version} arrived after ${this.ver}`);
        return;
      }
      if (this.o.contiguousVersions && !follows(version, this.ver)) {
        this.gap(`diff ${version} does not follow ${this.ver}`);
        return;
      }
    }
    this.setRows(rows);
    this.ver = version;
    this.lastFrom = 'diff';
    const bb = this.bids.best();
    const ba = this.asks.best();
    if (bb >= ba) {
      this.gap(`crossed after ${version}: bid ${bb} ≥ ask ${ba} ticks`);
      return;
    }
    this.o.publish(this.batch(version, false, time, recvTs, rows));
    if (this.o.snapshotEveryUpdate) this.o.publish(this.batch(version, true, time, recvTs, this.whole()));
  }

  /** Returns the whole book as rows, bids best first then asks best first. */
  whole(): BatchRows {
    const b = this.bids.prices().sort((x, y) => y - x);
    const a = this.asks.prices().sort((x, y) => x - y);
    const n = b.length + a.length;
    const side = new Int32Array(n);
    const price = new Float64Array(n);
    const qty = new Float64Array(n);
    let i = 0;
    for (const p of b) {
      side[i] = SIDE.BID;
      price[i] = p;
      qty[i++] = this.bids.get(p);
    }
    for (const p of a) {
      side[i] = SIDE.ASK;
      price[i] = p;
      qty[i++] = this.asks.get(p);
    }
    return { side, price, qty };
  }

  /** Returns a batch event of `rows`. */
  batch(version: string, snapshot: boolean, time: number, recvTs: number, rows: BatchRows): DepthBatchEvent {
    return depthBatchEvent({
      symbol: this.o.symbol, version, snapshot, tick: this.o.tick, lot: this.o.lot, side: rows.side, price: rows.price, qty: rows.qty, ts: time, recvTs,
    });
  }

  private setRows(rows: BatchRows): void {
    const { side, price, qty } = rows;
    for (let i = 0; i < side.length; i++) {
      const s = side[i]!;
      if (s === SIDE.BID) this.bids.set(price[i]!, qty[i]!);
      else if (s === SIDE.ASK) this.asks.set(price[i]!, qty[i]!);
    }
  }

  private gap(reason: string): void {
    this.st = 'syncing';
    this.o.onGap(reason);
  }
}
