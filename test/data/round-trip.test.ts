// Recording the embedded venue's market socket for 60 s (virtual), converting and replaying gives the events a live subscriber saw in that run.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import WebSocket from 'ws';
import { convert } from '../../src/data/convert.ts';
import type { BusEvent } from '../../src/model/events.ts';
import { MARKET_WS_PATH, MarketWsClient } from '../../src/venue/market-ws.ts';
import { Recorder, startVenueOnClock, turns, until, type Venue } from '../venue/streams/helpers.ts';
import { collect, tempDir } from './helpers.ts';

let v: Venue | undefined;
let client: MarketWsClient | undefined;
let raw: WebSocket | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  raw?.close();
  await client?.stop();
  await v?.close();
  cleanup?.();
  [v, client, raw, cleanup] = [undefined, undefined, undefined, undefined];
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
    // The recorder: a plain socket writing each frame as received, with its receive time in ns. The virtual clock
    // has ms steps, so frames of one ms are told apart by their arrival count, as a real clock's ns tell them apart.
    const lines: string[] = [];
    let lastMs = -1;
    let within = 0;
    // The header a capture starts with: the session, then the venue's brokerInfo answer as received (the instruments).
    const info = await request(`${venue.url}/openapi/v1/brokerInfo`);
    const start = `${BigInt(venue.clock.now()) * 1_000_000n}`;
    lines.push(`${start} !session {"format":1,"stream":"market","symbols":["${SYMBOL}"]}`, `${start} !instruments ${await info.body.text()}`);
    raw = new WebSocket(`${venue.ws}${MARKET_WS_PATH}`);
    raw.on('message', (data) => {
      const ms = venue.clock.now();
      within = ms === lastMs ? within + 1 : 0;
      lastMs = ms;
      lines.push(`${BigInt(ms) * 1_000_000n + BigInt(within)} ${String(data)}`);
    });
    await new Promise<void>((resolve, reject) => {
      raw!.once('open', () => resolve());
      raw!.once('error', reject);
    });
    for (const topic of TOPICS) raw.send(JSON.stringify({ symbol: SYMBOL, topic, event: 'sub', params: { binary: false } }));
    // The live subscriber, on the same clock.
    const rec = new Recorder();
    client = new MarketWsClient({ wsUrl: venue.ws, clock: venue.clock, sink: rec.sink });
    for (const topic of TOPICS) {
      if (topic === 'diffDepth') client.watchBook(SYMBOL);
      else client.subscribe(SYMBOL, topic);
    }
    client.start();
    await until(venue.clock, 'book synced', () => client!.book(SYMBOL)!.state === 'synced');
    await until(venue.clock, 'recorder has the book', () => lines.some((l) => l.includes('"diffDepth"')));
    // Virtual time moves only once both sockets have taken every frame sent so far, so both stamp a push with the same ms.
    const settle = async (): Promise<void> => {
      for (;;) {
        const seen = [lines.length, rec.events.length];
        await turns(8);
        if (lines.length === seen[0] && rec.events.length === seen[1]) return;
      }
    };
    const end = venue.clock.now() + 60_000;
    while (venue.clock.now() < end) {
      await settle();
      await venue.clock.advance(50);
    }
    await settle();
    const file = join(t.dir, 'market-BTCUSDT.log.gz');
    writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));

    // No mapping: the instruments come from the recording's brokerInfo line.
    const { report, index } = await convert({ inputs: [file], out: join(t.dir, 'cat') });
    expect(report.problems).toEqual([]);
    expect(index.instruments[SYMBOL]).toMatchObject({ kind: 'spot', tick: '0.01', lot: '0.000001', base: 'BTC', quote: 'USDT' });
    const { events, stats } = await collect({ catalog: join(t.dir, 'cat') });
    expect(stats.bookGaps).toBe(0);

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
