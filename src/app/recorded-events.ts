/** Turns a replayed market event (the bus events a catalog replay publishes) into the backtest exchange's recorded book changes and trades. */
import type { BookSide, RecordedEvent } from '../backtest/exchange/types.ts';
import type { BusEvent } from '../model/index.ts';
import type { SimInstrument } from '../sim/engine/instruments.ts';
import { decimalUnits } from '../sim/engine/units.ts';

/**
 * Returns the exchange's recorded events of one replayed market event at `time`: a book snapshot
 * removes the levels it does not hold (`levels` lists a side's current prices) and sets the others,
 * a diff sets its levels, a trade is a trade. Prices and sizes the instrument cannot hold are skipped.
 */
export function recordedEvents(ev: BusEvent, inst: SimInstrument, levels: (side: BookSide) => readonly number[], time: number): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  switch (ev.kind) {
    case 'depthSnapshot':
    case 'depthUpdate':
      for (const side of [0, 1] as const) {
        const list = side === 0 ? ev.bids : ev.asks;
        if (ev.kind === 'depthSnapshot') {
          const keep = new Set(list.map((l) => decimalUnits(l[0], inst.tick)));
          for (const p of levels(side)) if (!keep.has(p)) out.push({ kind: 'depth', time, side, priceTicks: p, lots: 0 });
        }
        for (const l of list) {
          const priceTicks = decimalUnits(l[0], inst.tick);
          const lots = decimalUnits(l[1], inst.step);
          if (priceTicks > 0 && lots >= 0) out.push({ kind: 'depth', time, side, priceTicks, lots });
        }
      }
      return out;
    case 'trade': {
      const priceTicks = decimalUnits(ev.price, inst.tick);
      const lots = decimalUnits(ev.qty, inst.step);
      if (priceTicks > 0 && lots > 0) out.push({ kind: 'trade', time, priceTicks, lots, takerSide: ev.takerSide === 'BUY' ? 0 : 1 });
      return out;
    }
    // The replay is asked for levels, never for batches.
    case 'depthBatch':
    case 'kline':
    case 'ticker':
    case 'index':
    case 'funding':
    case 'order':
    case 'position':
    case 'balance':
    case 'connection':
    case 'reconnected':
      return out;
    default: {
      const never: never = ev;
      throw new Error(`unknown event ${String(never)}`);
    }
  }
}
