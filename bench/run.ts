/** Prints the machine's state (machine.ts), then runs every benchmark under bench/ in turn; each prints its figures and ends with its `bench NAME: ...` line. */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineLine } from './machine.ts';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

// Figures depend on the machine's state at the time: printed first, so they are read against it.
console.log(machineLine());
for (const f of files) {
  const mod = (await import(join(here, f))) as { run: () => Promise<void> };
  await mod.run();
}
