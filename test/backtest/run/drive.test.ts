// The backtest's event loop keeps two timelines: the exchange changes at a recorded event's exchange time, the bus sees it at its local time.
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { CatalogWriter } from '../../../src/data/catalog.ts';
import { ConvertReport } from '../../../src/data/report.ts';
import { AGGRESSOR, BOOK_FLAG, SIDE } from '../../../src/data/tables.ts';
import { VERSION_SUFFIX_KEY } from '../../../src/data/import-bhtrade.ts';
import { BacktestExchange, constantLatency, riskAverse, type ExecutionReport } from '../../../src/backtest/index.ts';
import { drive } from '../../../src/backtest/run/drive.ts';
import { simInstrumentOf } from '../../../src/backtest/run/instruments.ts';
import type { BusEvent } from '../../../src/model/index.ts';

const MS = 1_000_000n;
const T0 = 1_723_161_600_000n * MS;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A catalog of one spot book (bid 100.00 × 5, ask 100.01 × 5) and one sell of 6 at the bid, stamped 1000 ms after the start at the exchange and received 50 ms later. */
function catalog(): { dir: string; inst: ReturnType<typeof simInstrumentOf> } {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-drive-'));
  dirs.push(dir);
  const cat = new CatalogWriter(dir, new ConvertReport());
  const instrument = { symbol: 'BTCUSDT', kind: 'spot', tick: '0.01', lot: '1', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: true } as const;
  cat.instrument(instrument);
  const meta = { [VERSION_SUFFIX_KEY]: '1' };
  cat.row('book_deltas', 'BTCUSDT', [T0, T0, SIDE.BID, 10_000n, 5n, BOOK_FLAG.SNAPSHOT, 1n], meta);
  cat.row('book_deltas', 'BTCUSDT', [T0, T0, SIDE.ASK, 10_001n, 5n, BOOK_FLAG.SNAPSHOT | BOOK_FLAG.LAST, 1n], meta);
  cat.row('trades', 'BTCUSDT', [T0 + 1000n * MS, T0 + 1050n * MS, 10_000n, 6n, AGGRESSOR.SELL, 1n]);
  cat.finish([]);
  return { dir, inst: simInstrumentOf(instrument) };
}

describe('the backtest event loop', () => {
  it('fills a resting bid at the trade\'s exchange time, before the strategy sees the trade at its local time', async () => {
    const { dir, inst } = catalog();
    const start = Number(T0 / MS);
    const clock = new VirtualClock(start);
    const reports: { r: ExecutionReport; at: number }[] = [];
    const exchange = new BacktestExchange({ clock, inst, queue: riskAverse, latency: constantLatency(5, 5), onReport: (r) => reports.push({ r, at: clock.now() }) });
    const seen: { kind: string; at: number }[] = [];
    // Sent 990 ms in, the bid reaches the exchange at 995, behind the recorded 5: the sell of 6 at 1000 fills one of ours.
    clock.setTimeout(() => exchange.submit({ clientOrderId: 'b1', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', priceTicks: 10_000, lots: 3 }), 990);
    await drive({
      catalog: dir, symbols: ['BTCUSDT'], clock, markets: new Map([['BTCUSDT', { inst, exchange }]]),
      publish: (ev: BusEvent) => seen.push({ kind: ev.kind, at: clock.now() - start }),
    });
    const fill = reports.find((x) => x.r.execType === 'TRADE');
    expect(fill?.r.lastLots).toBe(1);
    expect(fill?.r.exchTime).toBe(start + 1000);
    // Its report comes back after the response latency: still before the trade reaches the bus.
    expect(fill!.at - start).toBe(1005);
    expect(seen).toContainEqual({ kind: 'trade', at: 1050 });
  });

  it('lets a promise chain started at an instant finish before time moves on, however long the chain', async () => {
    const { dir, inst } = catalog();
    const start = Number(T0 / MS);
    const clock = new VirtualClock(start);
    const exchange = new BacktestExchange({ clock, inst, queue: riskAverse, latency: constantLatency(5, 5), onReport: () => undefined });
    const ended: { from: string; at: number }[] = [];
    // Many awaits, then a hop through a promise made elsewhere: each step is a continuation queued after the instant.
    const chain = async (from: string): Promise<void> => {
      for (let i = 0; i < 500; i++) await Promise.resolve();
      await new Promise<void>((r) => queueMicrotask(r));
      ended.push({ from, at: clock.now() - start });
    };
    clock.setTimeout(() => void chain('timer'), 990);
    // A timer 1 ms after the first chain starts: time reaches it only after that chain has ended.
    clock.setTimeout(() => ended.push({ from: 'next timer', at: clock.now() - start }), 991);
    await drive({
      catalog: dir, symbols: ['BTCUSDT'], clock, markets: new Map([['BTCUSDT', { inst, exchange }]]),
      publish: (ev: BusEvent) => {
        if (ev.kind === 'trade') void chain('trade');
      },
    });
    expect(ended).toEqual([{ from: 'timer', at: 990 }, { from: 'next timer', at: 991 }, { from: 'trade', at: 1050 }]);
  });

  it('waits for reads in flight, and the reads they start, before time moves on; a failing wait fails the run', async () => {
    const { dir, inst } = catalog();
    const start = Number(T0 / MS);
    const clock = new VirtualClock(start);
    const exchange = new BacktestExchange({ clock, inst, queue: riskAverse, latency: constantLatency(5, 5), onReport: () => undefined });
    const ended: { from: string; at: number }[] = [];
    // Real file-system reads (outside the simulation) tracked as ctx.history tracks its own: each ends on the thread pool, in no simulated time.
    const inFlight = new Set<Promise<unknown>>();
    const read = (from: string, next?: () => void): void => {
      const p = readdir(dir).then(() => {
        ended.push({ from, at: clock.now() - start });
        next?.();
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    const busy = (): Promise<unknown> | undefined => (inFlight.size === 0 ? undefined : Promise.allSettled([...inFlight]));
    clock.setTimeout(() => read('first', () => read('second')), 990);
    clock.setTimeout(() => ended.push({ from: 'next timer', at: clock.now() - start }), 991);
    await drive({ catalog: dir, symbols: ['BTCUSDT'], clock, markets: new Map([['BTCUSDT', { inst, exchange }]]), publish: () => undefined, busy });
    expect(ended).toEqual([{ from: 'first', at: 990 }, { from: 'second', at: 990 }, { from: 'next timer', at: 991 }]);

    const failing = catalog();
    const clock2 = new VirtualClock(start);
    const exchange2 = new BacktestExchange({ clock: clock2, inst: failing.inst, queue: riskAverse, latency: constantLatency(5, 5), onReport: () => undefined });
    let reading = false;
    clock2.setTimeout(() => (reading = true), 990);
    const run = drive({
      catalog: failing.dir, symbols: ['BTCUSDT'], clock: clock2, markets: new Map([['BTCUSDT', { inst: failing.inst, exchange: exchange2 }]]), publish: () => undefined,
      busy: () => (reading ? Promise.reject(new Error('read failed')) : undefined),
    });
    await expect(run).rejects.toThrow('read failed');
    expect(clock2.now() - start).toBe(990);
  });
});
