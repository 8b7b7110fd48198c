// The venue's state file on disk: written whole through a temp file and a rename, read back as written, refused when it is not ours.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StateFile } from '../../../src/sim/server/state-file.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'venue-state-'));
  dirs.push(d);
  return d;
}

describe('StateFile', () => {
  it('has nothing to load before the first save, then loads what was saved, leaving no temp file', () => {
    const dir = tempDir();
    const f = new StateFile(join(dir, 'sub', 'state.json'));
    expect(f.load()).toBeUndefined();
    f.save('{"orders":["1","2"],"next":"3"}', 1000);
    f.save('{"orders":["1","2","3"],"next":"4"}', 2000);
    expect(f.load()).toBe('{"orders":["1","2","3"],"next":"4"}');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['state.json']);
    expect(JSON.parse(readFileSync(f.path, 'utf8'))).toMatchObject({ format: 'bhtrade-venue-state', version: 1, savedAt: 2000 });
  });

  it('refuses a file that is not a venue state, naming the file and what to do', () => {
    const dir = tempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, '{"orders": [');
    expect(() => new StateFile(path).load()).toThrow(/state\.json is not a readable venue state .*move it away to start afresh/);
    writeFileSync(path, JSON.stringify({ format: 'something-else', version: 1, state: '{}' }));
    expect(() => new StateFile(path).load()).toThrow(/is not a venue state file of version 1/);
  });

  it('keeps the previous file whole when a state cannot be written', () => {
    const dir = tempDir();
    const f = new StateFile(join(dir, 'state.json'));
    f.save('{"n":1}', 1);
    mkdirSync(`${f.path}.${process.pid}.tmp`);
    expect(() => f.save('{"n":2}', 2)).toThrow();
    expect(f.load()).toBe('{"n":1}');
  });
});
