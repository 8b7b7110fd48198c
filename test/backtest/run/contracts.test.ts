// `bhtrade backtest` with perpetual contracts, on hand-built catalogs with known answers and on the committed real COIN-M sample: funding over 24 h, liquidation at flp, a linear round trip, and what the strategy's ctx.portfolio shows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../src/app/backtest.ts';
import { parseRunConfig, type RunConfigInput } from '../../../src/app/config.ts';
import { resultFiles } from '../../../src/backtest/index.ts';
import { Decimal } from '../../../src/core/fixed.ts';
import { CatalogWriter } from '../../../src/data/catalog.ts';
import type { Instrument } from '../../../src/data/instruments.ts';
import { ConvertReport } from '../../../src/data/report.ts';
import { AGGRESSOR, BOOK_FLAG, SIDE } from '../../../src/data/tables.ts';
import type { Hold } from './hold-strategy.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const SAMPLE = resolve(ROOT, 'backtest/data/binance-samples');
const MS = 1_000_000n;
const H = 3_600_000;
// 2024-08-10 00:00 UTC: a funding boundary (00:00, 08:00, 16:00 UTC).
const D = Date.UTC(2024, 7, 10);
const INVERSE: Instrument = { symbol: 'BTCUSD-PERP', kind: 'inverse', tick: '0.1', lot: '1', multiplier: '100', base: 'BTC', quote: 'USD', margin: 'BTC', contiguousVersions: false };
const LINEAR: Instrument = { symbol: 'BTCUSDT-PERP', kind: 'linear', tick: '0.1', lot: '0.001', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: false };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Book messages at ms times: bid and ask as [price ticks, lots] (each message replaces the book's two levels). */
interface Catalog {
  inst: Instrument;
  books: { at: number; bid: [number, number]; ask: [number, number] }[];
  /** Recorded index (the mark) at ms times. */
  marks?: { at: number; price: string }[];
  funding?: { start: number; rate: string }[];
  /** Store the marks under this index symbol, as our recordings do (the contract names it as its index), instead of under the contract. */
  indexSymbol?: string;
  /** With indexSymbol: whether the contract names it (a catalog converted before contracts kept their index does not). */
  named?: boolean;
}

/** Writes a catalog of one contract and returns its folder. */
function catalog(c: Catalog): string {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-contracts-'));
  dirs.push(dir);
  const cat = new CatalogWriter(dir, new ConvertReport());
  const s = c.inst.symbol;
  const markSymbol = c.indexSymbol ?? s;
  cat.instrument(c.indexSymbol !== undefined && c.named !== false ? { ...c.inst, index: c.indexSymbol } : c.inst);
  if (c.indexSymbol !== undefined) cat.instrument({ ...c.inst, symbol: c.indexSymbol, kind: 'spot', lot: '0.00001', multiplier: '1', margin: c.inst.quote });
  let seq = 1n;
  let prev: Catalog['books'][number] | undefined;
  for (const b of c.books) {
    const t = BigInt(b.at) * MS;
    const rows: [number, number, number][] = [];
    if (prev && prev.bid[0] !== b.bid[0]) rows.push([SIDE.BID, prev.bid[0], 0]);
    if (prev && prev.ask[0] !== b.ask[0]) rows.push([SIDE.ASK, prev.ask[0], 0]);
    rows.push([SIDE.BID, ...b.bid], [SIDE.ASK, ...b.ask]);
    rows.forEach(([side, price, lots], i) => {
      const flags = (prev ? 0 : BOOK_FLAG.SNAPSHOT) | (i === rows.length - 1 ? BOOK_FLAG.LAST : 0);
      cat.row('book_deltas', s, [t, t, side, BigInt(price), BigInt(lots), flags, seq]);
    });
    seq++;
    prev = b;
  }
  for (const m of c.marks ?? []) cat.row('index', markSymbol, [BigInt(m.at) * MS, BigInt(m.at) * MS, m.price, '']);
  for (const f of c.funding ?? []) cat.row('funding', s, [BigInt(f.start + 8 * H) * MS, BigInt(f.start + 8 * H) * MS, f.rate, BigInt(f.start) * MS, BigInt(f.start + 8 * H) * MS]);
  // One trade just before the first book gives the risk gate's price band its last price.
  const t0 = BigInt(c.books[0]!.at - 1) * MS;
  cat.row('trades', s, [t0, t0, BigInt(c.books[0]!.ask[0]), 1n, AGGRESSOR.BUY, 1n]);
  cat.finish([]);
  return dir;
}

/** Runs the hold strategy on `data` and returns the results and what the strategy saw. */
async function run(data: string, inst: Instrument, params: Record<string, unknown>, backtest: Record<string, unknown>, range: { from: number; to: number }) {
  const g = globalThis as { __hold?: Hold };
  delete g.__hold;
  const input: RunConfigInput = {
    venue: 'embedded',
    strategies: [{ id: 'hold', use: './hold-strategy.ts', symbols: [inst.symbol], params: { asset: inst.margin, ...params } }],
    risk: { symbols: { [inst.symbol]: { maxPosition: '100000', priceBandPct: '50' } } },
    backtest: { data, latency: { entry: 0, response: 0 }, equityEvery: '1h', ...backtest } as never,
  };
  const config = parseRunConfig(input);
  const r = await runBacktest({ config, baseDir: import.meta.dirname }, { from: String(range.from), to: String(range.to) });
  return { r, hold: g.__hold!, summary: JSON.parse(resultFiles(r.results)['summary.json']) as { metrics: Record<string, unknown> } };
}

describe('bhtrade backtest with contracts', () => {
  it('pays and receives funding of an inverse position over 24 h as computed by hand, at the recorded rates and mark', async () => {
    // Ask 50,000.0 × 5,000 contracts; the index (mark) stays at 50,000 every hour for 24 h.
    const data = catalog({
      inst: INVERSE,
      books: [{ at: D + 60_000, bid: [499_999, 5000], ask: [500_000, 5000] }],
      marks: Array.from({ length: 26 }, (_, i) => ({ at: D + i * H, price: '50000' })),
      funding: [{ start: D, rate: '0.0001' }, { start: D + 8 * H, rate: '-0.00005' }, { start: D + 16 * H, rate: '0.0002' }],
    });
    const { r, hold } = await run(data, INVERSE, { side: 'LONG', quantity: '1000', leverage: '10' }, { balances: { BTC: '1' }, fees: { maker: '0', taker: '0.0005' } }, { from: D, to: D + 25 * H });
    // 1,000 contracts of 100 USD at 50,000 are worth 1000 × 100 / 50000 = 2 BTC; taker fee 2 × 0.0005 = 0.001.
    // Funding at 08:00, 16:00 and 24:00: paid 2 × 0.0001 + 2 × 0.0002 = 0.0006, received 2 × 0.00005 = 0.0001.
    const m = r.results.metrics;
    expect([m.fundingPaid, m.fundingReceived, m.fees]).toEqual(['0.0006', '0.0001', '0.001']);
    // Equity: 1 − 0.001 − 0.0006 + 0.0001 (the position's PnL at the mark is 0).
    expect(r.results.equity.at(-1)!.equity).toBe('0.9985');
    expect(r.results.currency).toBe('BTC');
    // The strategy's own book shows the position as live: LONG 1000 at 50000, margin 0.2 (2 BTC ÷ 10).
    const last = hold.seen.at(-1)!;
    expect(last.net).toBe('1000');
    expect(last.positions).toEqual([{ symbol: 'BTCUSD-PERP', side: 'LONG', quantity: '1000', avgPrice: '50000' }]);
    // Its PnL in BTC: the fee paid, nothing unrealized at the entry price.
    expect(last.pnl).toEqual({ asset: 'BTC', realizedGross: '0', fees: '0.001', realized: '-0.001', unrealized: '0' });
    // The contract account: 0.2 BTC held as the position's margin, the rest free.
    expect(last.balance).toEqual({ free: '0.7985', locked: '0.2' });
    // A configured rate replaces the recorded ones for every interval: 3 × 2 × 0.0001 paid.
    const fixed = await run(data, INVERSE, { side: 'LONG', quantity: '1000', leverage: '10' }, { balances: { BTC: '1' }, fees: { maker: '0', taker: '0.0005' }, funding: { rate: '0.0001' } }, { from: D, to: D + 25 * H });
    expect([fixed.r.results.metrics.fundingPaid, fixed.r.results.metrics.fundingReceived]).toEqual(['0.0006', '0']);
  }, 60_000);

  it('settles funding at the boundaries the recorded rates are for: a recording of this venue pays at 12:00 and 20:00 UTC', async () => {
    const data = catalog({
      inst: INVERSE,
      books: [{ at: D + 60_000, bid: [499_999, 5000], ask: [500_000, 5000] }],
      marks: Array.from({ length: 23 }, (_, i) => ({ at: D + i * H, price: '50000' })),
      funding: [{ start: D + 4 * H, rate: '0.0001' }, { start: D + 12 * H, rate: '0.0002' }],
    });
    const { r } = await run(data, INVERSE, { side: 'LONG', quantity: '1000', leverage: '10' }, { balances: { BTC: '1' }, fees: { maker: '0', taker: '0' } }, { from: D, to: D + 22 * H });
    // 2 BTC of position: 2 × 0.0001 at 12:00 and 2 × 0.0002 at 20:00 (at 00:00, 08:00 and 16:00 boundaries no recorded rate would apply and nothing would be paid).
    expect([r.results.metrics.fundingPaid, r.results.metrics.fundingReceived]).toEqual(['0.0006', '0']);
  }, 60_000);

  it('liquidates an inverse long when the recorded mark reaches its flp, not a tick before', async () => {
    // Long 1000 at 50,000 with leverage 10: margin 0.2 BTC, maintenance 0.5 %.
    // flp = 1000 × 100 × 1.005 / (0.2 + 1000 × 100 / 50000) = 100500 / 2.2 = 45681.818… → 45681.8 (down to the tick).
    const data = catalog({
      inst: INVERSE,
      books: [{ at: D + 1000, bid: [499_999, 5000], ask: [500_000, 5000] }, { at: D + 5 * 60_000, bid: [456_000, 5000], ask: [456_001, 5000] }],
      marks: [{ at: D, price: '50000' }, { at: D + 2 * 60_000, price: '45681.9' }, { at: D + 3 * 60_000, price: '45681.8' }, { at: D + 4 * 60_000, price: '45000' }],
    });
    const { r, hold } = await run(data, INVERSE, { side: 'LONG', quantity: '1000', leverage: '10' }, { balances: { BTC: '1' }, fees: { maker: '0', taker: '0' } }, { from: D, to: D + 10 * 60_000 });
    // At 45681.9 the position stands; at 45681.8 it is gone with its margin: equity 1 − 0.2.
    const at = (t: number) => r.results.positions.filter((p) => p.time <= t).at(-1)?.position;
    expect(at(D + 3 * 60_000 - 1)).toBe('1000');
    expect(r.results.positions.at(-1)).toEqual({ time: D + 3 * 60_000, position: '0' });
    expect(r.results.equity.at(-1)!.equity).toBe('0.8');
    expect(r.results.metrics.trades).toBe(1);
    expect(r.results.metrics.winRate).toBe(0);
    // The account the strategy reads lost the margin, and so does its own book: the position is gone from it, the margin charged to realized PnL.
    const last = hold.seen.at(-1)!;
    expect(last.balance).toEqual({ free: '0.8', locked: '0' });
    expect([last.net, last.positions]).toEqual(['0', []]);
    expect(last.pnl).toEqual({ asset: 'BTC', realizedGross: '-0.2', fees: '0', realized: '-0.2', unrealized: '0' });
  }, 60_000);

  it('marks a contract at its index recorded under the index\'s own symbol, as bhtrade record stores it: the liquidation comes at the flp of that mark', async () => {
    const books = [{ at: D + 1000, bid: [499_999, 5000], ask: [500_000, 5000] }, { at: D + 5 * 60_000, bid: [456_000, 5000], ask: [456_001, 5000] }] as Catalog['books'];
    const marks = [{ at: D, price: '50000' }, { at: D + 2 * 60_000, price: '45681.9' }, { at: D + 3 * 60_000, price: '45681.8' }, { at: D + 4 * 60_000, price: '45000' }];
    const params = { side: 'LONG', quantity: '1000', leverage: '10' };
    const settings = { balances: { BTC: '1' }, fees: { maker: '0', taker: '0' } };
    const range = { from: D, to: D + 10 * 60_000 };
    const { r } = await run(catalog({ inst: INVERSE, books, marks, indexSymbol: 'BTCUSD' }), INVERSE, params, settings, range);
    expect(r.results.positions.at(-1)).toEqual({ time: D + 3 * 60_000, position: '0' });
    expect(r.results.equity.at(-1)!.equity).toBe('0.8');
    // A contract that names no index is marked at its book's mid (the flp is reached only when the book falls, at 5 min): the index rows are another symbol's.
    const unnamed = await run(catalog({ inst: INVERSE, books, marks, indexSymbol: 'BTCUSD', named: false }), INVERSE, params, settings, range);
    expect(unnamed.r.results.positions.at(-1)).toEqual({ time: D + 5 * 60_000, position: '0' });
    // The data hash covers the index table read for the mark: the same contract files, read with and without it, hash apart.
    expect(r.results.dataHash).not.toBe(unnamed.r.results.dataHash);
  }, 60_000);

  it('runs a linear round trip: PnL in USDT from the price move, less maker and taker fees', async () => {
    // Buy 2 BTC at 50,000.0, sell them at 51,000.0 one minute later: +2,000 USDT; taker fees 2 × 50000 × 0.0005 = 50 and 2 × 51000 × 0.0005 = 51.
    const data = catalog({
      inst: LINEAR,
      books: [
        { at: D + 1000, bid: [499_999, 10_000], ask: [500_000, 10_000] },
        { at: D + 61_000, bid: [510_000, 10_000], ask: [510_001, 10_000] },
        { at: D + 62_000, bid: [510_000, 10_000], ask: [510_002, 10_000] },
      ],
    });
    const { r, hold } = await run(data, LINEAR, { side: 'LONG', quantity: '2', leverage: '5', holdMs: 60_000 }, { balances: { USDT: '100000' }, fees: { maker: '0.0002', taker: '0.0005' }, equityEvery: '1s' }, { from: D, to: D + 120_000 });
    const m = r.results.metrics;
    expect(r.results.fills.map((f) => [f.side, f.price, f.qty, f.fee, f.feeAsset])).toEqual([['BUY_OPEN', '50000', '2', '50', 'USDT'], ['SELL_CLOSE', '51000', '2', '51', 'USDT']]);
    expect([m.netPnl, m.fees, m.trades, m.winRate]).toEqual(['1899', '101', 1, 1]);
    expect(r.results.equity.at(-1)!.equity).toBe('101899');
    // The strategy's own PnL, in the margin token: 2,000 gross, 101 of fees.
    expect(hold.seen.at(-1)!.net).toBe('0');
    expect(hold.seen.at(-1)!.pnl).toEqual({ asset: 'USDT', realizedGross: '2000', fees: '101', realized: '1899', unrealized: '0' });
  }, 60_000);

  it('runs the trend follower on the real COIN-M BTCUSD_PERP sample end to end, byte-identical twice', async () => {
    const input: RunConfigInput = {
      venue: 'embedded',
      strategies: [{ id: 'trend', use: '../../../strategies/trend-follower.ts', symbols: ['BTCUSD-PERP'], params: { contracts: '50', leverage: '10', fast: 3, slow: 8, barMs: 2000, slippageTicks: 20 } }],
      risk: { symbols: { 'BTCUSD-PERP': { maxPosition: '1000', maxOpenOrders: 4, priceBandPct: '5' } } },
      backtest: { data: SAMPLE, balances: { BTC: '0.1' }, fees: { maker: '0.0002', taker: '0.0005' } },
    };
    const config = parseRunConfig(input);
    const a = await runBacktest({ config, baseDir: import.meta.dirname });
    const b = await runBacktest({ config, baseDir: import.meta.dirname });
    expect(resultFiles(b.results)['fills.csv']).toBe(resultFiles(a.results)['fills.csv']);
    expect(resultFiles(b.results)['summary.json']).toBe(resultFiles(a.results)['summary.json']);
    expect(a.mode).toBe('l2');
    expect(a.results.currency).toBe('BTC');
    const fills = a.results.fills;
    expect(fills.length).toBeGreaterThan(0);
    // Taker fills of whole contracts, fees in BTC: 0.0005 of 50 × 100 USD ÷ price.
    for (const f of fills) {
      expect(f.qty).toBe('50');
      expect(f.feeAsset).toBe('BTC');
      expect(Number(f.fee)).toBeCloseTo((0.0005 * 5000) / Number(f.price), 10);
    }
    // Traded notional in BTC: each fill's 5,000 USD ÷ price to the ledger's 18 places (a quotient that need not end is not shown to 60 digits).
    const notional = fills.reduce((sum, f) => sum.plus(new Decimal(5000).div(f.price).toDecimalPlaces(18)), new Decimal(0));
    expect(a.results.metrics.tradedNotional).toBe(notional.toFixed());
    expect(a.results.metrics.tradedNotional).toMatch(/^0\.\d{1,18}$/);
  }, 60_000);
});
