/** The start every config-driven command shares: its arguments parsed, then the config file loaded, each failure a message and exit code 2. */
import { stderr } from 'node:process';
import { loadRunConfig, type LoadedConfig } from '../app/config.ts';

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
export function configArgument(a: string, config: string | undefined): string {
  if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
  if (config !== undefined) throw new Error(`unexpected argument ${a}`);
  return a;
}

/** Returns the CONFIG argument, or throws when the command line had none. */
export function requireConfig(config: string | undefined): string {
  if (config === undefined) throw new Error('CONFIG is missing');
  return config;
}
