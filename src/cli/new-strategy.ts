/** `bhtrade new-strategy NAME [--dir DIR]`: writes a commented strategy template DIR/strategies/NAME.ts (importing 'bhtrade') and its config DIR/config/NAME.yaml, never over an existing file. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stderr, stdout } from 'node:process';
import { strategyConfigTemplate, strategyTemplate } from '../strategy/index.ts';

const USAGE = 'Usage: npx bhtrade new-strategy NAME [--dir DIR]   (NAME: a letter, then letters, digits, _ or -)\n';

/** `npx bhtrade new-strategy --help`. */
export const NEW_STRATEGY_HELP = `${USAGE}
Writes DIR/strategies/NAME.ts, a commented strategy that imports 'bhtrade', and DIR/config/NAME.yaml,
which runs it alone on the embedded simulated venue; never over an existing file. In a folder with no
package.json it also writes one saying "type": "module" (a strategy is an ES module) and a
tsconfig.json for checking it with tsc once bhtrade is installed there.

Options:
  --dir DIR    where to write (default: the current folder)
  -h, --help   show this help
`;
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
    if (argv[i]!.startsWith('-') && argv[i] !== '--dir') {
      stderr.write(`bhtrade new-strategy: unknown option ${argv[i]}\n${USAGE}`);
      return 2;
    }
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
  stdout.write(`wrote ${code}\nwrote ${config}\n`);
  const pkg = nearestPackageJson(resolve(dir, 'strategies'));
  if (pkg === undefined) {
    // A new project: its package.json makes the strategy an ES module, its tsconfig lets tsc check it against bhtrade's TypeScript sources.
    for (const [file, text] of [[join(dir, 'package.json'), PACKAGE_JSON], [join(dir, 'tsconfig.json'), TSCONFIG_JSON]] as const) {
      if (existsSync(file)) continue;
      writeFileSync(file, text, { flag: 'wx' });
      stdout.write(`wrote ${file}\n`);
    }
  } else if (!isModulePackage(pkg)) {
    stderr.write(`bhtrade new-strategy: ${pkg} does not say "type": "module"; add it, or rename ${name}.ts to ${name}.mts, for the strategy to load\n`);
  }
  stdout.write(`run it: npx bhtrade run ${config} --duration 1m\nbacktest it: npx bhtrade backtest ${config}\n`);
  return 0;
}

const PACKAGE_JSON = `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`;
const TSCONFIG_JSON = `${JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true,
    // bhtrade ships its TypeScript sources, whose imports end in .ts.
    noEmit: true, allowImportingTsExtensions: true,
  },
  include: ['strategies'],
}, null, 2)}\n`;

/** Returns the package.json Node reads for files in `dir` (the nearest one above), or undefined. */
function nearestPackageJson(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const f = join(d, 'package.json');
    if (existsSync(f)) return f;
    if (dirname(d) === d) return undefined;
  }
}

function isModulePackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type === 'module';
  } catch {
    return false;
  }
}
