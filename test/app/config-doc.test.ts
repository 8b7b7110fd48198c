// docs/config.md lists every key of the run config: its table is the one rendered from the zod schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC_MARKERS, renderConfigKeys } from '../../src/app/config-doc.ts';

const DOC = join(import.meta.dirname, '../../docs/config.md');

describe('docs/config.md', () => {
  it('holds the key table generated from runConfigSchema', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(CONFIG_DOC_MARKERS.begin);
    const end = text.indexOf(CONFIG_DOC_MARKERS.end);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const want = `${CONFIG_DOC_MARKERS.begin}\n${renderConfigKeys()}\n${CONFIG_DOC_MARKERS.end}`;
    const have = text.slice(start, end + CONFIG_DOC_MARKERS.end.length);
    if (have !== want && process.env['UPDATE_DOCS'] === '1') {
      writeFileSync(DOC, text.slice(0, start) + want + text.slice(end + CONFIG_DOC_MARKERS.end.length));
      return;
    }
    expect(have).toBe(want);
  });

  it('names every top-level key of the schema and links the risk codes', () => {
    const text = readFileSync(DOC, 'utf8');
    for (const k of ['venue', 'embedded', 'strategies', 'risk', 'reconcile', 'log', 'status', 'stop']) expect(text).toContain(`| \`${k}\` |`);
    expect(text).toContain('(risk-codes.md)');
  });
});
