// The slow-file reporter lists files over 10 s, slowest first, with their time in seconds.
import { describe, expect, it } from 'vitest';
import { slowFileLines } from './slow-files-reporter.ts';

describe('slow test files', () => {
  it('lists only the files over the limit, slowest first', () => {
    expect(slowFileLines([
      { path: 'test/a.test.ts', ms: 9_999 },
      { path: 'test/b.test.ts', ms: 12_345 },
      { path: 'test/c.test.ts', ms: 30_000 },
      { path: 'test/d.test.ts', ms: 10_000 },
    ])).toEqual(['slow test file: test/c.test.ts 30.0 s', 'slow test file: test/b.test.ts 12.3 s']);
  });
});
