/** CSV text of the results tables: one header line, one line per row, fields quoted only when they must be (RFC 4180). */

/** What makes a field need quotes. */
const MUST_QUOTE = /[",\r\n]/;

/** Returns one CSV field (a number or a boolean never needs quotes). */
function field(v: string | number | boolean): string {
  if (typeof v !== 'string') return String(v);
  return MUST_QUOTE.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Returns the CSV line of one row under `columns` (no line end), as one flat string: a run keeps thousands of them, and a string built by `+=` would be kept as a tree of its pieces. */
export function csvLine<K extends string>(columns: readonly K[], row: Readonly<Record<K, string | number | boolean>>): string {
  return columns.map((c) => field(row[c])).join(',');
}

/** Returns a CSV document of `columns` and the rows' lines (as csvLine gives them), ending with a newline. */
export function csvText(columns: readonly string[], lines: readonly string[]): string {
  return `${[columns.map(field).join(','), ...lines].join('\n')}\n`;
}

/** Returns a CSV document of `rows` under `columns` (each row gives every column), ending with a newline. */
export function toCsv<K extends string>(columns: readonly K[], rows: readonly Readonly<Record<K, string | number | boolean>>[]): string {
  return csvText(columns, rows.map((r) => csvLine(columns, r)));
}

/** Returns the fields of one CSV line as csvLine writes it (quoted fields unquoted). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line.charCodeAt(i) === 34 /* " */) {
      let s = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) throw new Error(`unterminated quoted CSV field in ${JSON.stringify(line)}`);
        s += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          s += '"';
          j = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      out.push(s);
    } else {
      const c = line.indexOf(',', i);
      out.push(line.slice(i, c < 0 ? line.length : c));
      i = c < 0 ? line.length : c;
    }
    if (i >= line.length) return out;
    i++; // the comma
  }
}
