// The focused page decoder reads exactly what hyparquet (an independent reader of the same standard files) reads, and leaves what it cannot read to it.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/random.ts';
import { intInt32s, intMicros, intNumbers } from '../../src/data/pages.ts';
import { TableFileReader, TableFileWriter } from '../../src/data/parquet.ts';
import { int32s, nsMicros } from '../../src/data/columns.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir('bhtrade-pages-');
afterAll(() => tmp.remove());

const NAMES = ['ts_event', 'ts_local', 'side', 'price', 'qty', 'flags', 'sequence'];

/** Writes `rows` book rows whose columns exercise every bit width: sorted times with jumps, random walks, wide random values, constants. */
function writeFile(file: string, rows: number, wide: (i: number) => bigint): void {
  const w = new TableFileWriter(file, 'book_deltas', {});
  const rng = new Rng(7);
  let t = 1_723_161_599_000_000_123n;
  let price = 6_180_000n;
  for (let i = 0; i < rows; i++) {
    t += rng.next() < 0.9 ? 0n : BigInt(Math.floor(rng.next() * 2 ** (1 + (i % 40))));
    price += BigInt(Math.floor(rng.next() * 401) - 200);
    w.push([t - 1_200_000n, t, 1 + (i % 2), price, BigInt(Math.floor(rng.next() * 2 ** 40)), i % 7 === 0 ? 2 : 0, wide(i)]);
  }
  w.finish();
}

describe('the page decoder of our own Parquet files', () => {
  it('decodes every int column of every row group exactly as hyparquet does, across several row groups', async () => {
    const file = join(tmp.dir, 'a.parquet');
    writeFile(file, 150_000, (i) => 112_801_745n + BigInt(i) * 3n - BigInt(i % 5));
    const r = await TableFileReader.open(file);
    expect(r.groupRows().length).toBeGreaterThan(2);
    for (let g = 0; g < r.groupRows().length; g++) {
      const fast = await r.readIntGroup(g, NAMES);
      expect(fast).toBeDefined();
      const slow = await r.readGroup(g, NAMES);
      for (const name of ['ts_event', 'ts_local']) {
        const a = intMicros(fast!.get(name)!);
        const b = nsMicros(slow[name]!);
        expect(Array.from(a.us)).toEqual(Array.from(b.us));
        expect(Array.from(a.sub)).toEqual(Array.from(b.sub));
      }
      for (const name of ['price', 'qty', 'sequence']) {
        expect(Array.from(intNumbers(fast!.get(name)!)!)).toEqual(Array.from(slow[name] as BigInt64Array, Number));
      }
      for (const name of ['side', 'flags']) expect(Array.from(intInt32s(fast!.get(name)!))).toEqual(Array.from(int32s(slow[name]!)));
    }
  });

  it('says a column beyond 2^53 is not a number instead of rounding it', async () => {
    const file = join(tmp.dir, 'b.parquet');
    writeFile(file, 1000, (i) => (i === 500 ? 9_007_199_254_740_993n : 5n));
    const r = await TableFileReader.open(file);
    const fast = await r.readIntGroup(0, ['sequence']);
    const seq = fast?.get('sequence');
    // Either the decoder leaves the column to hyparquet or it keeps it as offsets from an exact bigint: never a rounded number.
    if (seq) expect(intNumbers(seq)).toBeUndefined();
    const slow = await r.readGroup(0, ['sequence']);
    expect((slow['sequence'] as BigInt64Array)[500]).toBe(9_007_199_254_740_993n);
  });

  it('leaves string columns to hyparquet', async () => {
    const file = join(tmp.dir, 'c.parquet');
    const w = new TableFileWriter(file, 'index', {});
    w.push([1n, 2n, '30000.1', '']);
    w.finish();
    const r = await TableFileReader.open(file);
    expect(await r.readIntGroup(0, ['ts_local', 'index'])).toBeUndefined();
    expect(Array.from(intNumbers((await r.readIntGroup(0, ['ts_local']))!.get('ts_local')!)!)).toEqual([2]);
  });
});
