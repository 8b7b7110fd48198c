/** `npm run chaos -- --minutes N [--seed S] [--dir DIR]`: the standing chaos run; prints its table and exits 1 unless every row is 0 (conservation "yes"). */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChaos } from './chaos/run.ts';
import { passed, report } from './chaos/tally.ts';

const USAGE = 'Usage: npm run chaos -- [--minutes N] [--seed S] [--dir DIR]\n';

function parse(argv: readonly string[]): { minutes: number; seed: number; dir?: string } {
  const out: { minutes: number; seed: number; dir?: string } = { minutes: 3, seed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const v = argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case '--minutes':
        if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) throw new Error(`--minutes must be a positive number, got ${v}`);
        out.minutes = Number(v);
        break;
      case '--seed':
        if (!/^\d{1,9}$/.test(v)) throw new Error(`--seed must be an integer from 0 to 999999999, got ${v}`);
        out.seed = Number(v);
        break;
      case '--dir': out.dir = v; break;
      default: throw new Error(`unknown option ${flag}`);
    }
  }
  return out;
}

async function main(): Promise<number> {
  let args;
  try {
    args = parse(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`chaos: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'bhtrade-chaos-'));
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const say = (line: string): void => { process.stdout.write(`[chaos ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`); };
  const tally = await runChaos({ minutes: args.minutes, seed: args.seed, dir, say, hangMs: Number(process.env['CHAOS_HANG_MS'] ?? 120_000) });
  // A child that logged an unhandled rejection and carried on still counts.
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.log'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (/unhandled ?rejection/i.test(line)) tally.unhandled.push(`${f}: ${line.slice(0, 300)}`);
  }
  const took = ((Date.now() - started) / 60_000).toFixed(1);
  const ok = passed(tally);
  // A failed run's logs are what explains it; a passing run's temporary folder (about 10 MB) would otherwise pile up, one per run.
  const keep = !ok || args.dir !== undefined;
  if (!keep) rmSync(dir, { recursive: true, force: true });
  const logs = keep ? `logs in ${dir}` : 'logs removed as it passed (--dir DIR keeps them)';
  process.stdout.write(`${report(tally, `chaos run: --minutes ${args.minutes} --seed ${args.seed}, ${took} min in all; ${logs}`)}\n`);
  return ok ? 0 : 1;
}

main().then((code) => process.exit(code), (e: unknown) => {
  process.stderr.write(`chaos: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
