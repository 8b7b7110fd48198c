/** defineStrategy, the plugin API version, and the load-time checks of a manifest and of a strategy's params. */
import { z } from 'zod';
import { configErrorFromZod } from '../core/config.ts';
import { BhError } from '../core/errors.ts';
import type { StrategyDefinition } from './types.ts';

/** The plugin API this host implements, "MAJOR.MINOR". A plugin is compatible when its major is equal and its minor not greater. */
export const STRATEGY_API_VERSION = '1.0';

const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const VERSION_RE = /^(\d+)\.(\d+)(?:\.\d+)?$/;

/**
 * Returns the definition unchanged, typed: `ctx.params` in `create` is the output of `manifest.params`.
 * A plugin needs no other import: the loader accepts any object of this shape.
 */
export function defineStrategy<P extends z.ZodType>(def: StrategyDefinition<P>): StrategyDefinition<P> {
  return def;
}

/** An invalid plugin: not a definition, a bad manifest, or an API version this host does not implement. */
export class StrategyLoadError extends BhError {
  constructor(source: string, rule: string, opts: { cause?: unknown } = {}) {
    super('STRATEGY_LOAD', `${source}: ${rule}`, 'config', { context: { source, rule }, cause: opts.cause });
  }
}

/** Returns true when a plugin written for `wanted` runs on a host of `host` (same major, minor not newer). */
export function isApiCompatible(wanted: string, host = STRATEGY_API_VERSION): boolean {
  const w = VERSION_RE.exec(wanted);
  const h = VERSION_RE.exec(host);
  if (!w || !h) return false;
  return w[1] === h[1] && Number(w[2]) <= Number(h[2]);
}

/** Returns `value` as a StrategyDefinition after checking its shape and manifest; throws StrategyLoadError naming the source and the rule. */
export function checkDefinition(value: unknown, source: string): StrategyDefinition {
  if (value === null || typeof value !== 'object') throw new StrategyLoadError(source, 'does not export a strategy definition (use `export default defineStrategy({...})`)');
  const def = value as Partial<StrategyDefinition>;
  if (typeof def.create !== 'function') throw new StrategyLoadError(source, 'create must be a function (ctx) => handlers');
  const m = def.manifest as Partial<StrategyDefinition['manifest']> | undefined;
  if (m === null || typeof m !== 'object') throw new StrategyLoadError(source, 'manifest is missing');
  if (typeof m.name !== 'string' || !NAME_RE.test(m.name)) {
    throw new StrategyLoadError(source, `manifest.name must be 1-32 letters, digits, _ or - starting with a letter, got ${JSON.stringify(m.name)}`);
  }
  if (typeof m.apiVersion !== 'string' || !VERSION_RE.test(m.apiVersion)) {
    throw new StrategyLoadError(source, `manifest.apiVersion must be "MAJOR.MINOR", got ${JSON.stringify(m.apiVersion)}`);
  }
  if (!isApiCompatible(m.apiVersion)) {
    throw new StrategyLoadError(source, `manifest.apiVersion ${m.apiVersion} is not compatible with this host's strategy API ${STRATEGY_API_VERSION}`);
  }
  // Duck-typed: a plugin loaded through tsx or from a package may carry its own copy of zod.
  if (m.params === null || typeof m.params !== 'object' || typeof (m.params as { safeParse?: unknown }).safeParse !== 'function') throw new StrategyLoadError(source, 'manifest.params must be a zod schema (z.object({...}))');
  return def as StrategyDefinition;
}

/** Returns the validated params of a strategy; throws ConfigError naming the path of the bad key (under `path`) and the rule. */
export function parseParams<P extends z.ZodType>(def: StrategyDefinition<P>, raw: unknown, path: string): z.output<P> {
  const r = def.manifest.params.safeParse(raw ?? {});
  if (r.success) return r.data;
  const name = def.manifest.name;
  throw configErrorFromZod(r.error, path, (i) => (i.code === 'unrecognized_keys' ? `unknown key (the params of ${name} do not have it)` : i.message), { strategy: name });
}
