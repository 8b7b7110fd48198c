// `bhtrade backtest`: its arguments, its exit codes, the files it writes, and its progress on a terminal and in a log.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backtestCommand, parseBacktestArgs } from '../../../src/cli/backtest.ts';
import { Progress } from '../../../src/cli/progress.ts';

const EXAMPLE = resolve(import.meta.dirname, '../../../config/backtest.yaml');
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'bhtrade-backtest-cli-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sink(isTTY: boolean): { stream: Writable & { isTTY: boolean }; text: () => string } {
  let text = '';
  const stream = Object.assign(new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  }), { isTTY });
  return { stream, text: () => text };
}

describe('bhtrade backtest', () => {
  it('parses its options and names a bad one', () => {
    expect(parseBacktestArgs(['c.yaml', '--from', '2024-08-08T23:55:00Z', '--to=1723161360000', '--out', 'o', '--data', 'd'])).toEqual({
      config: 'c.yaml', from: '2024-08-08T23:55:00Z', to: '1723161360000', out: 'o', data: 'd',
    });
    expect(() => parseBacktestArgs(['c.yaml', '--from', 'yesterday'])).toThrow(/--from must be an ISO time/);
    expect(() => parseBacktestArgs(['--out', 'o'])).toThrow(/CONFIG is missing/);
    expect(() => parseBacktestArgs(['c.yaml', '--fast'])).toThrow(/unknown option --fast/);
  });

  it('writes the five result files and prints the summary; a bad backtest key exits 2 naming it', async () => {
    const out = join(tmp(), 'res');
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
      printed.push(String(s));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await backtestCommand([EXAMPLE, '--from', '2024-08-08T23:54:14Z', '--to', '2024-08-08T23:54:34Z', '--out', out]);
    expect(code).toBe(0);
    for (const f of ['summary.json', 'orders.csv', 'fills.csv', 'equity.csv', 'report.html']) expect(existsSync(join(out, f)), f).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { symbol: string; metrics: { netPnl: string } };
    expect(summary.symbol).toBe('BTCUSDT');
    expect(printed.join('')).toContain(`Net PnL                  ${new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4, useGrouping: false }).format(Number(summary.metrics.netPnl))} USDT`);

    const bad = join(tmp(), 'bad.yaml');
    writeFileSync(bad, readFileSync(EXAMPLE, 'utf8').replace('queue: { model: log }', 'queue: { model: fifo }'));
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
      errors.push(String(s));
      return true;
    });
    expect(await backtestCommand([bad])).toBe(2);
    expect(errors.join('')).toContain('backtest.queue');
    // A start after the data names the flag that set it and where the data ends.
    errors.length = 0;
    expect(await backtestCommand([EXAMPLE, '--from', '2024-08-09T00:00:00Z'])).toBe(2);
    expect(errors.join('')).toMatch(/--from: 2024-08-09T00:00:00\.000Z is after the end of the data \(the catalog's BTCUSDT data runs from \S+ to 2024-08-08T23:56:12\.\d{3}Z\)/);
    // A traded symbol the catalog lacks is named at the key that gave it.
    errors.length = 0;
    const typo = join(tmp(), 'typo.yaml');
    writeFileSync(typo, readFileSync(EXAMPLE, 'utf8').replace('symbols: [BTCUSDT]', 'symbols: [BTC_USDT]').replace(/data: \.\.\//, `data: ${resolve(import.meta.dirname, '../../..')}/`));
    expect(await backtestCommand([typo])).toBe(2);
    expect(errors.join('')).toMatch(/strategies\[0\]\.symbols\[0\]: BTC_USDT is not in the catalog \S+ \(it has BTCUSD-PERP, BTCUSDT, BTCUSDT-PERP\)/);
    // An epoch time in seconds (read as ms: January 1970) is before everything the catalog holds, and is refused at once.
    errors.length = 0;
    expect(await backtestCommand([EXAMPLE, '--from', '1723161256'])).toBe(2);
    expect(errors.join('')).toMatch(/--from: 1970-01-20T22:39:21\.256Z is more than a day before the start of the data \(the catalog's data of BTCUSDT runs from \S+ to 2024-08-08T23:56:12\.\d{3}Z\)/);
    errors.length = 0;
    expect(await backtestCommand([EXAMPLE, '--to', '2030-01-01T00:00:00Z'])).toBe(2);
    expect(errors.join('')).toContain('--to: 2030-01-01T00:00:00.000Z is more than a day after the end of the data');
    // Bar mode on a symbol without klines: refused before the run, naming the mode and what the catalog holds of it.
    errors.length = 0;
    const bars = join(tmp(), 'bars.yaml');
    writeFileSync(bars, [
      'venue: embedded', 'strategies:', '  - id: tf', `    use: ${resolve(import.meta.dirname, '../../../strategies/trend-follower.ts')}`, '    symbols: [BTCUSD-PERP]',
      'backtest:', `  data: ${resolve(import.meta.dirname, '../../../backtest/data/binance-samples')}`, '  mode: bars', '  balances: { BTC: "1" }',
    ].join('\n'));
    expect(await backtestCommand([bars])).toBe(2);
    expect(errors.join('')).toContain('backtest.mode: bars runs on klines, and the catalog holds none of BTCUSD-PERP (it holds its book_deltas, funding, trades)');
    // No balance of a contract's margin asset: nothing could ever be placed, and the run does not start to log one denial per order.
    errors.length = 0;
    writeFileSync(bars, readFileSync(bars, 'utf8').replace('mode: bars', 'mode: l2').replace('balances: { BTC: "1" }', 'balances: { USDT: "1000", BTC: "0" }'));
    expect(await backtestCommand([bars])).toBe(2);
    expect(errors.join('')).toContain('backtest.balances: no BTC, the margin asset of BTCUSD-PERP: none of its orders could be placed (balances given: USDT 1000)');
  }, 60_000);

  it('shows progress as one rewritten line on a terminal and as plain lines otherwise', () => {
    let wall = 0;
    const tty = sink(true);
    const p = new Progress(tty.stream, () => wall);
    p.start(0, 100_000);
    wall = 1_000;
    p.update(8192, 50_000);
    p.end();
    expect(tty.text()).toContain('\r\x1b[2K8,192 events  sim 1970-01-01T00:00:50Z  8,192 events/s  50.0 %  ETA 1 s');
    const log = sink(false);
    const q = new Progress(log.stream, () => wall);
    wall = 0;
    q.start(0, 100_000);
    wall = 1_000;
    q.update(8192, 50_000);
    wall = 10_000;
    q.update(16_384, 75_000);
    expect(log.text().split('\n').filter(Boolean)).toEqual(['16,384 events  sim 1970-01-01T00:01:15Z  1,638 events/s  75.0 %  ETA 3 s']);
  });
});
