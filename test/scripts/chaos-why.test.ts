// The chaos run's report of a child that exited badly carries the end of its log: CI keeps only what the run prints.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { problemLines } from '../../scripts/chaos/procs.ts';

const dir = mkdtempSync(join(tmpdir(), 'bhtrade-chaos-why-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('problemLines', () => {
  it('gives the last warnings, errors and stderr lines of the log, not its info lines', () => {
    const file = join(dir, 'bot.log');
    const info = (msg: string): string => JSON.stringify({ level: 30, msg });
    writeFileSync(file, [
      info('running'),
      JSON.stringify({ level: 50, msg: 'strategy grid failed', err: { message: 'boom' } }),
      info('stopping'),
      JSON.stringify({ level: 40, msg: 'final fill sync failed' }),
      'bhtrade run: a strategy failed (set onStrategyFailure: continue to exit 0 all the same)',
      '',
    ].join('\n'));
    expect(problemLines(file).split('\n    | ').slice(1)).toEqual([
      '{"level":50,"msg":"strategy grid failed","err":{"message":"boom"}}',
      '{"level":40,"msg":"final fill sync failed"}',
      'bhtrade run: a strategy failed (set onStrategyFailure: continue to exit 0 all the same)',
    ]);
    expect(problemLines(file, 1)).toBe('\n    | bhtrade run: a strategy failed (set onStrategyFailure: continue to exit 0 all the same)');
  });

  it('cuts long lines and says nothing when there is no log', () => {
    const file = join(dir, 'long.log');
    writeFileSync(file, `${'x'.repeat(400)}\n`);
    expect(problemLines(file)).toBe(`\n    | ${'x'.repeat(300)}…`);
    expect(problemLines(join(dir, 'missing.log'))).toBe('');
  });
});
