/**
 * Takes the bot's own resting orders out of a recorded public book, and its own taker trades out of the
 * recorded trades. A run's market capture shows the venue's depth, which held the bot's quotes, and its
 * trades, which held the bot's taker fills; a backtest lays the bot's orders over the recorded book again
 * and makes its taker fills itself, so they must first leave the recording, or the backtest would see
 * them twice (as others' size, and as others' trades taking liquidity). Own resting size by level and
 * venue time, and own taker trade ids, come from the run's own order reports.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { join } from 'node:path';
import { Decimal } from '../../core/fixed.ts';
import { CaptureReader, captureFiles } from '../../data/capture/index.ts';
import { frameLine, markerLine } from '../../data/capture/line-format.ts';
import type { OrderUpdateEvent } from '../../model/events.ts';
import { CLOCKS_APART_MS } from './stalls.ts';

/** One change of the bot's resting size at a level, at venue time `time`. */
export interface OwnChange {
  readonly time: number;
  readonly key: string;
  readonly delta: Decimal;
}

/** What the removal did: how many levels it lowered, and how often the recorded size was below the bot's own (set to zero). */
export interface OwnRemovalStats {
  /** Book levels (diff and snapshot entries) lowered by the bot's own size. */
  levelsAdjusted: number;
  /** Levels where the recorded size was less than the bot's resting size (ordering within one ms): set to zero. */
  levelsClamped: number;
  /** Total base quantity taken out, summed over adjusted entries. */
  removedQty: string;
  /** Market lines copied. */
  lines: number;
  /** Recorded trades taken out: the bot's own taker fills. */
  tradesRemoved: number;
  /** Book changes and trades the venue sent during a stall of the live run, held until the bot's late tick had fired (stalls.ts). */
  held: number;
  /** Frames stamped as read before the venue's time on them (the recorder's clock behind the venue's), moved to that time. */
  early: number;
  /** Trades replayed after the diff right after them: they filled the bot's quote, so the others ahead of it had gone (queue-evidence.ts). */
  queueEvidence: number;
  /** Frames read in the millisecond a strategy tick fired, sent before it was due: read before it (stalls.ts). */
  before: number;
}

export const keyOf = (symbol: string, side: 'b' | 'a', price: string): string => `${symbol}|${side}|${new Decimal(price).toFixed()}`;

/** Returns whether a report leaves the order resting in the book with size: a limit order that may rest, still open. */
function restingQty(ev: OrderUpdateEvent): Decimal {
  if (ev.status !== 'NEW' && ev.status !== 'PARTIALLY_FILLED') return new Decimal(0);
  if (ev.timeInForce === 'IOC' || ev.timeInForce === 'FOK' || ev.type === 'MARKET') return new Decimal(0);
  if (ev.price === '' || new Decimal(ev.price).isZero()) return new Decimal(0);
  const left = new Decimal(ev.origQty).minus(ev.executedQty === '' ? '0' : ev.executedQty);
  return left.isNegative() ? new Decimal(0) : left;
}

/** Returns the bot's resting-size changes by level in venue-time order, from its order reports. */
export function ownChanges(reports: readonly OrderUpdateEvent[]): OwnChange[] {
  const now = new Map<string, { key: string; qty: Decimal; done: boolean }>();
  const out: OwnChange[] = [];
  // Sorted by venue time; reports of one instant keep the order they were received in.
  const sorted = [...reports].sort((a, b) => a.ts - b.ts);
  for (const ev of sorted) {
    const prev = now.get(ev.orderId);
    // A finished order (filled, cancelled) never rests again, whatever report comes later.
    if (prev?.done === true) continue;
    const key = keyOf(ev.symbol, ev.side.startsWith('BUY') ? 'b' : 'a', ev.price === '' ? '0' : ev.price);
    const qty = restingQty(ev);
    now.set(ev.orderId, { key, qty, done: FINISHED.has(ev.status) });
    if (prev !== undefined && prev.key !== key) {
      if (!prev.qty.isZero()) out.push({ time: ev.ts, key: prev.key, delta: prev.qty.neg() });
      if (!qty.isZero()) out.push({ time: ev.ts, key, delta: qty });
    } else if (!qty.eq(prev?.qty ?? 0)) {
      out.push({ time: ev.ts, key, delta: qty.minus(prev?.qty ?? 0) });
    }
  }
  return out;
}

