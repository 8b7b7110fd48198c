// A replayed market event (the bus events a catalog replay publishes) as the backtest exchange's book changes and trades: the runner and the venue's replayed market read recordings through it.
import type { DepthSnapshotEvent, DepthUpdateEvent, Level, TradeEvent } from '../../model/index.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
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
