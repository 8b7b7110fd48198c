// docs/risk-codes.md documents every denial code a strategy can get: the risk gate's (RISK_CODES and the
// codes its checks deny with) and the executor's own refusals (NOT_OWNER), each as a `### CODE` section
// with an example line `CODE: key=value …`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RISK_CODES } from '../../src/risk/index.ts';

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/risk-codes.md'), 'utf8');

/** Returns the .ts files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
}

/** Returns the denial codes the source files emit: `deny('CODE', …)` and `deny(id, strategy, 'CODE', …)` calls, and `code: 'CODE'` literals. */
function emittedCodes(files: readonly string[]): Set<string> {
  const codes = new Set<string>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/\bdeny\([^)]*?'([A-Z][A-Z_]+)'/g)) codes.add(m[1]!);
    for (const m of text.matchAll(/\bcode: '([A-Z][A-Z_]+)'/g)) codes.add(m[1]!);
  }
  return codes;
}

const GATE = emittedCodes(sources(join(ROOT, 'src/risk')));
const EXECUTOR = emittedCodes(sources(join(ROOT, 'src/execution')));

describe('docs/risk-codes.md', () => {
  it('finds the codes it checks in src (the grep still matches how they are emitted)', () => {
    expect([...GATE].sort()).toEqual(expect.arrayContaining(['MAX_POSITION', 'PRICE_FILTER', 'UNKNOWN_SYMBOL']));
    expect([...EXECUTOR]).toContain('NOT_OWNER');
  });

  it.each([...new Set([...RISK_CODES, ...GATE, ...EXECUTOR])].sort())('documents %s with a section and an example line', (code) => {
    expect(DOC).toContain(`\n### ${code}\n`);
    expect(DOC).toMatch(new RegExp(`\\n${code}: \\w+=`));
  });

  it('shows NOT_OWNER as the executor writes it', () => {
    expect(DOC).toMatch(/\nNOT_OWNER: clientOrderId=\S+ strategy=\S+\n/);
  });
});
