// A truncated or corrupt input never stops a conversion silently: each problem is named with its file and line, and the rest is converted.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataCommand } from '../../src/cli/data.ts';
import { encodeMember } from '../../src/data/capture/gzip-member.ts';
import { convert } from '../../src/data/convert.ts';
import { CM_RAW, MAPPING, sampleMapping, SPOT_RAW, tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  vi.restoreAllMocks();
});

const spotLines = (): string[] => gunzipSync(readFileSync(SPOT_RAW)).toString().split('\n').filter((l) => l.length > 0);
const count = (lines: readonly string[], kind: string): number => lines.filter((l) => l.includes(kind)).length;

describe('damaged inputs', () => {
  it('a gzip file cut mid-member: the lines before the cut are converted, the cut is reported, the next file is converted whole', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const whole = readFileSync(SPOT_RAW);
    const cut = join(t.dir, 'spot_btcusdt_20240808.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const { index, report } = await convert({ inputs: [cut, CM_RAW], out: join(t.dir, 'cat'), mapping: sampleMapping() });
    const damaged = report.problems.find((p) => p.file === cut && /damaged after line \d+/.test(p.message));
    expect(damaged, JSON.stringify(report.problems)).toBeDefined();
    const kept = Number(/after line (\d+)/.exec(damaged!.message)![1]);
    const before = spotLines().slice(0, kept);
    const spotTrades = index.files.filter((f) => f.table === 'trades' && f.symbol === 'BTCUSDT').reduce((s, f) => s + f.rows, 0);
    expect(spotTrades).toBe(count(before, '@trade'));
    expect(spotTrades).toBeGreaterThan(0);
    const cmTrades = index.files.filter((f) => f.table === 'trades' && f.symbol === 'BTCUSD-PERP').reduce((s, f) => s + f.rows, 0);
    expect(cmTrades).toBe(count(gunzipSync(readFileSync(CM_RAW)).toString().split('\n'), '@trade'));
  });

  it('a damaged member in the middle of a file flushed member by member costs that member only, and no line is read twice', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const lines = spotLines();
    // One gzip member per 200 lines, as a recorder flushing every second writes them.
    const members: Buffer[] = [];
    for (let i = 0; i < lines.length; i += 200) members.push(gzipSync(`${lines.slice(i, i + 200).join('\n')}\n`));
    const bad = Buffer.from(members[5]!);
    for (let i = 40; i < bad.length - 40; i += 7) bad[i] = (bad[i]! + 91) & 0xff;
    const file = join(t.dir, 'spot_btcusdt_20240808.gz');
    writeFileSync(file, Buffer.concat([...members.slice(0, 5), bad, ...members.slice(6)]));
    const { index, report } = await convert({ inputs: [file], out: join(t.dir, 'cat'), mapping: sampleMapping() });
    expect(report.problems.some((p) => /damaged after line \d+ .*reading on from the gzip member at byte \d+/.test(p.message)), JSON.stringify(report.problems)).toBe(true);
    const kept = [...lines.slice(0, 1000), ...lines.slice(1200)];
    const rows = (table: string): number => index.files.filter((f) => f.table === table).reduce((s, f) => s + f.rows, 0);
    expect(rows('trades')).toBe(count(kept, '@trade'));
    // The lost second is a lost stretch of diffs: a gap, reported.
    expect(index.gaps.length).toBe(1);
  });

  it('a bhtrade capture is read by its member lengths: a damaged member costs exactly its lines, named with the bytes skipped', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const lines = spotLines();
    const members: Buffer[] = [];
    for (let i = 0; i < lines.length; i += 200) members.push(encodeMember(Buffer.from(`${lines.slice(i, i + 200).join('\n')}\n`)));
    const bad = Buffer.from(members[5]!);
    for (let i = 40; i < bad.length - 40; i += 7) bad[i] = (bad[i]! + 91) & 0xff;
    const file = join(t.dir, 'spot_btcusdt_20240808.gz');
    writeFileSync(file, Buffer.concat([...members.slice(0, 5), bad, ...members.slice(6)]));
    const { index, report } = await convert({ inputs: [file], out: join(t.dir, 'cat'), mapping: sampleMapping() });
    // The damaged member, then the gap its lost diffs leave in the book (reported on the first line after it).
    expect(report.problems).toEqual([
      { file, line: 1001, message: expect.stringMatching(new RegExp(`^a member('s deflate data is damaged| fails its CRC-32).*; ${bad.length} bytes skipped to the next member$`)) },
      { file, line: 1001, message: expect.stringMatching(/^version gap in BTCUSDT/) },
    ]);
    const kept = [...lines.slice(0, 1000), ...lines.slice(1200)];
    const rows = (table: string): number => index.files.filter((f) => f.table === table).reduce((s, f) => s + f.rows, 0);
    expect(rows('trades')).toBe(count(kept, '@trade'));
    expect(rows('book_deltas')).toBeGreaterThan(0);
    expect(index.gaps.length).toBe(1);
  });

  it('garbage, bad JSON, a bad receive time and a bad price are each reported with their line; every other line is kept', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const lines = spotLines();
    const tradeAt = lines.findIndex((l) => l.includes('@trade'));
    const bad = [...lines];
    bad[tradeAt] = bad[tradeAt]!.replace(/"p":"[^"]+"/, '"p":"61837.631"');
    bad.splice(100, 0, 'hello');
    bad.splice(200, 0, '1723161254087896568 {"stream":"btcusdt@trade","data":{');
    bad.splice(300, 0, '17231612x4087896568 {"stream":"btcusdt@trade","data":{}}');
    const file = join(t.dir, 'spot_btcusdt_20240808.gz');
    writeFileSync(file, gzipSync(`${bad.join('\n')}\n`));
    const { index, report } = await convert({ inputs: [file], out: join(t.dir, 'cat'), mapping: sampleMapping() });
    expect(report.problems.map((p) => [p.line, p.message.split(' (')[0]!.split(';')[0]])).toEqual([
      [tradeAt + 1, 'data.p: must be a multiple of 0.01, got 61837.631'],
      [101, 'is not "<ns> <frame>"'],
      [201, 'not a JSON object'],
      [301, 'receive time: must be an integer count of nanoseconds, got "17231612x4087896568"'],
    ]);
    const trades = index.files.filter((f) => f.table === 'trades').reduce((s, f) => s + f.rows, 0);
    expect(trades).toBe(count(lines, '@trade') - 1);
    expect(index.gaps).toEqual([]);
  });

  it('the command says how many problems there were, names them, and exits 1', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const file = join(t.dir, 'spot_btcusdt_20240808.gz');
    writeFileSync(file, gzipSync(`${spotLines().slice(0, 50).join('\n')}\nnot a line\n`));
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const code = await dataCommand(['convert', file, '--out', join(t.dir, 'cat'), '--map', MAPPING]);
    expect(code).toBe(1);
    expect(err.join('')).toContain(`${file}:51: receive time: must be an integer count of nanoseconds, got "not"; skipped`);
    expect(err.join('')).toContain('1 problem(s) (see above); everything else was converted');
  });
});
