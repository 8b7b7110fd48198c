// What grows with the input has a bound: held low-rate rows are written out early, a line without end is cut, the problem list stops growing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogWriter } from '../../src/data/catalog.ts';
import { recordedLines, MAX_LINE } from '../../src/data/lines.ts';
import { msToNs } from '../../src/data/ns.ts';
import { ConvertReport } from '../../src/data/report.ts';
import { tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('bounds', () => {
  it('funding rows of many days held past the bound: the earliest days are written first, every row lands in its day', () => {
    const t = tempDir();
    cleanup = t.remove;
    const report = new ConvertReport();
    const cat = new CatalogWriter(t.dir, report, { maxHeldRows: 10 });
    cat.instrument({ symbol: 'X', kind: 'linear', tick: '0.1', lot: '1', multiplier: '1', base: 'B', quote: 'Q', margin: 'Q', contiguousVersions: false });
    const day = 86_400_000;
    // Three rows a day for 20 days, each day's rows out of order.
    for (let d = 0; d < 20; d++) {
      for (const h of [16, 0, 8]) {
        const ms = 1_600_000_000_000 - (1_600_000_000_000 % day) + d * day + h * 3_600_000;
        cat.row('funding', 'X', [msToNs(ms), msToNs(ms), '0.0001', msToNs(ms - 8 * 3_600_000), msToNs(ms)]);
      }
    }
    const index = cat.finish([]);
    expect(index.files).toHaveLength(20);
    expect(index.files.every((f) => f.rows === 3 && BigInt(f.firstNs) < BigInt(f.lastNs))).toBe(true);
    expect(report.problems).toEqual([]);
  });

  it('a line longer than the bound is skipped and named, and the lines after it are read', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const file = join(t.dir, 'long.log');
    writeFileSync(file, `1 {"a":1}\n2 ${'x'.repeat(MAX_LINE + 10)}\n3 {"b":2}\n`);
    const report = new ConvertReport();
    const got: string[] = [];
    for await (const l of recordedLines(file, report)) got.push(l.frame);
    expect(got.map((g) => g.slice(0, 20))).toEqual(['{"a":1}', '{"b":2}']);
    expect(report.problems).toEqual([expect.objectContaining({ line: 2, message: `a line longer than ${MAX_LINE} characters was skipped` })]);
    expect(readFileSync(file).length).toBeGreaterThan(MAX_LINE);
  });

  it('keeps the first 1000 problems and counts the rest', () => {
    const report = new ConvertReport();
    for (let i = 0; i < 5000; i++) report.problem('f', i, 'bad');
    expect(report.problems).toHaveLength(1000);
    expect(report.problemCount).toBe(5000);
  });
});
