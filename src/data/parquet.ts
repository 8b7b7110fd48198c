/** Parquet files of one table: a writer that flushes a row group at a time, and a reader that loads one row group at a time. */
import { openSync, closeSync, fstatSync, readSync } from 'node:fs';
import { parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData, type SchemaElement } from 'hyparquet';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { decodeIntGroup, type IntColumn } from './pages.ts';
import { COLUMNS, RowBuffer, type CellValue, type TableName } from './tables.ts';

/**
 * Rows per row group: a reader holds one group of each open file, so this bounds replay memory
 * (65 536 book-delta rows decode to about 4 MB) while keeping a file's footer and page overheads small.
 */
export const ROW_GROUP_ROWS = 65_536;

function schemaOf(table: TableName): SchemaElement[] {
  const cols = COLUMNS[table];
  return [
    { name: 'root', num_children: cols.length },
    ...cols.map((c): SchemaElement => (c.type === 'STRING'
      ? { name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' }
      : { name: c.name, type: c.type, repetition_type: 'REQUIRED' })),
  ];
}

/** Writes one table's rows to one Parquet file (snappy), a row group each time ROW_GROUP_ROWS rows have come. */
export class TableFileWriter {
  private readonly writer: ParquetWriter;
  private readonly buf: RowBuffer;
  rows = 0;

  constructor(readonly file: string, readonly table: TableName, metadata: Readonly<Record<string, string>>) {
    this.writer = new ParquetWriter({
      writer: fileWriter(file),
      schema: schemaOf(table),
      codec: 'SNAPPY',
      kvMetadata: Object.entries(metadata).map(([key, value]) => ({ key, value })),
      createdBy: 'bhtrade',
    });
    this.buf = new RowBuffer(table, ROW_GROUP_ROWS);
  }

  /** Appends one row (values in the table's column order). */
  push(values: readonly CellValue[]): void {
    this.rows += 1;
    if (this.buf.push(values)) this.flush();
  }

  /** Writes the last row group and the footer. */
  finish(): void {
    this.flush();
    this.writer.finish();
  }

  private flush(): void {
    const n = this.buf.length;
    if (n === 0) return;
    const cols = COLUMNS[this.table];
    this.writer.write({
      columnData: cols.map((c, i) => {
        const col = this.buf.columns[i]!;
        if (Array.isArray(col)) return { name: c.name, data: col.slice(0, n) };
        // Integers delta-packed: sorted times, prices near each other and flags shrink to a few bits a row,
        // and decode without a dictionary lookup (pages.ts reads them straight into numbers).
        const data = col.subarray(0, n);
        if (c.name.startsWith('ts_')) return { name: c.name, data, encoding: 'DELTA_BINARY_PACKED' as const };
        // Other int64 columns that fit 32 bits go to the writer as numbers (its bigint path costs ~5× more);
        // their min/max statistics, which it would write from numbers, are left out (times keep theirs).
        const small = c.type === 'INT64' ? asInt32(data) : undefined;
        return small
          ? { name: c.name, data: small, encoding: 'DELTA_BINARY_PACKED' as const, statistics: false }
          : { name: c.name, data, encoding: 'DELTA_BINARY_PACKED' as const };
      }),
      rowGroupSize: n,
    });
    this.buf.clear();
  }
}

/** Returns an int column as an Int32Array when every value fits 32 bits, else undefined. */
function asInt32(col: BigInt64Array | Int32Array): Int32Array | undefined {
  if (col instanceof Int32Array) return col;
  const out = new Int32Array(col.length);
  for (let i = 0; i < col.length; i++) {
    const v = col[i]!;
    if (v > 2147483647n || v < -2147483648n) return undefined;
    out[i] = Number(v);
  }
  return out;
}

/** The decoded columns of one row group, by column name: int64 as BigInt64Array (or bigint[]), int32 as numbers, strings as strings. */
export type RowGroupColumns = Readonly<Record<string, ArrayLike<unknown>>>;

/** Reads a Parquet file's metadata and its row groups one at a time, touching only the bytes of the groups and columns asked for. */
export class TableFileReader {
  private constructor(readonly file: string, private readonly buf: AsyncBuffer, readonly meta: FileMetaData) {}

  /** Opens `file` and reads its footer. */
  static async open(file: string): Promise<TableFileReader> {
    const buf = fileBytes(file);
    return new TableFileReader(file, buf, await parquetMetadataAsync(buf));
  }

  /** Returns the file's key-value metadata. */
  keyValues(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const kv of this.meta.key_value_metadata ?? []) out[kv.key] = kv.value ?? '';
    return out;
  }

  /** Returns the number of rows of each row group. */
  groupRows(): number[] {
    return this.meta.row_groups.map((g) => Number(g.num_rows));
  }

  /** Returns the columns of row group `g` (all columns when `columns` is absent). */
  async readGroup(g: number, columns?: readonly string[]): Promise<RowGroupColumns> {
    const sizes = this.groupRows();
    let start = 0;
    for (let i = 0; i < g; i++) start += sizes[i]!;
    const end = start + sizes[g]!;
    const parts = new Map<string, { rowStart: number; data: ArrayLike<unknown> }[]>();
    await parquetRead({
      file: this.buf, metadata: this.meta, rowStart: start, rowEnd: end, columns: columns ? [...columns] : undefined,
      onChunk: (c) => {
        let list = parts.get(c.columnName);
        if (!list) parts.set(c.columnName, (list = []));
        list.push({ rowStart: c.rowStart, data: c.columnData as ArrayLike<unknown> });
      },
    });
    const out: Record<string, ArrayLike<unknown>> = {};
    for (const [name, list] of parts) out[name] = joinChunks(list, start, end);
    return out;
  }

  /**
   * Returns the named int columns of row group `g` decoded straight into numbers (pages.ts), or undefined
   * when the file was not written in the encodings that decoder reads (then use readGroup).
   */
  async readIntGroup(g: number, columns: readonly string[]): Promise<Map<string, IntColumn> | undefined> {
    return decodeIntGroup(this.meta, g, columns, (start, end) => this.buf.slice(start, end) as Promise<ArrayBuffer>);
  }
}