const FINISHED = new Set(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED']);

/** The bot's resting size by level as venue time moves forward. */
export class OwnBook {
  private readonly size = new Map<string, Decimal>();
  private next = 0;

  constructor(private readonly changes: readonly OwnChange[]) {}

  /** Applies every change at or before `time`. */
  advance(time: number): void {
    while (this.next < this.changes.length && this.changes[this.next]!.time <= time) {
      const c = this.changes[this.next++]!;
      const v = (this.size.get(c.key) ?? new Decimal(0)).plus(c.delta);
      if (v.isZero()) this.size.delete(c.key);
      else this.size.set(c.key, v);
    }
  }

  at(key: string): Decimal | undefined {
    return this.size.get(key);
  }
}

type Level = [string, string];

/** A trade to replay after a later diff (queue-evidence.ts): the diff's record (1-based, markers counted) and its venue time. */
export interface MovedTrade {
  readonly afterRecord: number;
  readonly time: number;
}

/**
 * Copies the market capture of `from` into `to` with the bot's own resting size taken out of every
 * diffDepth level and REST snapshot level, at the venue time of the push; returns what it did. A frame
 * the venue sent and the recorder read at times for which `heldUntil` names a later time (ms, a stall
 * of the live run) is received no earlier; one read in the millisecond a strategy tick fired but before
 * it (`readBefore` names the tick) is received just before that millisecond. The trades `moved` names
 * are replayed right after the diff it names, at its time (queue-evidence.ts).
 */
export async function removeOwnOrders(
  from: string, to: string, reports: readonly OrderUpdateEvent[], problems: string[], heldUntil: (venueMs: number, recvMs: number) => number | undefined = () => undefined,
  moved: ReadonlyMap<string, MovedTrade> = new Map(), readBefore: (venueMs: number, recvMs: number) => number | undefined = () => undefined,
): Promise<OwnRemovalStats> {
  const book = new OwnBook(ownChanges(reports));
  const stats = { levelsAdjusted: 0, levelsClamped: 0, removed: new Decimal(0), lines: 0, trades: 0, held: 0, early: 0, queueEvidence: 0, before: 0 };
  // The bot's own taker fills (a maker fill's trade was another's order taking the bot's quote: it stays).
  const ownTrades = new Set(reports.filter((r) => !r.maker && r.tradeId !== undefined && r.tradeId !== '').map((r) => r.tradeId!));
  const adjust = (symbol: string, side: 'b' | 'a', levels: unknown): void => {
    if (!Array.isArray(levels)) return;
    for (const l of levels as Level[]) {
      if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'string') continue;
      const own = book.at(keyOf(symbol, side, l[0]));
      if (own === undefined || !own.isPositive()) continue;
      const q = new Decimal(l[1]);
      if (q.isZero()) continue;
      stats.levelsAdjusted++;
      if (q.lt(own)) {
        stats.levelsClamped++;
        stats.removed = stats.removed.plus(q);
        l[1] = '0';
      } else {
        stats.removed = stats.removed.plus(own);
        l[1] = q.minus(own).toFixed();
      }
    }
  };
  const reader = new CaptureReader(await captureFiles(from, 'market'), { onIssue: (i) => problems.push(i.message) });
  mkdirSync(to, { recursive: true });
  // Streamed through gzip: memory stays flat however long the recording.
  const gz = createGzip();
  const done = pipeline(gz, createWriteStream(join(to, 'market-public.jsonl.gz')));
  const write = async (line: string): Promise<void> => {
    if (!gz.write(line)) await once(gz, 'drain');
  };
  // Receive times stay in order once frames are held.
  let last = 0n;
  // Trades replayed after a later diff, by that diff's record: as many as the bot's maker fills at most.
  const later = new Map<number, { time: number; trade: string }[]>();
  for await (const r of reader.records()) {
    stats.lines++;
    if (r.marker === 'snapshot') await write(markerLine(r.ns, r.marker, snapshotWithout(r.frame, r.ns, book, adjust)));
    else if (r.marker !== undefined) await write(markerLine(r.ns, r.marker, r.frame));
    else {
      const sent = venueMsOf(r.frame);
      const until = sent === undefined ? undefined : heldUntil(sent, Number(r.ns / 1_000_000n));
      let ns = r.ns;
      // Never read before the venue sent it: a recorder whose clock fell behind the venue's (the wall clock stepped) would show
      // the backtest's bot, and its exchange, each change before it happened. Less than the two clocks' own spread is no sign of that.
      if (sent !== undefined && BigInt(sent - CLOCKS_APART_MS) * 1_000_000n > ns) {
        stats.early++;
        ns = BigInt(sent) * 1_000_000n;
      }
      if (until !== undefined && BigInt(until) * 1_000_000n > ns) {
        stats.held++;
        ns = BigInt(until) * 1_000_000n;
      } else if (sent !== undefined) {
        // Read in the millisecond a strategy tick fired but before it: the backtest takes a timer before the events of its millisecond.
        const tick = readBefore(sent, Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6);
        if (tick !== undefined) {
          stats.before++;
          ns = BigInt(tick) * 1_000_000n - 1n;
        }
      }
      if (ns < last) ns = last;
      last = ns;
      const frame = moved.size === 0 ? r.frame : tradesMoved(r.frame, moved, (after, time, trade) => {
        later.set(after, [...(later.get(after) ?? []), { time, trade }]);
      });
      if (frame !== undefined) await write(frameLine(ns, depthWithout(tradesWithout(frame, ownTrades, () => stats.trades++), book, adjust)));
      // Trades held for this diff follow it, at its time.
      const held = later.get(stats.lines);
      if (held !== undefined) {
        later.delete(stats.lines);
        for (const h of held) {
          stats.queueEvidence++;
          last = ns + 1n;
          await write(frameLine(last, h.trade));
        }
      }
    }
  }
  gz.end();
  await done;
  return { levelsAdjusted: stats.levelsAdjusted, levelsClamped: stats.levelsClamped, removedQty: stats.removed.toFixed(), lines: stats.lines, tradesRemoved: stats.trades, held: stats.held, early: stats.early, queueEvidence: stats.queueEvidence, before: stats.before };
}

