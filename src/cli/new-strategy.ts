/** `bhtrade new-strategy NAME`: writes a commented strategy template strategies/NAME.ts and its config config/NAME.yaml, never over an existing file. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stderr, stdout } from 'node:process';
import { strategyConfigTemplate, strategyTemplate } from '../strategy/index.ts';

const USAGE = 'Usage: bhtrade new-strategy NAME [--dir DIR]   (NAME: a letter, then letters, digits, _ or -)\n';
const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** Returns the strategy id a name gets in its config: letters, digits and _ only, at most 12. */
export function idOf(name: string): string {
  return name.replace(/-/g, '_').slice(0, 12);
}

/** Writes the two files under `dir` (default: the current folder); returns the exit code (2 for bad usage, 1 when a file exists). */
export function newStrategyCommand(argv: readonly string[]): number {
  let dir = process.cwd();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') {
      const v = argv[++i];
      if (v === undefined) {
        stderr.write(`bhtrade new-strategy: --dir needs a value\n${USAGE}`);
        return 2;
      }
      dir = v;
    } else rest.push(argv[i]!);
  }
  const [name, ...extra] = rest;
  if (name === undefined || extra.length > 0 || !NAME_RE.test(name)) {
    stderr.write(`bhtrade new-strategy: ${name === undefined ? 'NAME is missing' : extra.length > 0 ? `unexpected ${extra.join(' ')}` : `bad NAME ${JSON.stringify(name)}`}\n${USAGE}`);
    return 2;
  }
  const code = join(dir, 'strategies', `${name}.ts`);
  const config = join(dir, 'config', `${name}.yaml`);
  for (const f of [code, config]) {
    if (existsSync(f)) {
      stderr.write(`bhtrade new-strategy: ${f} exists; not overwriting it\n`);
      return 1;
    }
  }
  mkdirSync(join(dir, 'strategies'), { recursive: true });
  mkdirSync(join(dir, 'config'), { recursive: true });
  writeFileSync(code, strategyTemplate(name), { flag: 'wx' });
  writeFileSync(config, strategyConfigTemplate(name, idOf(name)), { flag: 'wx' });
  stdout.write(`wrote ${code}\nwrote ${config}\nrun it: bhtrade run ${config} --duration 1m\n`);
  return 0;
}
