// A replayed market event (the bus events a catalog replay publishes) as the backtest exchange's book changes and trades: the runner and the venue's replayed market read recordings through it.
import { SIDE } from '../../data/tables.ts';
import type { DepthBatchEvent, DepthSnapshotEvent, DepthUpdateEvent, Level, TradeEvent } from '../../model/index.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { decimalUnits, small } from '../../sim/engine/units.ts';
import type { BookSide } from '../exchange/types.ts';

/** What takes the recorded changes: a backtest exchange, or the venue's replayed market beside one. */
export interface RecordedSink {
  recordDepth(side: BookSide, priceTicks: number, lots: number): void;
  recordTrade(priceTicks: number, lots: number, takerSide: BookSide): void;
}

/**
 * Passes a book event's level changes to `sink`, side by side: a snapshot first removes the levels it
 * does not hold (`levels` lists a side's current prices), then both kinds set their levels. Prices and
 * sizes the instrument cannot hold are skipped.
 */
export function recordBook(ev: DepthSnapshotEvent | DepthUpdateEvent, inst: SimInstrument, levels: (side: BookSide) => Iterable<number>, sink: RecordedSink): void {
  for (const side of [0, 1] as const) {
    const list = side === 0 ? ev.bids : ev.asks;
    if (ev.kind === 'depthSnapshot') {
      const keep = new Set(list.map((l) => decimalUnits(l[0], inst.tick)));
      for (const p of [...levels(side)]) if (!keep.has(p)) sink.recordDepth(side, p, 0);
    }
    setLevels(list, side, inst, sink);
  }
}

/** Passes a recorded trade to `sink` (skipped when the instrument cannot hold its price or size). */
export function recordTrade(ev: TradeEvent, inst: SimInstrument, sink: RecordedSink): void {
  const priceTicks = decimalUnits(ev.price, inst.tick);
  const lots = decimalUnits(ev.qty, inst.step);
  if (priceTicks > 0 && lots > 0) sink.recordTrade(priceTicks, lots, ev.takerSide === 'BUY' ? 0 : 1);
}

function setLevels(list: readonly Level[], side: BookSide, inst: SimInstrument, sink: RecordedSink): void {
  for (const l of list) {
    const priceTicks = decimalUnits(l[0], inst.tick);
    const lots = decimalUnits(l[1], inst.step);
    if (priceTicks > 0 && lots >= 0) sink.recordDepth(side, priceTicks, lots);
  }
}

/** How many of the instrument's ticks and lots one tick and one lot of a batch are (1 and 1 when the catalog's steps are the instrument's). */
export interface BatchScale {
  readonly price: number;
  readonly qty: number;
}

/** Returns the scale of a symbol's batches (`tick` and `lot`, the catalog's steps) to `inst`; throws when a catalog step is not a whole number of the instrument's. */
export function batchScale(inst: SimInstrument, tick: string, lot: string): BatchScale {
  const price = decimalUnits(tick, inst.tick);
  const qty = decimalUnits(lot, inst.step);
  if (price <= 0 || qty <= 0) throw new Error(`${inst.symbol}: the catalog's tick ${tick} and lot ${lot} must be multiples of the instrument's ${inst.tick.text} and ${inst.step.text}`);
  return { price, qty };
}

/**
 * Passes a depth batch's level changes to `sink` in integer ticks and lots, in the order recordBook
 * passes the same message as levels (results do not depend on the replay's mode): a diff's bids then
 * its asks, each in message order; a snapshot first removes the levels it does not hold, then sets
 * its levels best first (the last row of a price wins; removed levels are not in it).
 */
export function recordBatch(ev: DepthBatchEvent, scale: BatchScale, levels: (side: BookSide) => Iterable<number>, sink: RecordedSink): void {
  if (ev.snapshot) {
    recordSnapshotSide(ev, 0, scale, levels, sink);
    recordSnapshotSide(ev, 1, scale, levels, sink);
    return;
  }
  const { side, price, qty } = ev;
  for (let i = 0; i < side.length; i++) {
    if (side[i] === SIDE.BID) sink.recordDepth(0, scaled(price[i]!, scale.price), scaled(qty[i]!, scale.qty));
  }
  for (let i = 0; i < side.length; i++) {
    if (side[i] === SIDE.ASK) sink.recordDepth(1, scaled(price[i]!, scale.price), scaled(qty[i]!, scale.qty));
  }
}

/** recordBatch of one side of a snapshot message. */
function recordSnapshotSide(ev: DepthBatchEvent, s: BookSide, scale: BatchScale, levels: (side: BookSide) => Iterable<number>, sink: RecordedSink): void {
  const { side, price, qty } = ev;
  const want = s === 0 ? SIDE.BID : SIDE.ASK;
  const book = new Map<number, number>();
  for (let i = 0; i < side.length; i++) {
    if (side[i] !== want) continue;
    const p = scaled(price[i]!, scale.price);
    const lots = scaled(qty[i]!, scale.qty);
    if (lots > 0) book.set(p, lots);
    else book.delete(p);
  }
  for (const p of [...levels(s)]) if (!book.has(p)) sink.recordDepth(s, p, 0);
  const best = [...book.keys()].sort((a, b) => (s === 0 ? b - a : a - b));
  for (const p of best) sink.recordDepth(s, p, book.get(p)!);
}

/** Returns `v` catalog steps in the instrument's (`f` of them each), checked below 2^53 when it is not 1. */
function scaled(v: number, f: number): number {
  if (f === 1) return small(v);
  const u = v * f;
  if (!Number.isSafeInteger(u)) throw new RangeError(`${v} × ${f} steps is beyond 2^53: it cannot be held exactly`);
  return small(u);
}
