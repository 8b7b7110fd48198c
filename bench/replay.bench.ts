// Replay of a 50 M-event catalog (seeded, with the real samples' shape) to a bus subscriber, beside the decode-only rate of the same Parquet columns.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../src/bus/index.ts';
import { silentLogger } from '../src/core/logger.ts';
import { Rng } from '../src/core/random.ts';
import { CatalogWriter, readCatalog } from '../src/data/catalog.ts';
import { readColumns } from '../src/data/columns.ts';
import { VERSION_SUFFIX_KEY } from '../src/data/import-bhtrade.ts';
import { TableFileReader } from '../src/data/parquet.ts';
import { replay } from '../src/data/replay.ts';
import { ConvertReport } from '../src/data/report.ts';
import { AGGRESSOR, BOOK_FLAG, SIDE } from '../src/data/tables.ts';

const EVENTS = Number(process.env['BENCH_REPLAY_EVENTS'] ?? 50_000_000);
const SYMBOL = 'BTCUSDT';
// From the spot BTCUSDT sample (2024-08-08): 300 111 level changes in 6 495 diffs (46 a diff, a diff every 100 ms)
// and 19 904 trades over 650 s (about one trade per 2 000 level changes... 3 a diff); prices within ±200 ticks of the mid.
const LEVELS_PER_DIFF = 46;
const TRADES_PER_DIFF = 3;
const DIFF_EVERY_NS = 100_000_000n;
const SPREAD_TICKS = 200;

/** Writes a catalog of about `events` book level changes and trades; returns the exact count. */
export function generate(dir: string, events: number): number {
  const report = new ConvertReport();
  const cat = new CatalogWriter(dir, report);
  cat.instrument({
    symbol: SYMBOL, kind: 'spot', tick: '0.01', lot: '0.00000001', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: true,
  });
  const rng = new Rng(20240808);
  const rnd = (): number => rng.next();
  const meta = { [VERSION_SUFFIX_KEY]: '1' };
  let t = 1_723_147_200_000_000_000n; // 2024-08-08T20:00Z: the data crosses midnight, so each table has two files
  let mid = 6_180_000;
  let seq = 1n;
  let tradeId = 3_735_683_259n;
  let n = 0;
  // A snapshot of the levels around the mid first.
  for (let d = 1; d <= SPREAD_TICKS; d++) {
    cat.row('book_deltas', SYMBOL, [t, t, SIDE.BID, BigInt(mid - d), 100_000n, BOOK_FLAG.SNAPSHOT, seq], meta);
    cat.row('book_deltas', SYMBOL, [t, t, SIDE.ASK, BigInt(mid + d), 100_000n, BOOK_FLAG.SNAPSHOT | (d === SPREAD_TICKS ? BOOK_FLAG.LAST : 0), seq], meta);
    n += 2;
  }
  while (n < events) {
    t += DIFF_EVERY_NS + BigInt(Math.floor(rnd() * 1_000_000));
    seq += 1n;
    const ev = t - 1_200_000n;
    // The mid moves a tick at a time; the level it lands on leaves the side it would cross.
    const move = rnd() < 0.1 ? (rnd() < 0.5 ? -1 : 1) : 0;
    mid += move;
    const rows: [number, number, bigint][] = [];
    if (move !== 0) rows.push([move > 0 ? SIDE.ASK : SIDE.BID, mid, 0n]);
    while (rows.length < LEVELS_PER_DIFF) {
      const side = rnd() < 0.5 ? SIDE.BID : SIDE.ASK;
      const d = 1 + Math.floor(rnd() * rnd() * SPREAD_TICKS);
      rows.push([side, side === SIDE.BID ? mid - d : mid + d, rnd() < 0.3 ? 0n : BigInt(1 + Math.floor(rnd() * 5_000_000))]);
    }
    for (let i = 0; i < rows.length; i++) {
      const [side, price, qty] = rows[i]!;
      cat.row('book_deltas', SYMBOL, [ev, t, side, BigInt(price), qty, i === rows.length - 1 ? BOOK_FLAG.LAST : 0, seq], meta);
    }
    n += rows.length;
    for (let k = 0; k < TRADES_PER_DIFF; k++) {
      const buy = rnd() < 0.5;
      const tt = t + BigInt(1 + k);
      cat.row('trades', SYMBOL, [tt - 1_200_000n, tt, BigInt(buy ? mid + 1 : mid - 1), BigInt(1 + Math.floor(rnd() * 2_000_000)), buy ? AGGRESSOR.BUY : AGGRESSOR.SELL, tradeId++]);
    }
    n += TRADES_PER_DIFF;
  }
  cat.finish([]);
  return n;
}

/** Returns events/s of decoding the replayed columns alone (the same row groups and columns, into numbers, no events). */
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

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bhtrade-replay-bench-'));
  try {
    const g0 = Date.now();
    const made = generate(dir, EVENTS);
    console.log(`replay: generated ${fmt(made)} events (level changes and trades) in ${((Date.now() - g0) / 1000).toFixed(1)} s`);
    const decode = await decodeOnly(dir);
    console.log(`replay: decode-only ${fmt(decode.rate)} events/s over ${fmt(decode.rows)} rows`);
    const bus = new EventBus({ freeze: false, logger: silentLogger() });
    let received = 0;
    bus.subscribe('depthUpdate', (ev) => {
      received += ev.bids.length + ev.asks.length;
    });
    bus.subscribe('trade', () => {
      received += 1;
    });
    let maxRss = process.memoryUsage().rss;
    let nextCheck = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const stats = await replay({
      catalog: dir,
      sink: (ev) => {
        bus.publish(ev);
        if (received >= nextCheck) {
          nextCheck = received + 1_000_000;
          maxRss = Math.max(maxRss, process.memoryUsage().rss);
        }
      },
    });
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = cpuSeconds(c0);
    const events = stats.levels + stats.trades;
    const rate = events / s;
    console.log(`replay: ${fmt(events)} events (${fmt(stats.levels)} level changes, ${fmt(stats.trades)} trades; subscriber saw ${fmt(received)}) in ${s.toFixed(1)} s, book gaps ${stats.bookGaps}, peak RSS ${(maxRss / 1e6).toFixed(0)} MB`);
    bus.close();
    console.log(`replay: per CPU second ${fmt(events / cpu)} events/s vs decode-only ${fmt(decode.cpuRate)} events/s, ratio ${(events / cpu / decode.cpuRate).toFixed(2)}`);
    console.log(`bench replay: ${fmt(rate)} events/s vs decode-only ${fmt(decode.rate)} events/s, ratio ${(rate / decode.rate).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
