/** A local order book per symbol, kept from snapshots and diffDepth updates with version checks, resynced from a snapshot on any gap. */
import type { Clock } from '../core/clock.ts';
import { ParseError } from '../core/errors.ts';
import { parseScaled, scaleOf, toUnits } from '../core/fixed.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import { depthSnapshotEvent, depthUpdateEvent } from '../model/events.ts';
import type { Level } from '../model/market.ts';
import { isRemoval, type DepthTick } from '../model/marketstream.ts';
import type { EventSink } from './ws-connection.ts';

// Invariants, checked or restored on every call:
// - levels are keyed by the integer price (units of the tick, or of the book's decimal scale), never by text;
// - a synced book only moves forward in version: a diff at or below the applied version is dropped when the
//   book was last set by a snapshot (it is already inside it), and is a gap when the book was last moved by a diff;
// - after every applied diff the book is uncrossed, else it is a gap;
// - while unsynced, diffs wait in a bounded buffer and those newer than the next snapshot are applied after it.

/** empty: never synced; syncing: waiting for a snapshot after a gap; synced: in step with the venue. */
export type BookState = 'empty' | 'syncing' | 'synced';

/** A snapshot as the socket (versioned) or REST (time only) gives it. */
export interface BookSnapshot {
  /** Absent for a REST snapshot, which carries no version. */
  readonly version?: string;
  readonly time: number;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/** One diffDepth element. */
export type BookDiff = Omit<DepthTick, 'symbol'>;

export interface LocalBookOptions {
  readonly symbol: string;
  readonly clock: Clock;
  readonly sink: EventSink;
  /** The instrument's tick; prices are keyed in its units. Without it, by the prices' own decimal scale. */
  readonly tick?: string;
  /** Called once per gap; the owner fetches a snapshot (socket or REST) and calls applySnapshot. */
  readonly onGap: (book: LocalBook, reason: string) => void;
  /** Diffs kept while waiting for a snapshot (default 1000; older ones are dropped). */
  readonly maxBuffered?: number;
  /** Publish a depthSnapshot of the whole book after every applied diff too, for conflating readers (default false). */
  readonly snapshotEveryUpdate?: boolean;
  /**
   * Whether each diff's version must be the previous one plus one (true by default, as the simulated venue numbers them);
   * set false for a venue whose versions only increase, where a lost diff then shows only as a crossed book or a late diff.
   */
  readonly contiguousVersions?: boolean;
  readonly log?: Logger;
}

/**
 * The integer prices of a message's levels in units of the book's tick, index for index with its bids and asks:
 * a caller that already holds prices in ticks (a replay) passes them so the book need not parse the text.
 * The book reads them during the call only (it copies those of a diff it buffers), so a caller may reuse its arrays.
 */
export interface LevelKeys {
  readonly bids: ArrayLike<number>;
  readonly asks: ArrayLike<number>;
}

/** What the book counted. */
export interface BookStats {
  readonly snapshots: number;
  readonly applied: number;
  readonly stale: number;
  readonly gaps: number;
  readonly buffered: number;
}

/**
 * One side's levels by integer price, with the prices and their levels kept sorted best first as
 * levels come and go (a binary search and a move per new or removed price), so reading the book is a copy.
 */
class Side {
  readonly levels = new Map<number, Level>();
  /** Prices best first: ascending for asks, descending for bids. */
  private readonly keys: number[] = [];
  /** The level of each price in `keys`, index for index. */
  private readonly sorted: Level[] = [];

  /** dir 1: asks (lowest best); -1: bids (highest best). */
  constructor(readonly dir: 1 | -1) {}

  get(k: number): Level | undefined {
    return this.levels.get(k);
  }

  set(k: number, l: Level): void {
    const had = this.levels.has(k);
    this.levels.set(k, l);
    const i = this.find(k);
    if (had) this.sorted[i] = l;
    else {
      this.keys.splice(i, 0, k);
      this.sorted.splice(i, 0, l);
    }
  }

  delete(k: number): void {
    if (!this.levels.delete(k)) return;
    const i = this.find(k);
    this.keys.splice(i, 1);
    this.sorted.splice(i, 1);
  }

  clear(): void {
    this.levels.clear();
    this.keys.length = 0;
    this.sorted.length = 0;
  }

  /** Returns the best price, undefined when the side is empty. */
  best(): number | undefined {
    return this.keys[0];
  }

  /** Returns the best `n` levels, best first. */
  top(n: number): Level[] {
    return n >= this.sorted.length ? this.sorted.slice() : this.sorted.slice(0, n);
  }

