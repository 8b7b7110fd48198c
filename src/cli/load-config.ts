/** The start every config-driven command shares: its arguments parsed, then the config file loaded, each failure a message and exit code 2. */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stderr } from 'node:process';
import { configCatalog, loadRunConfig, parseTime, type LoadedConfig } from '../app/config.ts';
import { fileProblem } from '../core/config.ts';
import { ConfigError } from '../core/errors.ts';
import { CATALOG_FILE, readCatalog } from '../data/catalog.ts';

/** Returns the parsed arguments and the loaded config, or 2 after writing what was wrong (with the usage for bad arguments). */
export function argsAndConfig<A extends { readonly config: string }>(
  command: string, argv: readonly string[], parse: (argv: readonly string[]) => A, usage: string,
): { args: A; loaded: LoadedConfig } | 2 {
  let args: A;
  try {
    args = parse(argv);
  } catch (e) {
    stderr.write(`bhtrade ${command}: ${(e as Error).message}\n${usage}`);
    return 2;
  }
  try {
    return { args, loaded: loadRunConfig(args.config, process.env) };
  } catch (e) {
    stderr.write(`bhtrade ${command}: ${configErrorText(args.config, e)}\n`);
    return 2;
  }
}

/** Returns the text of an error loading the config `file`: one about the file itself (it cannot be read, it is not YAML) already starts with its path; one about a key is prefixed with it. */
function configErrorText(file: string, e: unknown): string {
  return e instanceof ConfigError && e.path === file ? e.message : `${file}: ${(e as Error).message}`;
}

/**
 * Returns why the catalog folder `dir` (from --data, or the config's backtest.data) cannot be replayed:
 * it does not exist, is not a folder, or holds no valid catalog.json; undefined when it can be.
 */
export function catalogProblem(dir: string): string | undefined {
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : fileProblem(e);
  }
  if (!st.isDirectory()) return 'is not a folder';
  if (!existsSync(join(dir, CATALOG_FILE))) return `is not a catalog: it holds no ${CATALOG_FILE} (make one with \`npx bhtrade data convert RAW... --out CATALOG\`)`;
  try {
    readCatalog(dir);
  } catch (e) {
    return `is not a valid catalog: ${(e as Error).message}`;
  }
  return undefined;
}

/**
 * Returns 2 after writing what is wrong with the catalog a config-driven command would replay (`data`, the
 * --data option, else the config's backtest.data, relative to its folder, else the shipped sample); undefined when it can be read.
 */
export function checkCatalog(command: string, loaded: LoadedConfig, data: string | undefined, configPath: string): 2 | undefined {
  const dir = configCatalog(loaded, data);
  const problem = catalogProblem(dir);
  if (problem === undefined) return undefined;
  const given = loaded.config.backtest.data;
  const what = data !== undefined ? `--data ${data}` : given !== undefined ? `${configPath}: backtest.data ${given} (${dir})` : `the sample catalog that ships with bhtrade (${dir})`;
  stderr.write(`bhtrade ${command}: ${what}: ${problem}\n`);
  return 2;
}

/**
 * Returns why `dir` (an --out folder the command will make or write into) cannot be one: a file is there, or a file
 * stands where one of its parent folders would go; undefined when it can.
 */
export function outProblem(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(d)) return statSync(d).isDirectory() ? undefined : d === resolve(dir) ? 'is a file, not a folder' : `${d} is a file, not a folder`;
    if (dirname(d) === d) return undefined;
  }
}

/** Returns the CONFIG argument a command takes once: `a` when it is the first positional argument; throws for an unknown option or a second one. */
function configArgument(a: string, config: string | undefined): string {
  if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
  if (config !== undefined) throw new Error(`unexpected argument ${a}`);
  return a;
}

/** Returns the CONFIG argument, or throws when the command line had none. */
function requireConfig(config: string | undefined): string {
  if (config === undefined) throw new Error('CONFIG is missing');
  return config;
}

/**
 * Splits a config-driven command's arguments into its CONFIG and the values of its options, each
 * given as `--name value` or `--name=value` (in order, so a repeated option keeps every value);
 * throws naming an option without a value (or with the next option taken for it), an unknown option, a
 * second CONFIG or a missing one.
 */
export function configAndOptions<N extends string>(argv: readonly string[], names: readonly N[]): { config: string; values: Map<N, string[]> } {
  let config: string | undefined;
  const values = new Map<N, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = names.find((o) => a === o || a.startsWith(`${o}=`));
    if (name === undefined) {
      config = configArgument(a, config);
      continue;
    }
    const inline = a.includes('=');
    const v = inline ? a.slice(a.indexOf('=') + 1) : argv[++i];
    values.set(name, [...(values.get(name) ?? []), requireValue(name, v, inline)]);
  }
  return { config: requireConfig(config), values };
}

/**
 * Returns why `v`, read as the value of the option `flag`, is none: missing, or the next option (an empty shell
 * variable dropped the value, and the next option would be taken for it); undefined when it is a value. A value
 * written inline (`--flag=v`) is taken as written.
 */
export function valueProblem(flag: string, v: string | undefined, inline = false): string | undefined {
  if (v === undefined || v === '') return `${flag} needs a value`;
  if (!inline && v.startsWith('--')) return `${flag} needs a value, got the option ${v} instead`;
  return undefined;
}

/** Returns `v` as the value of the option `flag`; throws valueProblem's message when it is none. */
export function requireValue(flag: string, v: string | undefined, inline = false): string {
  const bad = valueProblem(flag, v, inline);
  if (bad !== undefined || v === undefined) throw new Error(bad);
  return v;
}

/** Returns a --from/--to value after checking it is a time the commands take; throws naming the option. */
export function timeOption(name: string, v: string): string {
  if (parseTime(v) === undefined) throw new Error(`${name} must be an ISO time such as 2024-08-08T23:55:00Z or epoch ms, got ${JSON.stringify(v)}`);
  return v;
}
