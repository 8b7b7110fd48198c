/** Stable hashing for results: JSON with sorted keys, so equal values hash alike whatever order their keys were set in. */
import { createHash } from 'node:crypto';

/** Returns JSON of `v` with object keys sorted at every level (arrays keep their order). */
export function stableJson(v: unknown, indent = 0): string {
  return JSON.stringify(sortKeys(v), null, indent);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Returns the hex SHA-256 of the given texts, each length-prefixed so that splitting them differently changes the hash. */
export function sha256(...parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) {
    h.update(`${Buffer.byteLength(p)}:`);
    h.update(p);
  }
  return h.digest('hex');
}
