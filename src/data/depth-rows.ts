/** Turns one depth message (snapshot or diff) into book_deltas rows: one per level, or one NONE row when it changed nothing. */
import type { Level } from '../model/market.ts';
import type { CatalogWriter } from './catalog.ts';
import { toSteps, type Instrument } from './instruments.ts';
import { BOOK_FLAG, SIDE } from './tables.ts';

/** A depth message in the catalog's terms. */
export interface DepthMessage {
  readonly tsEvent: bigint;
  readonly tsLocal: bigint;
  readonly sequence: bigint;
  readonly snapshot: boolean;
  /** A REST snapshot without a version (its sequence is 0). */
  readonly rest?: boolean;
  /** A version gap was found right before this message. */
  readonly gap: boolean;
  readonly bids: readonly (readonly [string, string])[] | readonly Level[];
  readonly asks: readonly (readonly [string, string])[] | readonly Level[];
}

/**
 * Writes the rows of one depth message; throws ParseError (and writes nothing) when a price or
 * quantity is not a whole number of the instrument's ticks or lots, so a message is never half kept.
 */
export function writeDepth(cat: CatalogWriter, inst: Instrument, m: DepthMessage, fileMeta?: Readonly<Record<string, string>>): number {
  const rows: [number, bigint, bigint][] = [];
  for (const [p, q] of m.bids) rows.push([SIDE.BID, toSteps(p, inst.tick, 'price'), toSteps(q, inst.lot, 'quantity')]);
  for (const [p, q] of m.asks) rows.push([SIDE.ASK, toSteps(p, inst.tick, 'price'), toSteps(q, inst.lot, 'quantity')]);
  if (rows.length === 0) rows.push([SIDE.NONE, 0n, 0n]);
  const base = (m.snapshot ? BOOK_FLAG.SNAPSHOT : 0) | (m.rest ? BOOK_FLAG.REST : 0);
  for (let i = 0; i < rows.length; i++) {
    const [side, price, qty] = rows[i]!;
    const flags = base | (i === rows.length - 1 ? BOOK_FLAG.LAST : 0) | (i === 0 && m.gap ? BOOK_FLAG.GAP : 0);
    cat.row('book_deltas', inst.symbol, [m.tsEvent, m.tsLocal, side, price, qty, flags, m.sequence], fileMeta);
  }
  return rows.length;
}