  /** Returns the index where `k` is or would go. */
  private find(k: number): number {
    const a = this.keys;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((a[mid]! - k) * this.dir < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Returns -1, 0 or 1 comparing two venue versions such as "112801745_18" part by part as integers. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  // Parts are read in place (no split): one comparison per diff on the replay's hot path.
  let ia = 0;
  let ib = 0;
  while (ia <= a.length || ib <= b.length) {
    const ea = ia <= a.length ? partEnd(a, ia) : ia;
    const eb = ib <= b.length ? partEnd(b, ib) : ib;
    const x = ia <= a.length ? a.slice(ia, ea) : '';
    const y = ib <= b.length ? b.slice(ib, eb) : '';
    ia = ea + 1;
    ib = eb + 1;
    if (x === y) continue;
    if (isDigits(x) && isDigits(y)) {
      const nx = stripZeros(x);
      const ny = stripZeros(y);
      if (nx.length !== ny.length) return nx.length < ny.length ? -1 : 1;
      if (nx !== ny) return nx < ny ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Returns true when `next` is the version right after `prev`: first part one more, the other parts equal. */
export function follows(next: string, prev: string): boolean {
  const ne = partEnd(next, 0);
  const pe = partEnd(prev, 0);
  if (next.slice(ne + 1) !== prev.slice(pe + 1)) return false;
  const n = next.slice(0, ne);
  const p = prev.slice(0, pe);
  if (!isDigits(n) || !isDigits(p)) return false;
  // Below 10^15 a number holds the value exactly; longer ones go through bigint.
  if (n.length < 16 && p.length < 16) return Number(n) === Number(p) + 1;
  return BigInt(n) === BigInt(p) + 1n;
}

/** Returns the index of the "_" ending the part that starts at `from`, or the string's length. */
function partEnd(s: string, from: number): number {
  const i = s.indexOf('_', from);
  return i < 0 ? s.length : i;
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Drops leading zeros, keeping the last digit. */
function stripZeros(s: string): string {
  let k = 0;
  while (k < s.length - 1 && s.charCodeAt(k) === 48) k += 1;
  return k === 0 ? s : s.slice(k);
}

/** A book for one symbol; read it with bids()/asks(), or follow its depthSnapshot/depthUpdate events. */
export class LocalBook {
  readonly symbol: string;
  private st: BookState = 'empty';
  private readonly bidsMap = new Side(-1);
  private readonly asksMap = new Side(1);
  private ver: string | undefined;
  /** The time of the REST snapshot the book rests on while it has no version. */
  private restTime = 0;
  private lastFrom: 'snapshot' | 'diff' = 'snapshot';
  private readonly buffer: { diff: BookDiff; recvTs: number; keys: LevelKeys | undefined }[] = [];
  private scale: number;
  private readonly tick: string | undefined;
  private readonly maxBuffered: number;
  private readonly log: Logger;
  private counts = { snapshots: 0, applied: 0, stale: 0, gaps: 0 };

  constructor(private readonly o: LocalBookOptions) {
    this.symbol = o.symbol;
    this.tick = o.tick;
    this.scale = o.tick === undefined ? 0 : scaleOf(o.tick, 'tick');
    this.maxBuffered = o.maxBuffered ?? 1000;
    this.log = o.log ?? silentLogger();
  }

  /** Returns the book's state. */
  get state(): BookState {
    return this.st;
  }

  /** Returns the version the book is at (undefined before the first versioned update). */
  get version(): string | undefined {
    return this.ver;
  }

  /** Returns the book's counters. */
  stats(): BookStats {
    return { ...this.counts, buffered: this.buffer.length };
  }

  /** Returns the best `n` bids, best first (all when n is absent). */
  bids(n = Infinity): Level[] {
    return this.bidsMap.top(n);
  }

  /** Returns the best `n` asks, best first (all when n is absent). */
  asks(n = Infinity): Level[] {
    return this.asksMap.top(n);
  }

  /** Marks the book out of step (a reconnect, a resync asked from outside); diffs are buffered until the next snapshot. */
  invalidate(reason: string): void {
    if (this.st === 'synced') this.log.info({ symbol: this.symbol, reason }, 'book out of step; waiting for a snapshot');
    if (this.st !== 'empty') this.st = 'syncing';
  }

  /**
   * Replaces the book with a snapshot, applies the buffered diffs newer than it, and publishes the book.
   * `keys`, only for a book with a tick, are the levels' prices in ticks (see LevelKeys).
   */
  applySnapshot(s: BookSnapshot, recvTs: number, keys?: LevelKeys): void {
    this.bidsMap.clear();
    this.asksMap.clear();
    const k = this.tick === undefined ? undefined : keys;
    for (let i = 0; i < s.bids.length; i++) this.setLevel(this.bidsMap, s.bids[i]!, k?.bids[i]);
    for (let i = 0; i < s.asks.length; i++) this.setLevel(this.asksMap, s.asks[i]!, k?.asks[i]);
    this.ver = s.version;
    this.restTime = s.version === undefined ? s.time : 0;
    this.lastFrom = 'snapshot';
    this.st = 'synced';
    this.counts.snapshots += 1;
    this.publishSnapshot(s.time, recvTs);
    const waiting = this.buffer.splice(0);
    for (const w of waiting) {
      if (this.st !== 'synced') {
        this.buffer.push(w);
        continue;
      }
      this.applyDiff(w.diff, w.recvTs, w.keys);
    }
  }

  /**
   * Applies one diff (quantity "0" removes a level) and publishes it; buffers it while unsynced; reports a gap.
   * `keys`, only for a book with a tick, are the levels' prices in ticks (see LevelKeys).
   */
  applyDiff(d: BookDiff, recvTs: number, keys?: LevelKeys): void {
    if (this.st !== 'synced') {
      const kept = keys === undefined ? undefined : { bids: Array.from(keys.bids), asks: Array.from(keys.asks) };
      this.buffer.push({ diff: d, recvTs, keys: kept });
      if (this.buffer.length > this.maxBuffered) this.buffer.shift();
      return;
    }
    if (this.ver === undefined) {
      // On a REST snapshot (no version) a diff flushed before it is already inside it; later ones apply.
      if (d.time < this.restTime) {
        this.counts.stale += 1;
        return;
      }
    } else {
      const c = compareVersions(d.version, this.ver);
      if (c <= 0) {
        // Behind a diff is out of order (something between was lost); behind a snapshot is already in it.
        if (c < 0 && this.lastFrom === 'diff') {
          // The late diff itself is not kept: it was sent before the one applied, so any snapshot holds it.
          this.gap(`diff ${d.version} arrived after ${this.ver}`);
          return;
        }
        this.counts.stale += 1;
        return;
      }
      if (this.o.contiguousVersions !== false && !follows(d.version, this.ver)) {
        // Diffs of one book are numbered one by one: a diff further on means one was lost.
        this.gap(`diff ${d.version} does not follow ${this.ver}`);
        return;
      }
    }
    try {
      const k = this.tick === undefined ? undefined : keys;
      for (let i = 0; i < d.bids.length; i++) this.setLevel(this.bidsMap, d.bids[i]!, k?.bids[i]);
      for (let i = 0; i < d.asks.length; i++) this.setLevel(this.asksMap, d.asks[i]!, k?.asks[i]);
    } catch (err) {
      this.gap(`unreadable level: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.ver = d.version;
    this.lastFrom = 'diff';
    this.counts.applied += 1;
    const bb = this.bidsMap.best();
    const ba = this.asksMap.best();
    if (bb !== undefined && ba !== undefined && bb >= ba) {
      this.gap(`crossed after ${d.version}: bid ${this.bidsMap.get(bb)![0]} ≥ ask ${this.asksMap.get(ba)![0]}`);
      return;
    }
    this.o.sink(depthUpdateEvent({ symbol: this.symbol, version: d.version, bids: d.bids, asks: d.asks, ts: d.time, recvTs }));
    if (this.o.snapshotEveryUpdate) this.publishSnapshot(d.time, recvTs);
  }

  private gap(reason: string): void {
    this.counts.gaps += 1;
    this.st = 'syncing';
    this.log.warn({ symbol: this.symbol, reason }, 'book gap; resyncing from a snapshot');
    this.o.onGap(this, reason);
  }

  private publishSnapshot(ts: number, recvTs: number): void {
    this.o.sink(depthSnapshotEvent({ symbol: this.symbol, version: this.ver ?? `rest@${ts}`, bids: this.bids(), asks: this.asks(), ts, recvTs }));
  }

  private setLevel(side: Side, l: Level, known: number | undefined): void {
    const key = known ?? this.keyOf(l[0]);
    if (isRemoval(l)) side.delete(key);
    else side.set(key, l);
  }

  private keyOf(price: string): number {
    if (this.tick !== undefined) return toUnits(price, this.tick, 'price');
    const s = scaleOf(price, 'price');
    if (s > this.scale) this.rescale(s);
    const v = parseScaled(price, this.scale, 'price');
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ParseError('price', `is too large to key exactly: ${price}`);
    return Number(v);
  }

  /** A price with more decimals than any before: every key is multiplied up to the new scale. */
  private rescale(to: number): void {
    const f = 10 ** (to - this.scale);
    for (const side of [this.bidsMap, this.asksMap]) {
      const entries = [...side.levels];
      side.clear();
      for (const [k, l] of entries) side.set(k * f, l);
    }
    this.scale = to;
  }
}
