// Plugins load from a .ts path (no build step), a .js path and an npm package name; the new-strategy template is loadable and refuses to overwrite.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadStrategy, parseParams, StrategyLoadError, strategyTemplate } from '../../src/strategy/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'bhtrade-loader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loadStrategy', () => {
  it.each(['market-maker', 'trend-follower', 'grid'])('loads strategies/%s.ts by a path relative to the config folder', async (name) => {
    const def = await loadStrategy(`../strategies/${name}.ts`, join(ROOT, 'config'));
    expect(def.manifest.name).toBe(name);
    expect(def.manifest.apiVersion).toBe('1.0');
    expect(() => parseParams(def, {}, 'p')).not.toThrow();
  });

  it('loads a plain .js plugin that does not import bhtrade at all', async () => {
    // A zod-like params object keeps the file free of imports: the loader duck-types the schema.
    writeFileSync(join(tmp, 'plain.mjs'), `export default {
      manifest: { name: 'plain', apiVersion: '1.0', params: { safeParse: (v) => ({ success: true, data: v ?? {} }) } },
      create: () => ({}),
    };\n`);
    const def = await loadStrategy('./plain.mjs', tmp);
    expect(def.manifest.name).toBe('plain');
  });

  it('loads a file anew at each call: its module-level state starts empty in every run', async () => {
    writeFileSync(join(tmp, 'counter.mjs'), `let made = 0;
export default {
  manifest: { name: 'counter', apiVersion: '1.0', params: { safeParse: (v) => ({ success: true, data: v ?? {} }) } },
  create: () => { made += 1; return { made }; },
};\n`);
    const a = await loadStrategy('./counter.mjs', tmp);
    const b = await loadStrategy('./counter.mjs', tmp);
    expect(a.create({} as never)).toEqual({ made: 1 });
    expect(a.create({} as never)).toEqual({ made: 2 });
    expect(b.create({} as never)).toEqual({ made: 1 });
  });

  it('loads a plugin from an npm package name, resolved from the config folder', async () => {
    const pkg = join(tmp, 'node_modules', 'bhtrade-strategy-demo');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'bhtrade-strategy-demo', version: '1.0.0', type: 'module', main: 'index.js' }));
    writeFileSync(join(pkg, 'index.js'), `export const strategy = {
      manifest: { name: 'demo-pkg', apiVersion: '1.0', params: { safeParse: (v) => ({ success: true, data: v ?? {} }) } },
      create: () => ({}),
    };\n`);
    const def = await loadStrategy('bhtrade-strategy-demo', tmp);
    expect(def.manifest.name).toBe('demo-pkg');
  });

  it('names the reference when the module is missing or exports no definition', async () => {
    await expect(loadStrategy('./missing.ts', tmp)).rejects.toThrow(/^\.\/missing\.ts: no such file: .*missing\.ts \(a path is read from the config file's folder/);
    writeFileSync(join(tmp, 'empty.mjs'), 'export const x = 1;\n');
    const err = await loadStrategy('./empty.mjs', tmp).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StrategyLoadError);
    expect((err as Error).message).toBe('./empty.mjs: does not export a strategy definition (use `export default defineStrategy({...})`)');
  });
});

describe('bhtrade new-strategy', () => {
  const name = `tmpl_${process.pid}`;
  const files = [join(ROOT, 'strategies', `${name}.ts`), join(ROOT, 'config', `${name}.yaml`)];
  afterAll(() => files.forEach((f) => rmSync(f, { force: true })));

  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'new-strategy', ...args], { cwd: ROOT, encoding: 'utf8' });

  it('writes a template and config that load and validate, then refuses to overwrite them', async () => {
    const first = cli(name);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(files.every((f) => existsSync(f))).toBe(true);
    const def = await loadStrategy(`../strategies/${name}.ts`, join(ROOT, 'config'));
    expect(def.manifest.name).toBe(name);
    expect(parseParams(def, { quantity: '0.002' }, 'p')).toEqual({ quantity: '0.002', offsetTicks: 10 });
    const yaml = readFileSync(files[1]!, 'utf8');
    expect(yaml).toContain(`use: ../strategies/${name}.ts`);
    const before = readFileSync(files[0]!, 'utf8');
    const again = cli(name);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists; not overwriting it');
    expect(readFileSync(files[0]!, 'utf8')).toBe(before);
  });

  it('quotes, in its onDenied comment, a denial line as docs/risk-codes.md writes one', () => {
    const said = /`text` reads like "([^"]+)"/.exec(strategyTemplate('x'))?.[1];
    expect(said).toBeDefined();
    expect(readFileSync(join(ROOT, 'docs/risk-codes.md'), 'utf8').split('\n')).toContain(said);
  });

  it('exits 2 on a bad name', () => {
    const r = cli('9bad name');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bad NAME');
  });
});
