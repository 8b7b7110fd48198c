// A backtest whose strategies trade two symbols: the results (files and metrics) are those of the first traded symbol alone, in its currency.
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/app/backtest.ts';
import { parseRunConfig } from '../../../src/app/config.ts';
import { Decimal } from '../../../src/core/fixed.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = resolve(ROOT, 'backtest/data/binance-samples');

describe('a backtest trading two symbols', () => {
  it('keeps the spot market maker\'s orders and fills out of the COIN-M trend follower\'s results', async () => {
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [
        {
          id: 'mm', use: '../../../strategies/market-maker.ts', symbols: ['BTCUSDT'],
          params: { quantity: '0.002', spreadTicks: 2, targetPosition: '0', requoteTicks: 1, refreshMs: 100, postOnly: true },
        },
        { id: 'trend', use: '../../../strategies/trend-follower.ts', symbols: ['BTCUSD-PERP'], params: { contracts: '50', leverage: '10', fast: 3, slow: 8, barMs: 2000, slippageTicks: 20 } },
      ],
      risk: { symbols: { BTCUSDT: { maxPosition: '2', maxOpenOrders: 10 }, 'BTCUSD-PERP': { maxPosition: '1000', maxOpenOrders: 4, priceBandPct: '5' } } },
      backtest: { data: SAMPLE, balances: { BTC: '0.1', USDT: '2000' }, fees: { maker: '0', taker: '0.0005' }, from: '2024-08-08T23:54:16Z', to: '2024-08-08T23:55:10Z' },
    });
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
  }, 60_000);
});
