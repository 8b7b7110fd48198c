// Recording the embedded venue with bhtrade record's recorder for 60 s (virtual), converting and replaying gives the events a live subscriber saw in that run.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planRecord } from '../../src/cli/record-config.ts';
import { captureFiles } from '../../src/data/capture/reader.ts';
import { MarketRecorder } from '../../src/data/capture/recorder.ts';
import { convert } from '../../src/data/convert.ts';
import type { BusEvent } from '../../src/model/events.ts';
import { MarketWsClient } from '../../src/venue/market-ws.ts';
import { Recorder, startVenueOnClock, turns, until, type Venue } from '../venue/streams/helpers.ts';
import { collect, tempDir } from './helpers.ts';

let v: Venue | undefined;
let client: MarketWsClient | undefined;
let recorder: MarketRecorder | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await recorder?.stop();
  await client?.stop();
  await v?.close();
  cleanup?.();
  [v, client, recorder, cleanup] = [undefined, undefined, undefined, undefined];
});

const SYMBOL = 'BTCUSDT';
const TOPICS = ['trade', 'diffDepth', 'kline_1m', 'realtimes'] as const;

/** Returns a hash of events with their level lists, in order (depth compared level by level, trades field by field). */
function hashOf(events: readonly BusEvent[]): string {
  const h = createHash('sha256');
  for (const e of events) h.update(`${JSON.stringify(e)}\n`);
  return h.digest('hex');
}

describe('record, convert, replay', () => {
  it('gives the same trades, book events, klines and tickers as a live subscriber of the same run', async () => {
    v = await startVenueOnClock({
      agents: [
        { symbol: SYMBOL, kind: 'maker', everyMs: 1000, levels: 10, qty: '0.05', spreadTicks: 5 },
        { symbol: SYMBOL, kind: 'taker', everyMs: 400, qty: '0.01' },
      ],
    });
    const venue = v;
    const t = tempDir();
    cleanup = t.remove;
    // The recorder `bhtrade record` runs, built from the same flags, on the venue's virtual clock. That clock has ms
    // steps, so frames of one ms are told apart by their arrival count, as a real clock's ns tell them apart.
    const plan = planRecord(['--venue', venue.url, '--ws', venue.ws, '--symbols', SYMBOL, '--topics', TOPICS.join(','), '--out', join(t.dir, 'rec')]);
    let lastMs = -1;
    let within = 0;
    const nanos = (): bigint => {
      const ms = venue.clock.now();
      within = ms === lastMs ? within + 1 : 0;
      lastMs = ms;
      return BigInt(ms) * 1_000_000n + BigInt(within);
    };
    recorder = new MarketRecorder({ ...plan.config, restUrl: venue.url, wsUrl: venue.ws, dir: plan.out, clock: venue.clock, nanos });
    await recorder.start();
    const recorded = (): number => recorder!.stats().frames;
    // The live subscriber, on the same clock.
    const rec = new Recorder();
    client = new MarketWsClient({ wsUrl: venue.ws, clock: venue.clock, sink: rec.sink });
    for (const topic of TOPICS) {
      if (topic === 'diffDepth') client.watchBook(SYMBOL);
      else client.subscribe(SYMBOL, topic);
    }
    client.start();
    await until(venue.clock, 'book synced', () => client!.book(SYMBOL)!.state === 'synced');
    await until(venue.clock, 'recorder has frames', () => recorded() > TOPICS.length);
    // Virtual time moves only once both sockets have taken every frame sent so far, so both stamp a push with the same ms.
    const settle = async (): Promise<void> => {
      for (;;) {
        const seen = [recorded(), rec.events.length];
        await turns(8);
        if (recorded() === seen[0] && rec.events.length === seen[1]) return;
      }
    };
    const end = venue.clock.now() + 60_000;
    while (venue.clock.now() < end) {
      await settle();
      await venue.clock.advance(50);
    }
    await settle();
    await recorder.stop();
    const stats = recorder.stats();
    expect(stats).toMatchObject({ gaps: 0, reconnects: 0, errors: 0, pendingLines: 0 });
    // A gzip member flushed every virtual second: the converter reads the capture member by member.
    expect(stats.members).toBeGreaterThan(50);
    const files = await captureFiles(plan.out);
    expect(files).toEqual(recorder.files());

    // No mapping: the instruments come from the capture's brokerInfo line.
    const { report, index } = await convert({ inputs: files, out: join(t.dir, 'cat') });
    expect(report.problems).toEqual([]);
    expect(index.instruments[SYMBOL]).toMatchObject({ kind: 'spot', tick: '0.01', lot: '0.000001', base: 'BTC', quote: 'USDT' });
    const { events, stats: replayed } = await collect({ catalog: join(t.dir, 'cat') });
    expect(replayed.bookGaps).toBe(0);

    const market = new Set(['trade', 'depthSnapshot', 'depthUpdate', 'kline', 'ticker']);
    const live = rec.events.filter((e) => market.has(e.kind));
    const kinds = (es: readonly BusEvent[], k: string): number => es.filter((e) => e.kind === k).length;
    expect(kinds(live, 'trade')).toBeGreaterThan(20);
    expect(kinds(live, 'depthUpdate')).toBeGreaterThan(20);
    for (const k of market) expect(kinds(events, k), k).toBe(kinds(live, k));
    // Depth equal level by level at each step, trades equal, and the whole sequence of market events equal by hash.
    expect(events.filter((e) => e.kind.startsWith('depth'))).toEqual(live.filter((e) => e.kind.startsWith('depth')));
    expect(events.filter((e) => e.kind === 'trade')).toEqual(live.filter((e) => e.kind === 'trade'));
    expect(hashOf(events)).toBe(hashOf(live));
  }, 60_000);
});
