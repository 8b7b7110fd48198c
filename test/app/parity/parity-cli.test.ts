// `bhtrade parity`'s command line: its flags, and what it refuses at once with exit 2 naming the flag or key.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseParityArgs } from '../../../src/cli/parity.ts';
import { ROOT } from '../scenario.ts';
import { testDir } from '../../fixtures/temp-dir.ts';

function cli(args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

describe('bhtrade parity arguments', () => {
  it('reads the config, --duration, --depth-push, --out and --recording, with 10 minutes and 50 ms by default', () => {
    expect(parseParityArgs(['c.yaml'])).toEqual({ config: 'c.yaml', durationMs: 600_000, depthPushMs: 50 });
    expect(parseParityArgs(['c.yaml', '--duration', '20s', '--depth-push=100ms', '--out', 'o', '--recording', 'r'])).toEqual({
      config: 'c.yaml', durationMs: 20_000, depthPushMs: 100, out: 'o', recording: 'r',
    });
  });

  it.each([
    [[], 'CONFIG is missing'],
    [['c.yaml', '--duration', 'soon'], '--duration must be a duration'],
    [['c.yaml', '--duration', '90000000000s'], '--duration must be at most 24h'],
    [['c.yaml', '--duration', '25h'], '--duration must be at most 24h'],
    [['c.yaml', '--depth-push', '5ms'], '--depth-push must be a duration of at least 10ms'],
    [['c.yaml', '--out'], '--out needs a value'],
    [['c.yaml', '--out', '--duration', '5m'], '--out needs a value, got the option --duration instead'],
    [['c.yaml', '--duration', '0s'], '--duration must be a duration such as 30s or 5m, got "0s"'],
    [['c.yaml', '--frob'], 'unknown option --frob'],
    [['a.yaml', 'b.yaml'], 'unexpected argument b.yaml'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseParityArgs(argv)).toThrow(message);
  });

  it('--help prints its usage; a config on a remote venue or with two symbols exits 2 naming the key', () => {
    const help = cli(['parity', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npx bhtrade parity CONFIG /);
    expect(cli(['--help']).stdout).toContain('npx bhtrade parity CONFIG');
    const dir = testDir('bh-parity-cli-');
    const remote = join(dir, 'remote.yaml');
    writeFileSync(remote, 'venue: { rest: "http://127.0.0.1:1", ws: "ws://127.0.0.1:1", apiKey: k, secret: s }\nstrategies: [{ id: mm, use: x.ts, symbols: [BTCUSDT] }]\n');
    const r = cli(['parity', remote, '--duration', '1s', '--out', join(dir, 'out')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('venue: bhtrade parity runs the config on the embedded simulated venue');
    const two = join(dir, 'two.yaml');
    writeFileSync(two, `venue: embedded\nstrategies: [{ id: a, use: ${join(ROOT, 'strategies/market-maker.ts')}, symbols: [BTCUSDT, ETHUSDT] }]\n`);
    const t = cli(['parity', two, '--duration', '1s', '--out', join(dir, 'out2')]);
    expect(t.status).toBe(2);
    expect(t.stderr).toContain('strategies: bhtrade parity compares one traded symbol');
    // --recording names a folder a live parity run wrote: anything else stops before any file is touched.
    const missing = cli(['parity', 'config/parity-mm.yaml', '--recording', join(dir, 'nowhere'), '--out', join(dir, 'out3')]);
    expect(missing.stderr).toBe(`bhtrade parity: config/parity-mm.yaml: --recording: ${join(dir, 'nowhere')}: no such folder\n`);
    expect(missing.status).toBe(2);
    const notOne = cli(['parity', 'config/parity-mm.yaml', '--recording', dir, '--out', join(dir, 'out3')]);
    expect(notOne.stderr).toBe(`bhtrade parity: config/parity-mm.yaml: --recording: ${dir} is not the recording of a parity run (the recording folder of its --out, with market-*.cap.gz and orders-*.cap.gz): it holds no market-*.cap.gz\n`);
    expect(notOne.status).toBe(2);
    expect(existsSync(join(dir, 'out3'))).toBe(false);
    // Captures with nothing of the config's symbol: the recording of another config, refused as one.
    const other = join(dir, 'other');
    mkdirSync(other);
    for (const stream of ['market', 'orders']) writeFileSync(join(other, `${stream}-20261129T045540Z-0000.cap.gz`), gzipSync(''));
    const wrong = cli(['parity', 'config/parity-mm.yaml', '--recording', other, '--out', join(dir, 'out4')]);
    expect(wrong.stderr).toMatch(`\nbhtrade parity: config/parity-mm.yaml: --recording: ${other} holds no market data of BTCUSDT, the symbol the config trades (it holds none)\n`);
    expect(wrong.status).toBe(2);
    const taken = cli(['parity', 'config/parity-mm.yaml', '--duration', '1s', '--out', remote]);
    expect(taken.stderr).toBe(`bhtrade parity: --out ${remote}: is a file, not a folder\n`);
    expect(taken.status).toBe(2);
  }, 120_000);
});
