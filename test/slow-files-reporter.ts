// A vitest reporter beside the default one: after the run it names every test file that took longer than 10 s, so slow tests stay visible.
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Files slower than this are listed. */
export const SLOW_FILE_MS = 10_000;

/** Returns the lines `slow test file: PATH N.N s` for the modules over `limitMs`, slowest first. */
export function slowFileLines(modules: readonly { path: string; ms: number }[], limitMs = SLOW_FILE_MS): string[] {
  return modules
    .filter((m) => m.ms > limitMs)
    .sort((a, b) => b.ms - a.ms)
    .map((m) => `slow test file: ${m.path} ${(m.ms / 1000).toFixed(1)} s`);
}

/** Prints the slow files at the end of the run (the default reporter's summary stays as it is). */
export default class SlowFilesReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const modules = testModules.map((m) => {
      const d = m.diagnostic();
      // What a user waits for: importing the file and running its tests and hooks.
      return { path: relative(process.cwd(), m.moduleId), ms: d.collectDuration + d.setupDuration + d.duration };
    });
    for (const line of slowFileLines(modules)) process.stdout.write(`${line}\n`);
  }
}