/**
 * Returns a file's byte ranges read synchronously (the pages are usually in the page cache): a
 * read-stream per range, as hyparquet's own file buffer opens, left the replay waiting most of its time.
 * The file is opened for each range so that a reader holds no descriptor.
 */
function fileBytes(file: string): AsyncBuffer {
  const fd = openSync(file, 'r');
  let byteLength: number;
  try {
    byteLength = fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
  return {
    byteLength,
    slice(start: number, end = byteLength): Promise<ArrayBuffer> {
      const out = new Uint8Array(Math.max(0, end - start));
      const f = openSync(file, 'r');
      try {
        let at = 0;
        while (at < out.length) {
          const n = readSync(f, out, at, out.length - at, start + at);
          if (n === 0) throw new Error(`${file}: ended at byte ${start + at}, expected ${end}`);
          at += n;
        }
      } finally {
        closeSync(f);
      }
      return Promise.resolve(out.buffer);
    },
  };
}

/** Returns the rows [start, end) of a column delivered as chunks (pages may reach outside the range asked for). */
function joinChunks(list: { rowStart: number; data: ArrayLike<unknown> }[], start: number, end: number): ArrayLike<unknown> {
  list.sort((a, b) => a.rowStart - b.rowStart);
  if (list.length === 1 && list[0]!.rowStart === start && list[0]!.data.length === end - start) return list[0]!.data;
  const first = list[0]!.data;
  const typed = first instanceof BigInt64Array;
  const out: unknown[] | BigInt64Array = typed ? new BigInt64Array(end - start) : new Array<unknown>(end - start);
  for (const { rowStart, data } of list) {
    for (let i = 0; i < data.length; i++) {
      const r = rowStart + i;
      if (r >= start && r < end) (out as unknown[])[r - start] = data[i];
    }
  }
  return out;
}
