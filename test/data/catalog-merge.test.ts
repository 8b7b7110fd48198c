// Converting more recordings into a catalog that already holds some: what is kept, what is replaced, and that the user is told.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataCommand } from '../../src/cli/data.ts';
import { tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  vi.restoreAllMocks();
});

const frame = (v: number, t: number, b: string, a: string, first = false): string =>
  `{"symbol":"BTCUSDT","topic":"diffDepth","data":[{"e":0,"t":${t},"v":"${v}_18","b":${b},"a":${a}}],"f":${first}}`;
const ns = (ms: number): string => `${BigInt(ms) * 1_000_000n + 123n}`;

/** A recording of BTCUSDT starting at `ms`: a whole book, two diffs and, with `gap`, a lost diff the recorder marked. */
function recording(dir: string, name: string, ms: number, gap: boolean): string {
  const lines = [
    `${ns(ms)} ${frame(100, ms, '[["11316.78","0.078"]]', '[["11318.96","0.0041"]]', true)}`,
    `${ns(ms + 100)} ${frame(101, ms + 100, '[["11316.78","0"]]', '[]')}`,
    `${ns(ms + 200)} ${frame(gap ? 104 : 102, ms + 200, '[["11313.16","0.01"]]', '[]')}`,
    ...(gap ? [`${ns(ms + 201)} !gap {"symbol":"BTCUSDT","after":"101_18","got":"104_18"}`] : []),
  ];
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function run(argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await dataCommand(argv);
  spy.mockRestore();
  err.mockRestore();
  return { code, out: out.join('') };
}

/** A temporary folder (removed after the test) with an instrument map of BTCUSDT and where the catalog goes. */
function workspace(): { t: ReturnType<typeof tempDir>; map: string; cat: string } {
  const t = tempDir();
  cleanup = t.remove;
  const map = join(t.dir, 'map.yaml');
  writeFileSync(map, 'instruments:\n  - { symbol: BTCUSDT, kind: spot, tick: "0.01", lot: "0.0001", base: BTC, quote: USDT, margin: USDT }\n');
  return { t, map, cat: join(t.dir, 'cat') };
}

describe('data convert into an existing catalog', () => {
  it('a recording of another day keeps the gaps of the days converted before', async () => {
    const { t, map, cat } = workspace();
    const day1 = recording(t.dir, 'day1.log', Date.UTC(2019, 7, 13, 9), true);
    const day2 = recording(t.dir, 'day2.log', Date.UTC(2019, 7, 14, 9), false);
    expect((await run(['convert', day1, '--out', cat, '--map', map])).code).toBe(0);
    expect((await run(['convert', day2, '--out', cat, '--map', map])).code).toBe(0);
    const info = await run(['info', cat]);
    expect(info.out).toContain('gaps: 1\n  BTCUSDT at 2019-08-13T09:00:00.201Z');
  });

  it('a second recording of the same day replaces that day\'s files, and the command says which', async () => {
    const { t, map, cat } = workspace();
    const morning = recording(t.dir, 'morning.log', Date.UTC(2019, 7, 13, 9), true);
    const evening = recording(t.dir, 'evening.log', Date.UTC(2019, 7, 13, 18), false);
    const first = await run(['convert', morning, '--out', cat, '--map', map]);
    expect(first.out).not.toContain('replaced');
    const second = await run(['convert', evening, '--out', cat, '--map', map]);
    expect(second.code).toBe(0);
    expect(second.out).toContain(`replaced ${join('book_deltas', 'BTCUSDT', '2019-08-13.parquet')} (4 events of an earlier conversion;`);
    // The morning's gap went with its file; both recordings in one command keep both.
    expect((await run(['info', cat])).out).toContain('gaps: 0');
    const both = await run(['convert', morning, evening, '--out', cat, '--map', map]);
    expect(both.out).toContain('replaced');
    expect((await run(['info', cat])).out).toMatch(/BTCUSDT book_deltas: 8 events, 2019-08-13T09:00:00.000Z to 2019-08-13T18:00:00.200Z\n[^]*gaps: 1\n/);
  });
});
