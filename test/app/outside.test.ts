// bhtrade from outside the repo, as a user types it: a strategy written in a temporary folder imports 'bhtrade' and runs; every command has --help; --version; what the command line does not know exits 2 saying so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './scenario.ts';

const BIN = join(ROOT, 'bin/bhtrade.js');
const tmp = mkdtempSync(join(tmpdir(), 'bhtrade-outside-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[], cwd = tmp) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' }, timeout: 60_000 });
}

describe('a strategy outside the repo', () => {
  it('new-strategy --dir writes a template importing bhtrade, which runs from that folder and ends with a summary', () => {
    const dir = join(tmp, 'bots');
    const made = cli(['new-strategy', 'my-idea', '--dir', dir]);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const code = readFileSync(join(dir, 'strategies/my-idea.ts'), 'utf8');
    expect(code).toContain("from 'bhtrade'");
    expect(code).not.toContain('/src/');
    // No package.json above the folder: one saying it holds ES modules is written.
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toEqual({ private: true, type: 'module' });
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);

    const run = cli(['run', 'config/my-idea.yaml', '--duration', '3s'], dir);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; plugin?: string; summary?: { id: string; orders: number } });
    expect(lines.some((l) => l.msg === 'strategy started' && l.plugin === 'my-idea')).toBe(true);
    const summary = lines.find((l) => l.msg.startsWith('summary my_idea[stopped]: orders='));
    expect(summary?.summary?.id).toBe('my_idea');
    expect(summary!.msg).toMatch(/ fills=\d+ volume=.* fees=.* pnl=.* open=/);
    expect(lines.at(-1)?.msg).toBe('stopped');

    // Its config names no data: the backtest replays the sample that ships with bhtrade, wherever the folder is.
    const bt = cli(['backtest', 'config/my-idea.yaml', '--out', join(tmp, 'my-idea-backtest')], dir);
    expect(bt.status, bt.stderr).toBe(0);
    expect(bt.stdout).toMatch(/^my-idea: BTCUSDT, 2024-08-08T23:54:13\.937Z to 2024-08-08T23:56:12\.992Z, \d+ events, seed 1$/m);
    expect(existsSync(join(tmp, 'my-idea-backtest/summary.json'))).toBe(true);

    // Once the package is installed there (a link, as npm link makes), tsc checks the strategy against its types with the tsconfig written.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules/bhtrade'));
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8', timeout: 120_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000);

  it('a .ts strategy in a folder that is not an ES module package fails with what to do, exit 2', () => {
    const dir = join(tmp, 'cjs');
    expect(cli(['new-strategy', 'plain', '--dir', dir]).status).toBe(0);
    rmSync(join(dir, 'package.json'));
    rmSync(join(dir, 'tsconfig.json'));
    const run = cli(['run', 'config/plain.yaml', '--duration', '1s'], dir);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('put {"type": "module"} in the package.json of its folder, or name it .mts');
  }, 60_000);
});

describe('the command line', () => {
  it('--version prints the package version and exits 0', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-v']) {
      const r = cli([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`bhtrade ${version}\n`);
    }
  });

  it.each(['run', 'venue', 'new-strategy', 'record'])('%s --help prints its usage and options and exits 0', (cmd) => {
    for (const args of cmd === 'run' ? [[cmd, '--help'], [cmd, '-h'], ['help', cmd]] : [[cmd, '--help']]) {
      const r = cli(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: npx bhtrade ${cmd} `));
      expect(r.stdout).toContain('--help');
    }
  });

  it('--help lists every command as a user types it', () => {
    const r = cli(['--help']);
    expect(r.status).toBe(0);
    for (const cmd of ['run CONFIG', 'venue', 'new-strategy NAME', 'record', '--version']) expect(r.stdout).toContain(`npx bhtrade ${cmd}`);
  });

  it.each([
    [['frobnicate'], "bhtrade: unknown command 'frobnicate'"],
    [['--frob'], 'bhtrade: unknown option --frob'],
    [['help', 'frobnicate'], "bhtrade: unknown command 'frobnicate'"],
    [['run', 'config/default.yaml', '--frob'], 'bhtrade run: unknown option --frob'],
    [['venue', '--frob'], 'bhtrade venue: unknown option --frob'],
    [['new-strategy', 'x', '--frob'], 'bhtrade new-strategy: unknown option --frob'],
    [['record', '--frob'], 'bhtrade record: unknown option --frob'],
  ])('%j exits 2 saying what it does not know', (args, message) => {
    const r = cli(args, ROOT);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
