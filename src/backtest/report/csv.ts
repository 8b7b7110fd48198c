/** CSV text of the results tables: one header line, one line per row, fields quoted only when they must be (RFC 4180). */

/** Returns one CSV field. */
function field(v: string | number | boolean): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Returns a CSV document of `rows` under `columns` (each row gives every column), ending with a newline. */
export function toCsv<K extends string>(columns: readonly K[], rows: readonly Readonly<Record<K, string | number | boolean>>[]): string {
  const lines = [columns.map(field).join(',')];
  for (const r of rows) lines.push(columns.map((c) => field(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}
