// A backtest whose strategies trade two symbols: each symbol's results (files and metrics) hold its own orders and fills alone, in its own currency; the first's are the run's, the other's are written beside them.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBacktest } from '../../../src/app/backtest.ts';
import { parseRunConfig } from '../../../src/app/config.ts';
import { backtestCommand } from '../../../src/cli/backtest.ts';
import { Decimal } from '../../../src/core/fixed.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = resolve(ROOT, 'backtest/data/binance-samples');
const TWO = {
  venue: 'embedded',
  strategies: [
    {
      id: 'mm', use: resolve(ROOT, 'strategies/market-maker.ts'), symbols: ['BTCUSDT'],
      params: { quantity: '0.002', spreadTicks: 2, targetPosition: '0', requoteTicks: 1, refreshMs: 100, postOnly: true },
    },
    { id: 'trend', use: resolve(ROOT, 'strategies/trend-follower.ts'), symbols: ['BTCUSD-PERP'], params: { contracts: '50', leverage: '10', fast: 3, slow: 8, barMs: 2000, slippageTicks: 20 } },
  ],
  risk: { symbols: { BTCUSDT: { maxPosition: '2', maxOpenOrders: 10 }, 'BTCUSD-PERP': { maxPosition: '1000', maxOpenOrders: 4, priceBandPct: '5' } } },
  backtest: { data: SAMPLE, balances: { BTC: '0.1', USDT: '2000' }, fees: { maker: '0', taker: '0.0005' }, from: '2024-08-08T23:54:16Z', to: '2024-08-08T23:55:10Z' },
};
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a backtest trading two symbols', () => {
  it('gives each symbol results of its own: the COIN-M trend follower\'s hold none of the spot market maker\'s orders and fills, which have theirs', async () => {
    const config = parseRunConfig(TWO);
    let logged = '';
    const log = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logged += chunk.toString();
        cb();
      },
    });
    const run = await runBacktest({ config, baseDir: import.meta.dirname }, { logTo: log });
    const spotFills = logged.split('\n').filter((l) => l.includes('"strategy":"mm"') && l.includes('"msg":"quote filled"'));
    // The market maker did trade: its fills are what must stay out.
    expect(spotFills.length).toBeGreaterThan(0);

    const r = run.results;
    expect(r.symbol).toBe('BTCUSD-PERP');
    expect(r.currency).toBe('BTC');
    expect(run.traded).toEqual(['BTCUSD-PERP', 'BTCUSDT']);
    expect(r.fills.length).toBeGreaterThan(0);
    for (const f of r.fills) expect(f.side).toMatch(/^(BUY|SELL)_(OPEN|CLOSE)$/);
    for (const o of r.orders) expect(o.side).toMatch(/^(BUY|SELL)_(OPEN|CLOSE)$/);
    const m = r.metrics;
    expect([m.fills, m.orders, m.cancels]).toEqual([r.fills.length, r.orders.length, r.orders.filter((o) => o.status === 'CANCELED').length]);
    // Traded notional in BTC: 50 contracts of 100 USD ÷ price, to the ledger's 18 places; turnover is that over the starting 0.1 BTC.
    const notional = r.fills.reduce((sum, f) => sum.plus(new Decimal(f.qty).times(100).div(f.price).toDecimalPlaces(18)), new Decimal(0));
    expect(m.tradedNotional).toBe(notional.toFixed());
    expect(m.turnover).toBe(notional.div(m.startEquity).toNumber());
    // The position is the contract's, in whole contracts: no spot BTC added to it.
    const net = r.fills.reduce((sum, f) => (f.side.startsWith('BUY') ? sum.plus(f.qty) : sum.minus(f.qty)), new Decimal(0));
    expect(r.positions.at(-1)?.position ?? '0').toBe(net.toFixed());
    expect(m.makerShare).toBe(0);

    // The market maker's own results: every fill it was told of, none of the contract's, in USDT, its position from its fills.
    expect(run.others.map((o) => o.symbol)).toEqual(['BTCUSDT']);
    expect(run.unpriced).toEqual([]);
    const spot = run.others[0]!;
    expect(spot.currency).toBe('USDT');
    expect(spot.positionUnit).toBe('BTC');
    expect(spot.fills.length).toBe(spotFills.length);
    for (const f of spot.fills) expect(f.side).toMatch(/^(BUY|SELL)$/);
    expect(spot.orders.every((o) => o.clientOrderId.startsWith('mm-'))).toBe(true);
    expect(r.orders.every((o) => o.clientOrderId.startsWith('trend-'))).toBe(true);
    const sm = spot.metrics;
    expect([sm.fills, sm.orders, sm.cancels]).toEqual([spot.fills.length, spot.orders.length, spot.orders.filter((o) => o.status === 'CANCELED').length]);
    // No maker fee: the spot position is what the fills bought less what they sold.
    const spotNet = spot.fills.reduce((sum, f) => (f.side === 'BUY' ? sum.plus(f.qty) : sum.minus(f.qty)), new Decimal(0));
    expect(new Decimal(spot.positions.at(-1)?.position ?? '0').eq(spotNet)).toBe(true);
    // Its equity starts at the spot account's balances marked at the book's mid: 2000 USDT and 0.1 BTC.
    expect(new Decimal(sm.startEquity).minus(2000).div('0.1').toNumber()).toBeGreaterThan(50_000);
  }, 60_000);

  it('writes and prints each traded symbol\'s results: the first in --out, the other in --out/SYMBOL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-two-symbols-'));
    dirs.push(dir);
    const config = join(dir, 'two.yaml');
    writeFileSync(config, stringify(TWO));
    const out = join(dir, 'res');
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
      printed.push(String(s));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await backtestCommand([config, '--out', out])).toBe(0);
    const text = printed.join('');
    for (const [at, symbol, currency] of [[out, 'BTCUSD-PERP', 'BTC'], [join(out, 'BTCUSDT'), 'BTCUSDT', 'USDT']] as const) {
      for (const f of ['summary.json', 'orders.csv', 'fills.csv', 'equity.csv', 'report.html']) expect(existsSync(join(at, f)), `${symbol} ${f}`).toBe(true);
      const summary = JSON.parse(readFileSync(join(at, 'summary.json'), 'utf8')) as { symbol: string; currency: string; metrics: { fills: number } };
      expect([summary.symbol, summary.currency]).toEqual([symbol, currency]);
      expect(readFileSync(join(at, 'fills.csv'), 'utf8').trim().split('\n')).toHaveLength(summary.metrics.fills + 1);
      expect(text).toContain(`results: ${join(at, 'report.html')}`);
    }
    expect(text).toContain('BTCUSDT (also traded, an account of its own):');
    expect(text.match(/Net PnL {18}\S+ (BTC|USDT)/g)).toEqual([expect.stringMatching(/ BTC$/), expect.stringMatching(/ USDT$/)]);

    // A sweep of the same config says whose metrics it ranks, and each combination holds the other symbol's results.
    printed.length = 0;
    const swept = join(dir, 'sweep');
    expect(await backtestCommand([config, '--out', swept, '--workers', '0', '--sweep', 'strategies[0].params.spreadTicks=2,4'])).toBe(0);
    expect(printed.join('').trim().split('\n').at(-1)).toMatch(
      /^2 combinations in this process in [\d.]+ s, ranked by netPnl of BTCUSD-PERP, the first traded symbol \(the results of BTCUSDT are in each combination's BTCUSDT\/\); 0 failed; table: /,
    );
    for (const combo of ['1-spreadTicks-2', '2-spreadTicks-4']) expect(existsSync(join(swept, combo, 'BTCUSDT', 'summary.json')), combo).toBe(true);
  }, 60_000);
});
