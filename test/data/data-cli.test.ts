// `bhtrade data` as a user reads it: what was read, what was written, and a wrong path named as such.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataCommand } from '../../src/cli/data.ts';
import { tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  vi.restoreAllMocks();
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  const code = await dataCommand(argv);
  vi.restoreAllMocks();
  return { code, out: out.join(''), err: err.join('') };
}

const MAP = 'instruments:\n  - { symbol: BTCUSDT, kind: spot, tick: "0.01", lot: "0.0001", base: BTC, quote: USDT, margin: USDT }\n';
const ns = (ms: number): string => `${BigInt(ms) * 1_000_000n + 5n}`;
const kline = (t: number): string =>
  `{"symbol":"BTCUSDT","topic":"kline_1m","data":[{"t":${t},"s":"BTCUSDT","sn":"BTCUSDT","c":"11316.78","h":"11316.78","l":"11316.7","o":"11316.7","v":"0.5"}],"f":false}`;

/** A temporary folder (removed after the test) with an empty input folder `name`, and the convert of it into a catalog beside it with MAP. */
function rawFolder(name: string): { raw: string; convertRaw: () => ReturnType<typeof run> } {
  const t = tempDir();
  cleanup = t.remove;
  const raw = join(t.dir, name);
  mkdirSync(raw);
  const map = join(t.dir, 'map.yaml');
  writeFileSync(map, MAP);
  return { raw, convertRaw: () => run(['convert', raw, '--out', join(t.dir, 'cat'), '--map', map]) };
}

describe('bhtrade data', () => {
  it('convert counts the files a folder held and every kind of push it stored', async () => {
    const { raw, convertRaw } = rawFolder('raw');
    const t0 = Date.UTC(2019, 7, 13, 9);
    writeFileSync(join(raw, 'market-1.log'), `${ns(t0)} ${kline(t0)}\n`);
    writeFileSync(join(raw, 'market-2.log'), `${ns(t0 + 1000)} ${kline(t0)}\n`);
    const r = await convertRaw();
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^read 2 file\(s\):\n {2}bhtrade kline pushes: 2\nwrote catalog .*: 2 events of 1 symbol\(s\) in 1 Parquet files, 0 gap\(s\)\n$/);
  });

  it('convert of a run\'s recording folder skips its orders stream whole, without a problem per line', async () => {
    const { raw, convertRaw } = rawFolder('recording');
    const t0 = Date.UTC(2019, 7, 13, 9);
    writeFileSync(join(raw, 'market-20190813T090000Z-0000.log'), `${ns(t0)} !session {"format":1,"stream":"market","symbols":["BTCUSDT"]}\n${ns(t0)} ${kline(t0)}\n`);
    writeFileSync(join(raw, 'orders-20190813T090000Z-0000.log'), [
      `${ns(t0)} !session {"format":1,"stream":"orders","rest":"http://127.0.0.1:1","symbols":["BTCUSDT"]}`,
      `${ns(t0 + 1)} {"type":"request","id":1,"op":"place","args":{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT_MAKER","quantity":"0.002","price":"11316.7"}}`,
      `${ns(t0 + 2)} {"type":"answer","id":1,"op":"place","requestNs":"${ns(t0 + 1)}","report":{"status":"NEW"}}`,
    ].join('\n') + '\n');
    const r = await convertRaw();
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('  bhtrade orders stream lines skipped (not market data): 3\n');
    expect(r.out).toContain(': 1 events of 1 symbol(s)');
  });

  it('convert with no input to read writes no catalog and says so', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const cat = join(t.dir, 'cat');
    const r = await run(['convert', join(t.dir, 'typo'), '--out', cat]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(`${join(t.dir, 'typo')}: cannot be read (no such file or folder); skipped\n`
      + `bhtrade data convert: no input file found (folders are read for *.gz, *.json, *.jsonl, *.ndjson, *.log); ${cat} was not written\n`);
    expect(existsSync(cat)).toBe(false);
  });

  it('convert with an option where a value belongs names both', async () => {
    const r = await run(['convert', 'raw', '--out', '--map', 'm.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^bhtrade data: --out needs a value, got the option --map instead\n/);
  });

  it('convert with --out naming a file, or a folder inside one, says which is a file', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const file = join(t.dir, 'cat');
    writeFileSync(file, '');
    const r = await run(['convert', t.dir, '--out', file]);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(`bhtrade data: --out ${file}: is a file, not a folder`);
    const inside = await run(['convert', t.dir, '--out', join(file, 'c')]);
    expect(inside.code).toBe(2);
    expect(inside.err.split('\n')[0]).toBe(`bhtrade data: --out ${join(file, 'c')}: ${file} is a file, not a folder`);
  });

  it('info given the catalog.json file instead of its folder says to give the folder', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const file = join(t.dir, 'catalog.json');
    writeFileSync(file, '{}');
    const r = await run(['info', file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`bhtrade data: ${file}: is a file: give the catalog's folder (the one that holds catalog.json)\n`);
  });
});
