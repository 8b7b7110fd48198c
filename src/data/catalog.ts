/** The catalog on disk: `TABLE/SYMBOL/YYYY-MM-DD.parquet` files and `catalog.json` (instruments, files, gaps), written table by table as rows come. */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { ParseError } from '../core/errors.ts';
import { instrumentSchema, type Instrument } from './instruments.ts';
import { utcDay } from './ns.ts';
import { TableFileWriter } from './parquet.ts';
import type { ConvertReport, GapRecord } from './report.ts';
import { SIDE, TABLES, type CellValue, type TableName } from './tables.ts';

export const CATALOG_FILE = 'catalog.json';

const fileSchema = z.strictObject({
  table: z.enum(TABLES),
  symbol: z.string(),
  day: z.string(),
  /** Relative to the catalog's folder. */
  path: z.string(),
  rows: z.number().int(),
  /** Book level changes or trades (other tables: rows). */
  events: z.number().int(),
  /** Local times of the first and last row, ns as decimal strings. */
  firstNs: z.string(),
  lastNs: z.string(),
});
export type CatalogFile = z.infer<typeof fileSchema>;

const gapSchema = z.strictObject({ symbol: z.string(), atNs: z.string(), reason: z.string() });

export const catalogSchema = z.strictObject({
  format: z.literal('bhtrade-catalog'),
  version: z.literal(1),
  instruments: z.record(z.string(), instrumentSchema),
  files: z.array(fileSchema),
  gaps: z.array(gapSchema),
});
export type CatalogIndex = z.infer<typeof catalogSchema>;

