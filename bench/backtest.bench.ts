// A full backtest (the market maker quoting both sides through the risk gate and executor, log queue model, 20 ms latency each way) over a seeded catalog, beside the replay-only rate of the same catalog in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runBacktest } from '../src/app/backtest.ts';
import { parseRunConfig } from '../src/app/config.ts';
import { EventBus } from '../src/bus/index.ts';
import { silentLogger } from '../src/core/logger.ts';
import { replay } from '../src/data/replay.ts';
import { generate } from './replay-catalog.ts';

/** Level changes and trades in the catalog: 10 M by default; BENCH_BACKTEST_EVENTS sets another size. */
const EVENTS = Number(process.env['BENCH_BACKTEST_EVENTS'] ?? 10_000_000);

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-backtest-bench-'));
  try {
    const g0 = Date.now();
    const made = generate(dir, EVENTS);
    console.log(`backtest: generated ${fmt(made)} events (level changes and trades) in ${((Date.now() - g0) / 1000).toFixed(1)} s`);

    // Replay only: the same catalog to a bus subscriber.
    const bus = new EventBus({ freeze: false, logger: silentLogger() });
    bus.subscribe('depthUpdate', () => undefined);
    bus.subscribe('trade', () => undefined);
    const r0 = process.hrtime.bigint();
    const rs = await replay({ catalog: dir, sink: (ev) => bus.publish(ev) });
    const rSecs = Number(process.hrtime.bigint() - r0) / 1e9;
    bus.close();
    const replayRate = (rs.levels + rs.trades) / rSecs;
    console.log(`backtest: replay-only ${fmt(rs.levels + rs.trades)} events in ${rSecs.toFixed(1)} s`);

    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [{
        id: 'mm', use: resolve(import.meta.dirname, '../strategies/market-maker.ts'), symbols: ['BTCUSDT'],
        params: { quantity: '0.002', spreadTicks: 2, requoteTicks: 1, refreshMs: 100, postOnly: true, orderRate: { perSecond: 8, perMinute: 240 } },
      }],
      risk: { rounding: 'round', strategy: { orderRate: { perSecond: 10, perMinute: 300 } } },
      backtest: { data: dir, balances: { BTC: '1', USDT: '100000' }, fees: { maker: '0', taker: '0.001' }, latency: { entry: 20, response: 20 }, queue: { model: 'log' }, seed: 1 },
    });
    let maxRss = process.memoryUsage().rss;
    const b0 = process.hrtime.bigint();
    const out = await runBacktest({ config, baseDir: dir }, {
      onProgress: (n) => {
        if ((n & 0xffff) === 0) maxRss = Math.max(maxRss, process.memoryUsage().rss);
      },
    });
    const bSecs = Number(process.hrtime.bigint() - b0) / 1e9;
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
    const events = out.replay.levels + out.replay.trades;
    const rate = events / bSecs;
    const m = out.results.metrics;
    console.log(`backtest: ${fmt(events)} events (${fmt(out.events)} bus events) in ${bSecs.toFixed(1)} s; ${m.orders} orders, ${m.fills} fills (${((m.makerShare ?? 0) * 100).toFixed(0)} % maker), ${m.cancels} cancels; peak RSS ${(maxRss / 1e6).toFixed(0)} MB`);
    console.log(`bench backtest: ${fmt(rate)} events/s vs replay-only ${fmt(replayRate)} events/s, ratio ${(rate / replayRate).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
