// `bhtrade record`'s command line: flags and a config file make one checked plan; a bad flag or key exits 2 naming it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { recordCommand } from '../../../src/cli/record.ts';
import { PACKAGE_VENUE_CONFIG, planRecord } from '../../../src/cli/record-config.ts';
import { loadVenueConfig } from '../../../src/sim/server/config.ts';
import { ROOT } from '../../app/scenario.ts';
import { startVenueOnClock } from '../../venue/streams/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'bhtrade-record-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bhtrade record arguments', () => {
  it('plans from flags alone: the embedded venue from the package config, defaults for the rest', () => {
    const p = planRecord(['--venue', 'embedded', '--symbols', 'BTCUSDT, ETHUSDT', '--out', join(tmp, 'o'), '--duration', '90s']);
    expect(p).toMatchObject({ venueConfig: PACKAGE_VENUE_CONFIG, out: join(tmp, 'o'), durationMs: 90_000 });
    expect(p.config).toMatchObject({ venue: 'embedded', symbols: ['BTCUSDT', 'ETHUSDT'], topics: ['diffDepth', 'trade', 'index'], rotateBytes: 64 * 1024 * 1024, hourly: true });
    expect(planRecord(['--venue', 'https://api.example.com', '--symbols', 'X']).config.venue).toEqual({ rest: 'https://api.example.com', ws: 'wss://api.example.com' });
  });

  it('reads a config file, relative paths from its folder, flags overriding it', () => {
    const f = join(tmp, 'rec.yaml');
    writeFileSync(f, 'venue: embedded\nembedded: { config: ../venue.yaml, seed: 3 }\nsymbols: [BTCUSDT]\ntopics: [diffDepth, trade, kline_1m]\nout: data/raw\nrotateBytes: 100000\n');
    const p = planRecord([f, '--symbols', 'ETHUSDT']);
    expect(p).toMatchObject({ venueConfig: join(tmp, '../venue.yaml'), out: join(tmp, 'data/raw') });
    expect(p.config).toMatchObject({ symbols: ['ETHUSDT'], topics: ['diffDepth', 'trade', 'kline_1m'], rotateBytes: 100_000, embedded: { seed: 3 } });
  });

  it('reads a run config too: its venue, its strategies\' symbols, its record: section', () => {
    const p = planRecord([join(ROOT, 'config/default.yaml')]);
    expect(p).toMatchObject({ venueConfig: join(ROOT, 'config/venue.yaml'), out: join(ROOT, 'config/recordings') });
    expect(p.config).toMatchObject({ venue: 'embedded', symbols: ['BTCUSDT'], topics: ['diffDepth', 'trade', 'index'] });
    const f = join(tmp, 'run.yaml');
    writeFileSync(f, `venue: embedded\nstrategies:\n  - { id: a, use: x.ts, symbols: [BTCUSDT] }\nrecord: { out: rec, symbols: [ETHUSDT], topics: [trade] }\n`);
    expect(planRecord([f])).toMatchObject({ out: join(tmp, 'rec'), config: { symbols: ['ETHUSDT'], topics: ['trade'] } });
    writeFileSync(f, `venue: embedded\nstrategies:\n  - { id: a, use: x.ts, symbols: [BTCUSDT] }\nrecord: { outt: rec }\n`);
    expect(() => planRecord([f])).toThrow(`${f}: record.outt: unknown key`);
  });

  it('records every symbol of the embedded venue when no symbols are given', () => {
    const vc = loadVenueConfig(PACKAGE_VENUE_CONFIG);
    const all = [...vc.instruments.spot, ...vc.instruments.contracts].map((i) => i.symbol);
    expect(all.length).toBeGreaterThan(1);
    expect(planRecord(['--venue', 'embedded']).config.symbols).toEqual(all);
  });

  it.each([
    [['--venue', 'http://127.0.0.1:1'], /no symbols: give --symbols A,B or a symbols: key/],
    [['--symbols', 'X'], /no venue/],
    [['--venue', 'embedded', '--symbols', 'X', '--topics', 'trade,depths'], /^--topics: "depths" must be one of trade/],
    [['--venue', 'ftp://x', '--symbols', 'X'], /^--venue: "ftp:\/\/x" must be an http:\/\/ or https:\/\/ URL$/],
    [['--venue', 'https://a.example', '--ws', 'https://b.example', '--symbols', 'X'], /^--ws: "https:\/\/b.example" must be a ws:\/\/ or wss:\/\/ URL$/],
    [['--venue', 'embedded', '--symbols', 'X', '--duration', '5 minutes'], /--duration must be a duration/],
    [['--venue', 'embedded', '--symbols', 'X', '--duration', '600h'], /^--duration must be at most 596h \(about 24 days\), got "600h"; to record longer, give no --duration/],
    [['--venue', 'embedded', '--symbols', 'X', '--rotate-bytes', '100'], /^--rotate-bytes: 100 must be at least 4096 \(bytes\)$/],
    [[join(ROOT, 'config/venue.yaml')], /venue\.yaml: is a simulated venue's config/],
    [['--venue', 'embedded', '--symbols', 'X', '--outdir', 'x'], /unknown option --outdir/],
    [['--venue', '--symbols', 'BTCUSDT'], /^--venue needs a value, got the option --symbols instead$/],
    [['--venue', 'embedded', '--ws', 'ws://127.0.0.1:1'], /^--ws goes with --venue REST_URL: the embedded venue has its own$/],
    [['--venue', 'http://127.0.0.1:1', '--symbols', 'X', '--seed', '3'], /^--seed goes with the embedded venue/],
  ])('refuses %j', (args, message) => {
    expect(() => planRecord(args)).toThrow(message);
  });

  it('names --out when it, or a folder it would go in, is a file', () => {
    const f = join(tmp, 'a-file');
    writeFileSync(f, '');
    expect(() => planRecord(['--venue', 'embedded', '--symbols', 'BTCUSDT', '--out', f])).toThrow(`--out ${f}: is a file, not a folder`);
    expect(() => planRecord(['--venue', 'embedded', '--symbols', 'BTCUSDT', '--out', join(f, 'rec')])).toThrow(`--out ${join(f, 'rec')}: ${f} is a file, not a folder`);
  });

  it('exits 2 with the message and usage on a bad key in the file', () => {
    const f = join(tmp, 'bad.yaml');
    writeFileSync(f, 'venue: embedded\nsymbols: [BTCUSDT]\nrotate: 5\n');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'record', f], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${f}: rotate: unknown key`);
    expect(r.stderr).toContain('Usage: npx bhtrade record');
  });

  it('names --symbols when the embedded venue does not list a symbol, before starting it, and exits 2', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((t) => (err.push(String(t)), true));
    try {
      expect(await recordCommand(['--venue', 'embedded', '--symbols', 'BTCUSDT,btcusdt', '--out', join(tmp, 'embedded')])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(err.join('')).toMatch(/^bhtrade record: --symbols: the embedded venue lists no btcusdt \(it has BTCUSDT, .*; names are case-sensitive\)\n$/);
  });

  it('names --symbols when a remote venue does not list a symbol given there, and exits 2', async () => {
    const v = await startVenueOnClock();
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((t) => (err.push(String(t)), true));
    try {
      expect(await recordCommand(['--venue', v.url, '--symbols', 'BTCUSDT,XX', '--out', join(tmp, 'remote')])).toBe(2);
    } finally {
      spy.mockRestore();
      await v.close();
    }
    expect(err.join('')).toContain('bhtrade record: --symbols: the venue lists no XX (it has BTCUSDT,');
  });
});
