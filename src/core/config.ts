/** Config-file plumbing shared by every YAML config: reading, `${VAR}` interpolation and zod issues turned into errors that name the bad key. */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from './errors.ts';

/** Returns why a file system call failed, in words (`no such file`), from its Node error. */
export function fileProblem(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'it is a folder, not a file';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'ENOTDIR': return 'a part of the path is not a folder';
    default: return err.message;
  }
}

/** Returns the parsed YAML document of `file`; throws ConfigError naming the file, and why, when it cannot be read or parsed. */
export function readYamlFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, `cannot be read: ${fileProblem(e)}`, { cause: e });
  }
  try {
    return parseYaml(text);
  } catch (e) {
    throw new ConfigError(file, `is not valid YAML: ${(e as Error).message}`, { cause: e });
  }
}

/** Returns `${VAR}` references in every string replaced by the environment's values; throws ConfigError naming the key and the unset variable. */
export function interpolateEnv(v: unknown, env: NodeJS.ProcessEnv, path = ''): unknown {
  if (typeof v === 'string') {
    return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const val = env[name];
      if (val === undefined || val === '') throw new ConfigError(path, `environment variable ${name} is not set`, { context: { variable: name } });
      return val;
    });
  }
  if (Array.isArray(v)) return v.map((x, i) => interpolateEnv(x, env, `${path}[${i}]`));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = interpolateEnv(x, env, path ? `${path}.${k}` : k);
    return out;
  }
  return v;
}

/** Returns `base.a.b[0]` from a key path. */
export function joinPath(base: string, parts: readonly PropertyKey[]): string {
  return parts.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : p ? `${p}.${String(k)}` : String(k)), base);
}

/** Returns the path of the key a zod issue is about; for an unknown key, the unknown key itself. */
export function issuePath(base: string, issue: z.core.$ZodIssue): string {
  const parts: PropertyKey[] = [...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) parts.push(issue.keys[0]!);
  return joinPath(base, parts);
}

/**
 * Returns a ConfigError for the most useful issue of a failed zod parse: an unknown key first (a misspelt key
 * also shows as the right key missing, and the misspelling is the fix), else the first issue.
 */
export function configErrorFromZod(
  error: z.ZodError,
  base = '',
  message: (issue: z.core.$ZodIssue) => string = (i) => i.message,
  context: Record<string, unknown> = {},
): ConfigError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  return new ConfigError(issuePath(base, issue), message(issue), { context: { ...context, issues: error.issues.length } });
}