/** Returns the venue time (ms) of a diffDepth or trade frame: its first entry's `t`. */
function venueMsOf(frame: string): number | undefined {
  const m = /"data":\[\{[^{}]*?"t":(\d+)/.exec(frame);
  return m === null ? undefined : Number(m[1]);
}

/** Returns a trade frame parsed, with its trades; undefined for any other frame (or one that does not parse: it passes unchanged). */
function tradeFrame(frame: string): { v: { topic?: unknown; data?: unknown }; data: Record<string, unknown>[] } | undefined {
  if (!frame.includes('"trade"')) return undefined;
  let v: { topic?: unknown; data?: unknown };
  try {
    v = JSON.parse(frame) as typeof v;
  } catch {
    return undefined;
  }
  return v.topic === 'trade' && Array.isArray(v.data) ? { v, data: v.data as Record<string, unknown>[] } : undefined;
}

/**
 * Returns a trade frame without the trades `moved` names, each handed to `hold` as a frame of its own at
 * the time it is moved to; undefined when none is left (other frames unchanged).
 */
function tradesMoved(frame: string, moved: ReadonlyMap<string, MovedTrade>, hold: (after: number, time: number, trade: string) => void): string | undefined {
  const parsed = tradeFrame(frame);
  if (parsed === undefined) return frame;
  const { v, data } = parsed;
  const kept = data.filter((t) => {
    const m = typeof t['v'] === 'string' ? moved.get(t['v']) : undefined;
    if (m === undefined) return true;
    hold(m.afterRecord, m.time, JSON.stringify({ ...v, data: [{ ...t, t: m.time }] }));
    return false;
  });
  if (kept.length === data.length) return frame;
  return kept.length === 0 ? undefined : JSON.stringify({ ...v, data: kept });
}

/** Returns a trade frame without the trades `own` names, other frames unchanged. */
function tradesWithout(frame: string, own: ReadonlySet<string>, removed: () => void): string {
  const parsed = own.size === 0 ? undefined : tradeFrame(frame);
  if (parsed === undefined) return frame;
  const { v, data } = parsed;
  const kept = data.filter((t) => !(typeof t['v'] === 'string' && own.has(t['v'])));
  if (kept.length === data.length) return frame;
  for (let k = kept.length; k < data.length; k++) removed();
  return JSON.stringify({ ...v, data: kept });
}

type Adjust = (symbol: string, side: 'b' | 'a', levels: unknown) => void;

/** Returns a diffDepth frame with the own size out of its levels (other frames unchanged). */
function depthWithout(frame: string, book: OwnBook, adjust: Adjust): string {
  if (!frame.includes('"diffDepth"')) return frame;
  let v: { topic?: unknown; symbol?: unknown; data?: unknown };
  try {
    v = JSON.parse(frame) as typeof v;
  } catch {
    return frame;
  }
  if (v.topic !== 'diffDepth' || !Array.isArray(v.data)) return frame;
  for (const d of v.data as Record<string, unknown>[]) {
    const symbol = typeof d['s'] === 'string' ? d['s'] : String(v.symbol);
    if (typeof d['t'] === 'number') book.advance(d['t']);
    adjust(symbol, 'b', d['b']);
    adjust(symbol, 'a', d['a']);
  }
  return JSON.stringify(v);
}

/** Returns a `!snapshot` payload with the own size out of its body's levels, at the body's time (else the receive time). */
function snapshotWithout(payload: string, ns: bigint, book: OwnBook, adjust: Adjust): string {
  let v: { symbol?: unknown; body?: unknown };
  try {
    v = JSON.parse(payload) as typeof v;
  } catch {
    return payload;
  }
  const body = v.body as Record<string, unknown> | undefined;
  if (typeof v.symbol !== 'string' || typeof body !== 'object' || body === null) return payload;
  book.advance(typeof body['t'] === 'number' ? body['t'] : Number(ns / 1_000_000n));
  adjust(v.symbol, 'b', body['b'] ?? body['bids']);
  adjust(v.symbol, 'a', body['a'] ?? body['asks']);
  return JSON.stringify(v);
}
