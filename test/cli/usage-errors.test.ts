// Config-driven commands as a user meets their mistakes: a missing config file is named once with the
// reason, and a --data (or backtest.data) folder that is no catalog is bad usage (exit 2) naming the option,
// the path and the reason, before any run starts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backtestCommand } from '../../src/cli/backtest.ts';
import { lookaheadCommand } from '../../src/cli/lookahead.ts';
import { parityCommand } from '../../src/cli/parity.ts';
import { recordCommand } from '../../src/cli/record.ts';
import { runCommand } from '../../src/cli/run.ts';
import { venueCommand } from '../../src/cli/venue.ts';

const EXAMPLE = resolve(import.meta.dirname, '../../config/backtest.yaml');

let dir: string;
let errors: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bhtrade-usage-'));
  errors = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    errors.push(String(s));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});
const printed = (): string => errors.join('');

describe('a config file that cannot be read', () => {
  it.each([
    ['run', runCommand],
    ['backtest', backtestCommand],
    ['lookahead', lookaheadCommand],
    ['parity', parityCommand],
  ] as const)('bhtrade %s names it once, with the reason, and exits 2', async (command, fn) => {
    const missing = join(dir, 'nope.yaml');
    expect(await fn([missing])).toBe(2);
    expect(printed()).toBe(`bhtrade ${command}: ${missing}: cannot be read: no such file\n`);
  });

  it('bhtrade backtest --sweep (the sweep) says the same', async () => {
    const missing = join(dir, 'nope.yaml');
    expect(await backtestCommand([missing, '--sweep', 'strategies.0.params.spreadTicks=1,2'])).toBe(2);
    expect(printed()).toBe(`bhtrade backtest: ${missing}: cannot be read: no such file\n`);
  });

  it('a folder given as the config is named once, as a folder', async () => {
    expect(await runCommand([dir])).toBe(2);
    expect(printed()).toBe(`bhtrade run: ${dir}: cannot be read: it is a folder, not a file\n`);
  });

  it('a file that is not YAML is named once', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'a: [\n');
    expect(await backtestCommand([bad])).toBe(2);
    expect(printed()).toMatch(new RegExp(`^bhtrade backtest: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not valid YAML: `));
  });

  it('a bad key is still prefixed with the file', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, readFileSync(EXAMPLE, 'utf8').replace('queue: { model: log }', 'queue: { model: fifo }'));
    expect(await backtestCommand([bad])).toBe(2);
    expect(printed()).toMatch(new RegExp(`^bhtrade backtest: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: backtest\\.queue`));
  });

  it('bhtrade record and bhtrade venue give the reason too', async () => {
    const missing = join(dir, 'nope.yaml');
    expect(await recordCommand([missing])).toBe(2);
    expect(printed()).toContain(`bhtrade record: ${missing}: cannot be read: no such file\n`);
    errors.length = 0;
    await venueCommand(['--config', missing]);
    expect(printed()).toContain(`bhtrade venue: ${missing}: cannot be read: no such file\n`);
  });
});

describe('a --data folder that is not a catalog', () => {
  it('does not exist: exit 2 naming --data, the path and the reason', async () => {
    const data = join(dir, 'nonexistent');
    expect(await backtestCommand([EXAMPLE, '--data', data])).toBe(2);
    expect(printed()).toBe(`bhtrade backtest: --data ${data}: no such folder\n`);
  });

  it('is a file: exit 2', async () => {
    const data = join(dir, 'file.txt');
    writeFileSync(data, 'x');
    expect(await backtestCommand([EXAMPLE, `--data=${data}`])).toBe(2);
    expect(printed()).toBe(`bhtrade backtest: --data ${data}: is not a folder\n`);
  });

  it('holds no catalog.json: exit 2 saying how to make one', async () => {
    expect(await backtestCommand([EXAMPLE, '--data', dir])).toBe(2);
    expect(printed()).toBe(`bhtrade backtest: --data ${dir}: is not a catalog: it holds no catalog.json (make one with \`npx bhtrade data convert RAW... --out CATALOG\`)\n`);
  });

  it('holds a broken catalog.json: exit 2 naming the file and the fault', async () => {
    writeFileSync(join(dir, 'catalog.json'), '{"format": "bhtrade-catalog"');
    expect(await backtestCommand([EXAMPLE, '--data', dir])).toBe(2);
    expect(printed()).toMatch(new RegExp(`^bhtrade backtest: --data ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not a valid catalog: \\S*catalog\\.json: is not valid JSON`));
  });

  it('in a sweep and in bhtrade lookahead too', async () => {
    const data = join(dir, 'nonexistent');
    expect(await backtestCommand([EXAMPLE, '--data', data, '--sweep', 'strategies.0.params.spreadTicks=1,2'])).toBe(2);
    expect(printed()).toBe(`bhtrade backtest: --data ${data}: no such folder\n`);
    errors.length = 0;
    expect(await lookaheadCommand([EXAMPLE, '--data', data])).toBe(2);
    expect(printed()).toBe(`bhtrade lookahead: --data ${data}: no such folder\n`);
  });

  it('the config\'s backtest.data likewise, named with the config and the folder it resolves to', async () => {
    const config = join(dir, 'c.yaml');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(config, readFileSync(EXAMPLE, 'utf8').replace('data: ../backtest/data/binance-samples', 'data: sub/none').replace('../strategies/', `${resolve(import.meta.dirname, '../../strategies')}/`));
    expect(await backtestCommand([config])).toBe(2);
    expect(printed()).toBe(`bhtrade backtest: ${config}: backtest.data sub/none (${join(dir, 'sub/none')}): no such folder\n`);
  });
});

describe('a --duration longer than Node can time', () => {
  it('bhtrade run refuses it (exit 2) instead of a run that stops as soon as it starts', async () => {
    expect(await runCommand([resolve(import.meta.dirname, '../../config/default.yaml'), '--duration', '600h'])).toBe(2);
    expect(printed()).toContain('--duration must be at most 596h (about 24 days), got "600h"; to run longer, give no --duration and stop it with Ctrl-C or SIGTERM');
  });
});
