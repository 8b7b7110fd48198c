// A full backtest (the market maker quoting both sides through the risk gate and executor, log queue model, 20 ms latency each way) over a seeded catalog, beside the replay-only rate of the same catalog in the same run.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBacktest } from '../src/app/backtest.ts';
import { parseRunConfig } from '../src/app/config.ts';
import { EventBus } from '../src/bus/index.ts';
import { silentLogger } from '../src/core/logger.ts';
import { replay } from '../src/data/replay.ts';
import { generate } from './replay-catalog.ts';

/** Level changes and trades in the catalog: 10 M by default; BENCH_BACKTEST_EVENTS sets another size. */
const EVENTS = Number(process.env['BENCH_BACKTEST_EVENTS'] ?? 10_000_000);

/** What one measured phase reports: events, seconds (wall and CPU: on a shared machine the second says more), and the process's peak RSS (the kernel's count, in bytes). */
interface Phase {
  readonly events: number;
  readonly secs: number;
  readonly cpuSecs: number;
  readonly maxRss: number;
  readonly line?: string;
}

/** Returns the CPU seconds (user and system) used since `c0`. */
function cpuSince(c0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** Replays the catalog to a bus subscriber (no bot). */
async function replayOnly(dir: string): Promise<Phase> {
  const bus = new EventBus({ freeze: false, logger: silentLogger() });
  bus.subscribe('depthUpdate', () => undefined);
  bus.subscribe('trade', () => undefined);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const rs = await replay({ catalog: dir, sink: (ev) => bus.publish(ev) });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  bus.close();
  return { events: rs.levels + rs.trades, secs, cpuSecs: cpuSince(c0), maxRss: process.resourceUsage().maxRSS * 1024 };
}

/** Runs the market maker's backtest over the catalog. */
async function backtest(dir: string): Promise<Phase> {
  const config = parseRunConfig({
    venue: 'embedded',
    strategies: [{
      id: 'mm', use: resolve(import.meta.dirname, '../strategies/market-maker.ts'), symbols: ['BTCUSDT'],
      params: { quantity: '0.002', spreadTicks: 2, requoteTicks: 1, refreshMs: 100, postOnly: true, orderRate: { perSecond: 8, perMinute: 240 } },
    }],
    risk: { rounding: 'round', strategy: { orderRate: { perSecond: 10, perMinute: 300 } } },
    backtest: { data: dir, balances: { BTC: '1', USDT: '100000' }, fees: { maker: '0', taker: '0.001' }, latency: { entry: 20, response: 20 }, queue: { model: 'log' }, seed: 1 },
  });
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const out = await runBacktest({ config, baseDir: dir });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpuSecs = cpuSince(c0);
  const m = out.results.metrics;
  const events = out.replay.levels + out.replay.trades;
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const line = `${fmt(events)} events (${fmt(out.events)} bus events) in ${secs.toFixed(1)} s (CPU ${cpuSecs.toFixed(1)} s); ${m.orders} orders, ${m.fills} fills (${((m.makerShare ?? 0) * 100).toFixed(0)} % maker), ${m.cancels} cancels; peak RSS ${(maxRss / 1e6).toFixed(0)} MB`;
  return { events, secs, cpuSecs, maxRss, line };
}

/** Runs one phase in a process of its own, so each peak RSS is that phase's alone (not the catalog writer's nor the other phase's). */
function inChild(phase: 'replay' | 'backtest', dir: string): Promise<Phase> {
  return new Promise((done, fail) => {
    const child = fork(fileURLToPath(import.meta.url), ['--bench-phase', phase, dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let got: Phase | undefined;
    child.on('message', (m) => {
      got = m as Phase;
    });
    child.on('error', fail);
    child.on('exit', (code) => (got !== undefined && code === 0 ? done(got) : fail(new Error(`bench ${phase} phase exited ${String(code)}`))));
  });
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-backtest-bench-'));
  try {
    const g0 = Date.now();
    const made = generate(dir, EVENTS);
    console.log(`backtest: generated ${fmt(made)} events (level changes and trades) in ${((Date.now() - g0) / 1000).toFixed(1)} s`);
    const r = await inChild('replay', dir);
    console.log(`backtest: replay-only ${fmt(r.events)} events in ${r.secs.toFixed(1)} s (CPU ${r.cpuSecs.toFixed(1)} s); peak RSS ${(r.maxRss / 1e6).toFixed(0)} MB`);
    const b = await inChild('backtest', dir);
    console.log(`backtest: ${b.line ?? ''}`);
    const rate = b.events / b.secs;
    const replayRate = r.events / r.secs;
    const cpuRate = b.events / b.cpuSecs;
    const replayCpuRate = r.events / r.cpuSecs;
    console.log(`backtest: per CPU second ${fmt(cpuRate)} events vs replay-only ${fmt(replayCpuRate)} events, ratio ${(cpuRate / replayCpuRate).toFixed(2)}`);
    console.log(`bench backtest: ${fmt(rate)} events/s vs replay-only ${fmt(replayRate)} events/s, ratio ${(rate / replayRate).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A phase process: measures, hands its figures to the parent, and exits.
const at = process.argv.indexOf('--bench-phase');
if (at >= 0 && process.send !== undefined) {
  const phase = process.argv[at + 1];
  const dir = process.argv[at + 2]!;
  const result = await (phase === 'replay' ? replayOnly(dir) : backtest(dir));
  process.send(result, () => process.exit(0));
}
