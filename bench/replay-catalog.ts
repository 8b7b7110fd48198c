// The replay benchmark's catalog: a seeded generator with the real samples' shape, run as its own process so the replay's peak RSS is the replay's.
import { fileURLToPath } from 'node:url';
import { CatalogWriter } from '../src/data/catalog.ts';
import { VERSION_SUFFIX_KEY } from '../src/data/import-bhtrade.ts';
import { ConvertReport } from '../src/data/report.ts';
import { AGGRESSOR, BOOK_FLAG, SIDE } from '../src/data/tables.ts';
import { Rng } from '../src/core/random.ts';

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, events] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify({ events: generate(dir!, Number(events)) })}\n`);
}
