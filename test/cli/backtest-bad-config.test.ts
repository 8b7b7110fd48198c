// `bhtrade backtest` with a bad `backtest:` section: it stops before running, naming the key path and the rule, exit code 2, and writes nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backtestCommand } from '../../src/cli/backtest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = resolve(ROOT, 'config/backtest.yaml');
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the example config with its `backtest:` lines replaced by `section`; returns the exit code, stderr and whether anything was written. */
async function runWith(section: string): Promise<{ code: number; err: string; wrote: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-backtest-bad-'));
  dirs.push(dir);
  const head = readFileSync(EXAMPLE, 'utf8').split('\nbacktest:\n')[0]!.replaceAll('../strategies/', `${ROOT}/strategies/`);
  const config = join(dir, 'bad.yaml');
  writeFileSync(config, `${head}\nbacktest:\n  data: ${ROOT}/backtest/data/binance-samples\n${section}\n`);
  let err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err += String(s);
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const out = join(dir, 'out');
  const code = await backtestCommand([config, '--out', out]);
  vi.restoreAllMocks();
  return { code, err, wrote: existsSync(out) };
}

describe('bhtrade backtest with a bad backtest section', () => {
  it('names the latency key whose max is below its min', async () => {
    const r = await runWith('  latency: { entry: 20, response: { min: 50, max: 10 } }');
    expect(r).toEqual({ code: 2, err: expect.stringContaining('backtest.latency.response.max: must be at least min (50), got 10') as string, wrote: false });
  }, 30_000);

  it('names a fee rate of 1 or more, which the venue\'s ledger cannot charge', async () => {
    for (const fees of ['{ maker: "1.5", taker: "0.001" }', '{ maker: "0", taker: "1" }']) {
      const r = await runWith(`  fees: ${fees}`);
      expect(r).toEqual({ code: 2, err: expect.stringMatching(/backtest\.fees\.(maker|taker): must be below 1 .*got "1(\.5)?"/) as string, wrote: false });
    }
  }, 30_000);

  it('names a starting balance of an asset no instrument of the catalog holds (a typo would leave the run without that balance)', async () => {
    const r = await runWith('  balances: { BTC: "0.02", USDTT: "2000" }');
    expect(r).toEqual({ code: 2, err: expect.stringContaining('backtest.balances.USDTT: no instrument of the catalog holds USDTT (its assets: ') as string, wrote: false });
  }, 30_000);
});