/** Returns the index of the catalog in `dir`; throws ParseError naming the file when it is missing or malformed. */
export function readCatalog(dir: string): CatalogIndex {
  const file = join(dir, CATALOG_FILE);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ParseError(dir, 'is a file: give the catalog\'s folder (the one that holds catalog.json)');
  if (!existsSync(file)) throw new ParseError(file, 'is missing: not a catalog folder (make one with `npx bhtrade data convert RAW... --out CATALOG`)');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ParseError(file, `is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = catalogSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new ParseError(`${file}: ${i.path.join('.')}`, i.message);
  }
  return parsed.data;
}

interface OpenFile {
  readonly key: string;
  readonly w: TableFileWriter;
  readonly entry: { table: TableName; symbol: string; day: string; path: string };
  dayStart: bigint;
  dayEnd: bigint;
  first: bigint;
  last: bigint;
  events: number;
}

const NS_PER_DAY = 86_400_000_000_000n;
const MAX_OPEN_FILES = 16;
/** Rows of the low-rate tables held for sorting; past it the earliest days are written out first. */
export const MAX_HELD_ROWS = 1_000_000;

/** Writes rows into a catalog folder; finish() closes the files and merges them into catalog.json. */
export class CatalogWriter {
  /** Open files by table/symbol/day, least recently used first. */
  private readonly open = new Map<string, OpenFile>();
  /** The file each table/symbol wrote to last. */
  private readonly current = new Map<string, OpenFile>();
  private readonly done: CatalogFile[] = [];
  private readonly instruments = new Map<string, Instrument>();
  /** Rows of the low-rate tables by file, sorted by local time at the end: their sources (one REST answer per interval) interleave. */
  private readonly held = new Map<string, { table: TableName; symbol: string; local: bigint; rows: { local: bigint; values: readonly CellValue[] }[] }>();
  private readonly warned = new Set<string>();
  private heldRows = 0;
  /** Held table/symbol/day files already written. */
  private readonly writtenHeld = new Set<string>();

  private readonly maxHeld: number;
  private replacedFiles: readonly CatalogFile[] = [];

  constructor(readonly dir: string, private readonly report: ConvertReport, o: { maxHeldRows?: number } = {}) {
    mkdirSync(dir, { recursive: true });
    this.maxHeld = o.maxHeldRows ?? MAX_HELD_ROWS;
  }

  /** The files of an earlier conversion that finish() replaced. */
  get replaced(): readonly CatalogFile[] {
    return this.replacedFiles;
  }

  /** Declares the instrument of `symbol`; a second, different declaration is refused. */
  instrument(inst: Instrument): void {
    const prev = this.instruments.get(inst.symbol);
    if (prev && JSON.stringify(prev) !== JSON.stringify(inst)) {
      throw new ParseError(`instrument ${inst.symbol}`, `is mapped twice with different terms: ${JSON.stringify(prev)} and ${JSON.stringify(inst)}`);
    }
    this.instruments.set(inst.symbol, inst);
  }

  /** Returns the declared instrument of `symbol`. */
  instrumentOf(symbol: string): Instrument | undefined {
    return this.instruments.get(symbol);
  }

  /**
   * Appends one row of `table` for `symbol`; `values` start with ts_event and ts_local (bigint ns).
   * `fileMeta` is added to the key-value metadata of the file this row opens, if it opens one.
   */
  row(table: TableName, symbol: string, values: readonly CellValue[], fileMeta?: Readonly<Record<string, string>>): void {
    const local = values[1] as bigint;
    if (table !== 'book_deltas' && table !== 'trades') {
      const day = utcDay(local);
      const hk = `${table}/${symbol}/${day}`;
      let h = this.held.get(hk);
      if (!h) {
        if (this.writtenHeld.has(hk)) {
          this.report.problem(join(this.dir, hk), 0, 'a row for a day already written (more rows were held than fit) arrived later; skipped');
          return;
        }
        this.held.set(hk, (h = { table, symbol, local, rows: [] }));
      }
      h.rows.push({ local, values });
      if (++this.heldRows > this.maxHeld) this.writeHeld(Math.floor(this.maxHeld / 2));
      return;
    }
    const cur = `${table}/${symbol}`;
    let f = this.current.get(cur);
    if (!f || local < f.dayStart || local >= f.dayEnd) {
      const key = `${cur}/${utcDay(local)}`;
      f = this.open.get(key);
      if (!f) {
        if (this.done.some((d) => d.path === join(table, symbol, `${utcDay(local)}.parquet`))) {
          this.report.count(`rows for a day already written, skipped, in ${cur}`);
          this.report.problem(join(this.dir, table, symbol), 0, `a row for ${utcDay(local)}, whose file was already closed, arrived later (inputs far apart in time interleave); skipped`);
          return;
        }
        f = this.openFile(key, table, symbol, local, fileMeta);
        // Files of several days stay open while inputs interleave days; the least recently used closes first.
        if (this.open.size > MAX_OPEN_FILES) {
          const [oldKey, old] = this.open.entries().next().value!;
          this.close(oldKey, old);
        }
      } else {
        this.open.delete(key);
        this.open.set(key, f);
      }
      this.current.set(cur, f);
    }
    const key = f.key;
    if (local < f.last) {
      this.report.count(`rows earlier than the row before them in ${table}/${symbol}`);
      if (!this.warned.has(key)) {
        this.warned.add(key);
        this.report.problem(f.entry.path, 0, 'rows arrive out of local-time order (inputs overlap in time); they are kept in arrival order');
      }
    }
    if (local < f.first) f.first = local;
    if (local > f.last) f.last = local;
    if (table !== 'book_deltas' || values[2] !== SIDE.NONE) f.events += 1;
    f.w.push(values);
  }

  /**
   * Closes every file and writes catalog.json. Files of earlier conversions for other days and symbols are kept with
   * their gaps; a table file of a symbol and day written again replaces the earlier one, which `replaced` then lists.
   */
  finish(gaps: readonly GapRecord[]): CatalogIndex {
    for (const [key, f] of this.open) this.close(key, f);
    this.writeHeld(0);
    const path = join(this.dir, CATALOG_FILE);
    const prev: CatalogIndex = existsSync(path) ? readCatalog(this.dir) : { format: 'bhtrade-catalog', version: 1, instruments: {}, files: [], gaps: [] };
    const written = new Set(this.done.map((f) => f.path));
    const writtenDays = new Set(this.done.map((f) => `${f.symbol}/${f.day}`));
    const index: CatalogIndex = {
      format: 'bhtrade-catalog',
      version: 1,
      instruments: { ...prev.instruments, ...Object.fromEntries(this.instruments) },
      files: [...prev.files.filter((f) => !written.has(f.path)), ...this.done].sort((a, b) => a.path.localeCompare(b.path)),
      // A day written again brings its own gaps; the gaps of days it did not touch stay listed.
      gaps: [...prev.gaps.filter((g) => !writtenDays.has(`${g.symbol}/${utcDay(BigInt(g.atNs))}`)), ...gaps],
    };
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(index, null, 2)}\n`);
    renameSync(tmp, path);
    this.replacedFiles = prev.files.filter((f) => written.has(f.path));
    return index;
  }

  /** Writes held days, earliest first, until at most `keep` rows are held. */
  private writeHeld(keep: number): void {
    const days = [...this.held.entries()].sort(([, a], [, b]) => (a.local < b.local ? -1 : a.local > b.local ? 1 : 0));
    for (const [hk, h] of days) {
      if (this.heldRows <= keep) return;
      h.rows.sort((a, b) => (a.local < b.local ? -1 : a.local > b.local ? 1 : 0));
      const f = this.openFile(hk, h.table, h.symbol, h.local);
      for (const r of h.rows) {
        if (r.local < f.first) f.first = r.local;
        if (r.local > f.last) f.last = r.local;
        f.events += 1;
        f.w.push(r.values);
      }
      this.close(hk, f);
      this.held.delete(hk);
      this.writtenHeld.add(hk);
      this.heldRows -= h.rows.length;
    }
  }

  private openFile(key: string, table: TableName, symbol: string, local: bigint, fileMeta: Readonly<Record<string, string>> = {}): OpenFile {
    const inst = this.instruments.get(symbol);
    if (!inst) throw new ParseError(`symbol ${symbol}`, 'has no instrument declared before its rows');
    const day = utcDay(local);
    const folder = join(this.dir, table, symbol);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `${day}.parquet`);
    const w = new TableFileWriter(file, table, {
      'bhtrade.table': table, 'bhtrade.symbol': symbol, 'bhtrade.day': day, 'bhtrade.instrument': JSON.stringify(inst), ...fileMeta,
    });
    const dayStart = (local / NS_PER_DAY) * NS_PER_DAY;
    const f: OpenFile = {
      key, w, entry: { table, symbol, day, path: relative(this.dir, file) }, dayStart, dayEnd: dayStart + NS_PER_DAY, first: local, last: local, events: 0,
    };
    this.open.set(key, f);
    return f;
  }

  private close(key: string, f: OpenFile): void {
    f.w.finish();
    this.open.delete(key);
    const cur = `${f.entry.table}/${f.entry.symbol}`;
    if (this.current.get(cur) === f) this.current.delete(cur);
    this.done.push({ ...f.entry, rows: f.w.rows, events: f.events, firstNs: f.first.toString(), lastNs: f.last.toString() });
  }
}
