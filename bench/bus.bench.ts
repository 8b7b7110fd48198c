// Events per second through EventBus.publish to 3 subscribers, beside a bare RxJS Subject with 3 subscribers in the same run.
import { filter, Subject } from 'rxjs';
import { EventBus } from '../src/bus/index.ts';
import { silentLogger } from '../src/core/logger.ts';
import { depthSnapshotEvent, tradeEvent, type BusEvent, type TradeEvent } from '../src/model/events.ts';
import type { Level } from '../src/model/market.ts';

const N = 2_000_000;
const ROUNDS = 5;

function makeEvents(): TradeEvent[] {
  const out: TradeEvent[] = [];
  // The published Trade Streams sample, over two symbols so per-symbol routing has something to skip.
  for (let i = 0; i < 1024; i++) {
    out.push(tradeEvent({
      symbol: i % 2 === 0 ? 'BTCUSDT' : 'ETHUSDT', tradeId: (426635153180475392n + BigInt(i)).toString(),
      price: '11369', qty: i % 3 === 0 ? '0.01' : '0.0012', takerSide: 'SELL', ts: 1565594873508 + i, recvTs: 1565594873510 + i,
    }));
  }
  return out;
}

/** Returns events/s of one run of `publish` over N events. */
function once(events: readonly TradeEvent[], publish: (ev: BusEvent) => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) publish(events[i & 1023]!);
  return (N * 1e9) / Number(process.hrtime.bigint() - t0);
}

/** Returns the best events/s of each scenario; rounds interleave the scenarios so warm-up and machine noise fall on all alike. */
function measure(events: readonly TradeEvent[], scenarios: readonly ((ev: BusEvent) => void)[]): number[] {
  const best = scenarios.map(() => 0);
  for (let r = 0; r < ROUNDS; r++) {
    scenarios.forEach((publish, i) => {
      best[i] = Math.max(best[i]!, once(events, publish));
    });
  }
  return best;
}

/** Returns the µs one publish of a fresh 20+20 level book costs on `bus` (best of 3 runs of 20 000). */
function bookMicros(bus: EventBus): number {
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const books = Array.from({ length: 20_000 }, (_, n) => {
      const bids: Level[] = [];
      const asks: Level[] = [];
      for (let i = 0; i < 20; i++) {
        bids.push(['11371.49', '0.0014']);
        asks.push(['11375.41', '0.0053']);
      }
      return depthSnapshotEvent({ symbol: 'BTCUSDT', version: `112801745_${n}`, bids, asks, ts: n, recvTs: n });
    });
    const t0 = process.hrtime.bigint();
    for (const b of books) bus.publish(b);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1000 / books.length);
  }
  return best;
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const events = makeEvents();
  let sink = 0;
  const add = (e: BusEvent): void => {
    sink += e.ts & 1;
  };

  const subject = new Subject<BusEvent>();
  for (let i = 0; i < 3; i++) subject.subscribe(add);

  // The same routing done the pure-Rx way: one Subject, a filter chain per subscriber.
  const routed = new Subject<BusEvent>();
  routed.pipe(filter((e) => e.kind === 'trade')).subscribe(add);
  routed.pipe(filter((e) => e.kind === 'trade'), filter((e) => (e as TradeEvent).symbol === 'BTCUSDT')).subscribe(add);
  routed.pipe(filter((e) => e.kind === 'trade')).subscribe(add);

  const plain = new EventBus({ logger: silentLogger(), freeze: false });
  plain.subscribe('trade', add);
  plain.subscribe('trade', add, { symbol: 'BTCUSDT' });
  plain.subscribe('trade', add);

  const rx = new EventBus({ logger: silentLogger(), freeze: false });
  rx.on('trade').subscribe(add);
  rx.forSymbol('trade', 'BTCUSDT').subscribe(add);
  rx.events$.subscribe(add);

  const frozen = new EventBus({ logger: silentLogger(), freeze: true });
  frozen.subscribe('trade', add);
  frozen.subscribe('trade', add, { symbol: 'BTCUSDT' });
  frozen.subscribe('trade', add);

  const [bare, viaFilters, ours, viaRx, freshBare, fresh] = measure(events, [
    (e) => subject.next(e),
    (e) => routed.next(e),
    (e) => plain.publish(e),
    (e) => rx.publish(e),
    // Fresh events: freezing an already frozen event is a no-op and would flatter the figure.
    (e) => plain.publish(tradeEvent(e as TradeEvent)),
    (e) => frozen.publish(tradeEvent(e as TradeEvent)),
  ]) as [number, number, number, number, number, number];

  const bookOff = bookMicros(plain);
  const bookOn = bookMicros(frozen);

  plain.close();
  rx.close();
  frozen.close();
  subject.complete();
  routed.complete();

  console.log(`bus: ${N.toLocaleString('en-US')} trade events x ${ROUNDS} rounds (best), 3 subscribers each (sink ${sink & 1})`);
  console.log(`  rxjs Subject.next, 3 subscribers             ${fmt(bare)} events/s`);
  console.log(`  rxjs Subject + filter chains (same routing)   ${fmt(viaFilters)} events/s`);
  console.log(`  EventBus plain handlers (kind, symbol, kind)  ${fmt(ours)} events/s`);
  console.log(`  EventBus Rx streams (on, forSymbol, events$)  ${fmt(viaRx)} events/s`);
  console.log(`  EventBus plain + building each event          ${fmt(freshBare)} events/s`);
  console.log(`  same with deep freeze on (dev/test default)   ${fmt(fresh)} events/s`);
  console.log(`  20+20 level book publish: ${bookOff.toFixed(2)} µs, with deep freeze ${bookOn.toFixed(2)} µs`);
  console.log(`bench bus: ${fmt(ours)} events/s vs rxjs Subject ${fmt(bare)} events/s, ratio ${(ours / bare).toFixed(2)}`);
}
