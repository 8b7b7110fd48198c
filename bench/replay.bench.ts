// Replay of a 50 M-event catalog (seeded, with the real samples' shape) to a bus subscriber, beside the decode-only rate of the same Parquet columns.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventBus } from '../src/bus/index.ts';
import { silentLogger } from '../src/core/logger.ts';
import { readCatalog } from '../src/data/catalog.ts';
import { readColumns } from '../src/data/columns.ts';
import { TableFileReader } from '../src/data/parquet.ts';
import { replay, type ReplayOptions, type ReplayStats } from '../src/data/replay.ts';
import { SIDE } from '../src/data/tables.ts';

const EVENTS = Number(process.env['BENCH_REPLAY_EVENTS'] ?? 50_000_000);
/** Set to 0 to skip the informative replay in levels mode (strings per level), the slower of the two. */
const LEVELS = process.env['BENCH_REPLAY_LEVELS'] !== '0';

/** Writes the catalog in a child process (its memory is not the replay's) and returns the events it holds. */
function generateApart(dir: string, events: number): number {
  const script = fileURLToPath(new URL('./replay-catalog.ts', import.meta.url));
  const r = spawnSync(process.execPath, [...process.execArgv, script, dir, String(events)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`the catalog generator exited ${r.status ?? r.signal}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { events: number }).events;
}

/** Returns events/s of decoding the replayed columns alone (the same row groups and columns, read the way replay reads them, no events). */
async function decodeOnly(dir: string): Promise<{ rate: number; cpuRate: number; rows: number }> {
  const index = readCatalog(dir);
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let rows = 0;
  let sink = 0;
  for (const f of index.files) {
    const r = await TableFileReader.open(join(dir, f.path));
    const cols = f.table === 'book_deltas'
      ? ['ts_event', 'ts_local', 'side', 'price', 'qty', 'flags', 'sequence']
      : ['ts_event', 'ts_local', 'price', 'qty', 'aggressor', 'trade_id'];
    for (let g = 0; g < r.groupRows().length; g++) {
      const c = await readColumns(r, g, cols);
      let n = 0;
      for (const name of cols) {
        if (name.startsWith('ts_')) {
          const { us } = c.micros(name);
          sink += us[0]!;
          n = us.length;
        } else if (name === 'side' || name === 'flags' || name === 'aggressor') sink += c.int32s(name)[0]!;
        else sink += c.numbers(name)[0]!;
      }
      rows += n;
    }
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = cpuSeconds(c0);
  if (sink === 0.5) console.log('unreachable');
  return { rate: rows / s, cpuRate: rows / cpu, rows };
}

/** Returns the process's CPU seconds since `from`: on a machine shared with other work, a steadier figure than wall time. */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** The process's peak RSS so far, MB. */
function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

interface Measured {
  readonly stats: ReplayStats;
  readonly received: number;
  readonly rate: number;
  readonly cpuRate: number;
  readonly seconds: number;
}

/** Replays the catalog to a bus whose subscriber reads every level change and trade; returns the rates. */
async function toBus(dir: string, depth: NonNullable<ReplayOptions['depth']>): Promise<Measured> {
  const bus = new EventBus({ freeze: false, logger: silentLogger() });
  let received = 0;
  let lots = 0;
  // The subscriber reads each level change: its side, price and quantity (as ticks and lots, or as strings).
  bus.subscribe('depthBatch', (ev) => {
    const { side, price, qty } = ev;
    for (let i = 0; i < side.length; i++) {
      if (side[i] === SIDE.NONE) continue;
      received += 1;
      lots += qty[i]! + (price[i]! & 1);
    }
  });
  bus.subscribe('depthUpdate', (ev) => {
    for (const [p, q] of ev.bids) lots += p.length + q.length;
    for (const [p, q] of ev.asks) lots += p.length + q.length;
    received += ev.bids.length + ev.asks.length;
  });
  bus.subscribe('trade', (ev) => {
    received += 1;
    lots += ev.qty.length;
  });
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const stats = await replay({ catalog: dir, depth, sink: (ev) => bus.publish(ev) });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = cpuSeconds(c0);
  bus.close();
  if (lots === 0.5) console.log('unreachable');
  const events = stats.levels + stats.trades;
  return { stats, received, rate: events / seconds, cpuRate: events / cpu, seconds };
}

function describe(label: string, m: Measured): string {
  const { stats } = m;
  return `replay (${label}): ${fmt(stats.levels + stats.trades)} events (${fmt(stats.levels)} level changes, ${fmt(stats.trades)} trades; subscriber saw ${fmt(m.received)}) `
    + `in ${m.seconds.toFixed(1)} s, ${fmt(m.rate)} events/s, per CPU second ${fmt(m.cpuRate)}, book gaps ${stats.bookGaps}`;
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-replay-bench-'));
  try {
    const g0 = Date.now();
    const made = generateApart(dir, EVENTS);
    console.log(`replay: generated ${fmt(made)} events (level changes and trades) in ${((Date.now() - g0) / 1000).toFixed(1)} s (a child process)`);
    const before = peakRssMb();
    const batches = await toBus(dir, 'batches');
    const peak = peakRssMb();
    console.log(describe('depth batches', batches));
    console.log(`replay: peak RSS ${peak.toFixed(0)} MB during the batch replay (process.resourceUsage().maxRSS; ${before.toFixed(0)} MB before it)`);
    const decode = await decodeOnly(dir);
    console.log(`replay: decode-only ${fmt(decode.rate)} events/s over ${fmt(decode.rows)} rows, per CPU second ${fmt(decode.cpuRate)}`);
    if (LEVELS) {
      const levels = await toBus(dir, 'levels');
      console.log(describe('levels as strings, depthSnapshot/depthUpdate', levels));
    }
    console.log(`replay: per CPU second ${fmt(batches.cpuRate)} events/s vs decode-only ${fmt(decode.cpuRate)} events/s, ratio ${(batches.cpuRate / decode.cpuRate).toFixed(2)}`);
    console.log(`bench replay: ${fmt(batches.rate)} events/s vs decode-only ${fmt(decode.rate)} events/s, ratio ${(batches.rate / decode.rate).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
