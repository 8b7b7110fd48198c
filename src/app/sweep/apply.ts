/** Sets swept values into a config document before it is validated: paths name config keys, `params.X` is the one strategy's params. */
import { parse as parseYaml } from 'yaml';
import { joinPath } from '../../core/config.ts';
import { ConfigError } from '../../core/errors.ts';
import type { Combination } from './spec.ts';

type Key = string | number;

/**
 * Returns the keys a sweep path names in `doc` (the parsed YAML): dots and `[i]` both index arrays,
 * `strategies.ID` names a strategy by its id, and `params.X` is `strategies.0.params.X` when the config
 * has exactly one strategy. Throws ConfigError naming the path when it cannot be followed.
 */
export function resolveSweepPath(doc: unknown, path: string): Key[] {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  const strategies = isRecord(doc) && Array.isArray(doc['strategies']) ? doc['strategies'] : undefined;
  if (parts[0] === 'params') {
    if (strategies === undefined || strategies.length !== 1) {
      throw new ConfigError(`--sweep ${path}`, `params.X is short for the one strategy's params; this config has ${strategies?.length ?? 0} strategies: write strategies.N.params.X`);
    }
    parts.unshift('strategies', '0');
  }
  const keys: Key[] = [];
  let node: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const at = keys.length === 0 ? part : `${joinKeys(keys)}.${part}`;
    if (Array.isArray(node)) {
      const idx = /^\d+$/.test(part) ? Number(part) : node.findIndex((x) => isRecord(x) && x['id'] === part);
      if (idx < 0 || idx >= node.length) throw new ConfigError(`--sweep ${path}`, `${at}: no such entry (${node.length} entries${keys.length === 1 && keys[0] === 'strategies' ? ', or a strategy id' : ''})`);
      keys.push(idx);
      node = node[idx];
    } else if (isRecord(node) || node === undefined) {
      keys.push(part);
      node = isRecord(node) ? node[part] : undefined;
    } else {
      throw new ConfigError(`--sweep ${path}`, `${joinKeys(keys)} is a value, not a section: ${part} cannot be set in it`);
    }
    if (last && (isRecord(node) || Array.isArray(node))) throw new ConfigError(`--sweep ${path}`, `${joinKeys(keys)} is a section, not a value: name one of its keys`);
  }
  return keys;
}

/**
 * Returns a copy of `doc` with each of the combination's values set at its path. A value takes the type
 * of the one it replaces: text where the config has a string (quantity: "0.002") or the value says so
 * (`text`), else as YAML reads it (4 a number, true a boolean). Missing sections on the way are created; validation then names unknown keys.
 */
export function withValues(doc: unknown, combo: Combination): unknown {
  const out = structuredClone(doc ?? {});
  for (const { path, value, text } of combo) {
    const keys = resolveSweepPath(out, path);
    let node = out as Record<Key, unknown>;
    for (const k of keys.slice(0, -1)) {
      if (node[k] === undefined || node[k] === null) node[k] = {};
      node = node[k] as Record<Key, unknown>;
    }
    const last = keys[keys.length - 1]!;
    node[last] = text === true || typeof node[last] === 'string' ? value : yamlValue(path, value);
  }
  return out;
}

function joinKeys(keys: readonly Key[]): string {
  return joinPath('', keys);
}

function yamlValue(path: string, text: string): unknown {
  try {
    return parseYaml(text) as unknown;
  } catch (e) {
    throw new ConfigError(`--sweep ${path}`, `value ${JSON.stringify(text)} is not a YAML value: ${(e as Error).message}`);
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
