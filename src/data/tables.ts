/** The catalog's tables: their columns and flag bits, and a columnar buffer that collects rows for one row group. */

/** Every table, in the fixed order that breaks ties between tables at the same local time. */
export const TABLES = ['book_deltas', 'trades', 'klines', 'tickers', 'index', 'funding'] as const;
export type TableName = (typeof TABLES)[number];

export type ColumnType = 'INT64' | 'INT32' | 'STRING';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
}

const i64 = (name: string): ColumnSpec => ({ name, type: 'INT64' });
const i32 = (name: string): ColumnSpec => ({ name, type: 'INT32' });
const str = (name: string): ColumnSpec => ({ name, type: 'STRING' });

// Every table starts with ts_event (the venue's time) and ts_local (receive time), int64 ns.
// Prices are int64 ticks and quantities int64 lots of the file's instrument; decimals that fit no
// step (funding rates, index prices, quote volumes) are exact decimal strings.
export const COLUMNS: Readonly<Record<TableName, readonly ColumnSpec[]>> = {
  book_deltas: [i64('ts_event'), i64('ts_local'), i32('side'), i64('price'), i64('qty'), i32('flags'), i64('sequence')],
  trades: [i64('ts_event'), i64('ts_local'), i64('price'), i64('qty'), i32('aggressor'), i64('trade_id')],
  klines: [
    i64('ts_event'), i64('ts_local'), str('interval'), i64('open_time'),
    i64('open'), i64('high'), i64('low'), i64('close'), i64('volume'), i32('flags'),
  ],
  tickers: [i64('ts_event'), i64('ts_local'), i64('last'), i64('open'), i64('high'), i64('low'), i64('volume'), str('quote_volume')],
  index: [i64('ts_event'), i64('ts_local'), str('index'), str('edp')],
  funding: [i64('ts_event'), i64('ts_local'), str('rate'), i64('interval_start'), i64('interval_end')],
};

/** book_deltas.side: a bid or an ask level, or NONE for a message that changed no level (kept so that versions stay whole). */
export const SIDE = { NONE: 0, BID: 1, ASK: 2 } as const;

/** book_deltas.flags bits. */
export const BOOK_FLAG = {
  /** The row belongs to a whole-book snapshot (the book is replaced by the rows of that message). */
  SNAPSHOT: 1,
  /** The last row of its message: the book is consistent after it. */
  LAST: 2,
  /** A version gap was found right before this message (the book is out of step until the next snapshot). */
  GAP: 4,
  /** A REST snapshot, which carries no version (sequence 0): diffs sent before its time are inside it. */
  REST: 8,
} as const;

/** trades.aggressor: the taker's side. */
export const AGGRESSOR = { BUY: 1, SELL: 2 } as const;

/** klines.flags bits. */
export const KLINE_FLAG = { CLOSED: 1 } as const;

export type CellValue = bigint | number | string;

const FIRST_SIZE = 1024;

/** Rows of one table collected column by column, up to a fixed capacity (arrays grow as rows come, so a small file costs little). */
export class RowBuffer {
  columns: (BigInt64Array | Int32Array | string[])[];
  length = 0;
  private size: number;

  constructor(readonly table: TableName, readonly capacity: number) {
    this.size = Math.min(FIRST_SIZE, capacity);
    this.columns = COLUMNS[table].map((c) => (c.type === 'INT64' ? new BigInt64Array(this.size) : c.type === 'INT32' ? new Int32Array(this.size) : []));
  }

  /** Appends one row (values in COLUMNS order); returns true when the buffer is now full. */
  push(values: readonly CellValue[]): boolean {
    if (this.length === this.size) this.grow();
    const i = this.length++;
    for (let c = 0; c < values.length; c++) (this.columns[c] as CellValue[])[i] = values[c]!;
    return this.length >= this.capacity;
  }

  private grow(): void {
    this.size = Math.min(this.size * 2, this.capacity);
    this.columns = this.columns.map((col) => {
      if (Array.isArray(col)) return col;
      const next = col instanceof BigInt64Array ? new BigInt64Array(this.size) : new Int32Array(this.size);
      next.set(col as never);
      return next;
    });
  }

  /** Empties the buffer (arrays are reused). */
  clear(): void {
    this.length = 0;
    for (const col of this.columns) if (Array.isArray(col)) col.length = 0;
  }
}
