/** `data ls` and `data info`: what a catalog holds, read from its index (symbols, days, tables, event counts, time ranges, gaps). */
import type { CatalogIndex } from './catalog.ts';
import { nsToIso } from './ns.ts';
import { TABLES } from './tables.ts';

/** One table of one symbol, summed over its days. */
export interface TableSummary {
  readonly symbol: string;
  readonly table: string;
  readonly days: readonly string[];
  readonly rows: number;
  readonly events: number;
  readonly firstNs: bigint;
  readonly lastNs: bigint;
}

/** Returns a summary per symbol and table, symbols in name order and tables in catalog order. */
export function summarise(index: CatalogIndex): TableSummary[] {
  const by = new Map<string, { symbol: string; table: string; days: string[]; rows: number; events: number; firstNs: bigint; lastNs: bigint }>();
  for (const f of index.files) {
    const key = `${f.symbol}\u0000${TABLES.indexOf(f.table)}`;
    const first = BigInt(f.firstNs);
    const last = BigInt(f.lastNs);
    const s = by.get(key);
    if (!s) {
      by.set(key, { symbol: f.symbol, table: f.table, days: [f.day], rows: f.rows, events: f.events, firstNs: first, lastNs: last });
      continue;
    }
    s.days.push(f.day);
    s.rows += f.rows;
    s.events += f.events;
    if (first < s.firstNs) s.firstNs = first;
    if (last > s.lastNs) s.lastNs = last;
  }
  return [...by.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => ({ ...s, days: s.days.sort() }));
}

/** Days listed one by one up to three; more as a range with their count (a range may skip days). */
function dayRange(days: readonly string[]): string {
  return days.length <= 3 ? days.join(', ') : `${days.length} days from ${days[0]} to ${days[days.length - 1]}`;
}

function counted(s: TableSummary): string {
  return s.rows === s.events ? `${s.events} events` : `${s.events} events in ${s.rows} rows`;
}

/** Returns the text of `data ls`: one line per symbol and table with its event count and days. */
export function formatLs(index: CatalogIndex): string {
  const all = summarise(index);
  if (all.length === 0) return 'the catalog holds no tables\n';
  const w = Math.max(...all.map((s) => s.symbol.length));
  const lines = all.map((s) => `${s.symbol.padEnd(w)}  ${s.table.padEnd(12)} ${String(s.events).padStart(10)} events  ${dayRange(s.days)}`);
  return `${lines.join('\n')}\n`;
}

/** Returns the text of `data info`: instruments, then per symbol and table the counts and time range, then the gaps. */
export function formatInfo(index: CatalogIndex): string {
  const out: string[] = ['instruments:'];
  for (const [sym, i] of Object.entries(index.instruments).sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`  ${sym}: ${i.kind}, tick ${i.tick}, lot ${i.lot}, multiplier ${i.multiplier}, ${i.base}/${i.quote}, margin ${i.margin}`);
  }
  out.push('tables:');
  for (const s of summarise(index)) {
    out.push(`  ${s.symbol} ${s.table}: ${counted(s)}, ${nsToIso(s.firstNs)} to ${nsToIso(s.lastNs)}${s.days.length === 1 ? '' : ` (${dayRange(s.days)})`}`);
  }
  out.push(`gaps: ${index.gaps.length}`);
  for (const g of index.gaps) out.push(`  ${g.symbol} at ${nsToIso(BigInt(g.atNs))}: ${g.reason}`);
  return `${out.join('\n')}\n`;
}
