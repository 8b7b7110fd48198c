/** The start every config-driven command shares: its arguments parsed, then the config file loaded, each failure a message and exit code 2. */
import { stderr } from 'node:process';
import { loadRunConfig, parseTime, type LoadedConfig } from '../app/config.ts';

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
    stderr.write(`bhtrade ${command}: ${args.config}: ${(e as Error).message}\n`);
    return 2;
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
 * throws naming an option without a value, an unknown option, a second CONFIG or a missing one.
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
    const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
    if (v === undefined || v === '') throw new Error(`${name} needs a value`);
    values.set(name, [...(values.get(name) ?? []), v]);
  }
  return { config: requireConfig(config), values };
}

/** Returns a --from/--to value after checking it is a time the commands take; throws naming the option. */
export function timeOption(name: string, v: string): string {
  if (parseTime(v) === undefined) throw new Error(`${name} must be an ISO time such as 2024-08-08T23:55:00Z or epoch ms, got ${JSON.stringify(v)}`);
  return v;
}
