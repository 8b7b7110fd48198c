/** Loads a strategy plugin from a .ts or .js path (TypeScript without a build step, through tsx) or from an npm package name, and checks its manifest. */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkDefinition, StrategyLoadError } from './define.ts';
import type { StrategyDefinition } from './types.ts';

/** Returns true when `ref` names a file (relative or absolute path, or a .ts/.js/.mjs/.cjs name) rather than a package. */
export function isPathRef(ref: string): boolean {
  return ref.startsWith('.') || isAbsolute(ref) || /\.(?:[cm]?ts|[cm]?js)$/.test(ref);
}

/** How many times each file was loaded (a bound: one entry per strategy file a process runs). */
const loads = new Map<string, number>();

/**
 * Returns the URL that loads `file` anew (a run): its module-level variables start empty, as in a new
 * process, whatever ran before in this one. The first load is the plain URL, so a process that runs
 * once shows plain paths in its stack traces; later ones add `?load=N`.
 */
function freshUrl(file: string): string {
  const n = (loads.get(file) ?? 0) + 1;
  loads.set(file, n);
  const url = pathToFileURL(file).href;
  return n === 1 ? url : `${url}?load=${n}`;
}

/**
 * Returns the checked definition the module `ref` exports (its default export, or a named export
 * `strategy`). A path is resolved against `baseDir` (the config file's folder); a package name is
 * resolved from `baseDir` first, then from bhtrade's own dependencies.
 */
export async function loadStrategy(ref: string, baseDir: string = process.cwd(), key?: string): Promise<StrategyDefinition> {
  // Errors name the config key that gave the reference (`strategies[0].use`) when the caller says it.
  const source = key === undefined ? ref : `${key} (${ref})`;
  if (ref.trim() === '') throw new StrategyLoadError(key ?? '<empty>', 'a strategy reference is a path or an npm package name');
  const file = isPathRef(ref) ? resolve(baseDir, ref) : undefined;
  if (file !== undefined && !existsSync(file)) throw new StrategyLoadError(source, `no such file: ${file} (a path is read from the config file's folder, ${baseDir})`);
  const target = file !== undefined ? freshUrl(file) : resolvePackage(ref, baseDir);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(target);
  } catch (e) {
    throw new StrategyLoadError(source, `cannot be loaded: ${(e as Error).message}${hintOf(e)}`, { cause: e });
  }
  return checkDefinition(mod['default'] ?? mod['strategy'], source);
}

// A .ts file in a folder whose package.json does not say "type": "module" (or has none) is read as CommonJS, which its imports are not.
function hintOf(e: unknown): string {
  const code = (e as { code?: string }).code;
  return code === 'ERR_REQUIRE_CYCLE_MODULE' || code === 'ERR_REQUIRE_ESM'
    ? ' (a strategy is an ES module: put {"type": "module"} in the package.json of its folder, or name it .mts)'
    : '';
}

function resolvePackage(name: string, baseDir: string): string {
  try {
    return pathToFileURL(createRequire(join(baseDir, 'noop.js')).resolve(name)).href;
  } catch {
    // ESM-only packages have no `require` condition; let the import resolver try from here.
    return name;
  }
}

async function importModule(target: string): Promise<Record<string, unknown>> {
  try {
    return (await import(target)) as Record<string, unknown>;
  } catch (e) {
    // Plain Node cannot import .ts: load it through tsx without registering a global hook.
    if ((e as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw e;
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport(target, import.meta.url)) as Record<string, unknown>;
  }
}
