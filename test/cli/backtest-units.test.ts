// `bhtrade backtest` shows the position it ends with in its unit and to its lot's decimals, and report.html labels its price and position charts with their units.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backtestCommand } from '../../src/cli/backtest.ts';
import { Decimal } from '../../src/core/fixed.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('bhtrade backtest units', () => {
  it('prints a spot position left with a fee residue in BTC to the lot, as the report labels it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-backtest-units-'));
    dirs.push(dir);
    // A maker fee small enough for the market maker to keep quoting at the touch, charged in the BTC its buys receive: the position gets digits finer than the lot.
    const config = join(dir, 'mm.yaml');
    writeFileSync(config, readFileSync(join(ROOT, 'config/backtest.yaml'), 'utf8').replaceAll('../', `${ROOT}/`).replace('maker: "0"', 'maker: "0.0000013"'));
    let printed = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
      printed += String(s);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = join(dir, 'out');
    expect(await backtestCommand([config, '--from', '2024-08-08T23:54:30Z', '--to', '2024-08-08T23:56:00Z', '--out', out])).toBe(0);
    const end = new Decimal((JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { endPosition: string }).endPosition);
    expect(end.decimalPlaces()).toBeGreaterThan(8);
    expect(printed).toContain(`Position at end          ${end.toDecimalPlaces(8).toFixed()} BTC (open:`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Price and fills (USDT)</h2>');
    expect(html).toContain('<h2>Position (BTC)</h2>');
  }, 60_000);
});
