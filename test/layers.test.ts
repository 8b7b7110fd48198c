import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

function cruise(tree: string): { status: number | null; out: string } {
  const r = spawnSync(depcruise, ['src', '--config', join(root, '.dependency-cruiser.cjs')], {
    cwd: join(root, 'test', 'fixtures', 'layers', tree),
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('layering check', () => {
  it('fails on an import that points up the layers, naming the rule', () => {
    const r = cruise('bad');
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('core-imports-only-nothing');
    expect(r.out).toContain('src/core/clock.ts');
  });

  it('passes a tree whose imports point inward', () => {
    const r = cruise('good');
    expect(r.out).toContain('no dependency violations');
    expect(r.status).toBe(0);
  });
});
