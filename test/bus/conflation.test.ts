// A slow reader of books gets the newest one when it comes back, not a queue: intermediate books are dropped and counted.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { conflateMap, EventBus } from '../../src/bus/index.ts';
import { depthSnapshotEvent, type DepthSnapshotEvent } from '../../src/model/events.ts';
import { capturedLogger, sampleBook, sampleTrade } from './samples.ts';
import type { Level } from '../../src/model/market.ts';

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => {
    open = r;
  });
  return { wait, open };
}

/** Returns a fresh 20+20 level book (new arrays and strings, as a parser makes them) at version `n`. */
function freshBook(n: number): DepthSnapshotEvent {
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 0; i < 20; i++) {
    bids.push([`${11371 - i}.${n % 100}`, `0.${n}${i}`]);
    asks.push([`${11375 + i}.${n % 100}`, `1.${n}${i}`]);
  }
  return depthSnapshotEvent({ symbol: 'BTCUSDT', version: `112801745_${n}`, bids, asks, ts: 1565600357643 + n, recvTs: 1565600357645 + n });
}

describe('EventBus.latest: a one-slot mailbox for slow readers', () => {
  it('hands a reader blocked while 1000 books arrive the newest one, holding at most one meanwhile', async () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    const box = bus.latest('depthSnapshot', 'BTCUSDT');
    const seen: string[] = [];
    const hold = gate();
    const firstSeen = gate();
    const reader = (async () => {
      for await (const book of box) {
        seen.push(book.version);
        firstSeen.open();
        await hold.wait;
      }
    })();

    bus.publish(sampleBook('BTCUSDT', '112801745_0'));
    await firstSeen.wait;
    let maxBuffered = 0;
    for (let n = 1; n <= 1000; n++) {
      bus.publish(sampleBook('BTCUSDT', `112801745_${n}`));
      bus.publish(sampleBook('ETHUSDT', `9_${n}`));
      maxBuffered = Math.max(maxBuffered, box.buffered);
    }
    expect(maxBuffered).toBe(1);
    expect(box.peek()?.version).toBe('112801745_1000');
    expect(box.dropped).toBe(999);

    hold.open();
    bus.close();
    await reader;
    expect(seen).toEqual(['112801745_0', '112801745_1000']);
    expect(box.received).toBe(1001);
    expect(bus.stats().subscribers).toBe(0);
  });

  it('does not grow the heap while the reader is blocked, where an unbounded queue would', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const bus = new EventBus({ logger: capturedLogger().logger, freeze: false });
    const box = bus.latest('depthSnapshot', 'BTCUSDT');
    const N = 20_000;

    gc();
    const base = process.memoryUsage().heapUsed;
    for (let n = 0; n < N; n++) bus.publish(freshBook(n));
    gc();
    const conflated = process.memoryUsage().heapUsed - base;

    // The same run into a queue, as a concatMap-style reader would keep it, to show what the measure sees.
    const queue: DepthSnapshotEvent[] = [];
    const off = bus.subscribe('depthSnapshot', (e) => queue.push(e));
    gc();
    const base2 = process.memoryUsage().heapUsed;
    for (let n = 0; n < N; n++) bus.publish(freshBook(n));
    gc();
    const queued = process.memoryUsage().heapUsed - base2;
    off();

    expect(box.dropped).toBe(2 * N - 1);
    expect(box.buffered).toBe(1);
    expect(queue).toHaveLength(N);
    expect(queued).toBeGreaterThan(20 * 1024 * 1024);
    expect(conflated).toBeLessThan(2 * 1024 * 1024);
    box.close();
  });

  it('ends the loop when the reader breaks out, and stops feeding it', async () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    const box = bus.latest('trade', 'BTCUSDT');
    bus.publish(sampleTrade(0));
    for await (const t of box) {
      expect(t.tradeId).toBe('426635153180475392');
      break;
    }
    expect(bus.stats().subscribers).toBe(0);
    bus.publish(sampleTrade(1));
    expect(box.received).toBe(1);
    expect(await box.next()).toEqual({ value: undefined, done: true });
  });

  it('refuses a second concurrent read with a typed error', async () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    const box = bus.latest('depthSnapshot', 'BTCUSDT');
    const first = box.next();
    await expect(box.next()).rejects.toMatchObject({ code: 'LATEST_CONCURRENT_READ', retry: 'config' });
    bus.publish(sampleBook());
    expect((await first).value?.version).toBe('112801745_18');
    bus.close();
  });
});

describe('conflateMap: the same for Rx readers', () => {
  it('runs the async step on the first book, then on the newest one that came while it was busy', async () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    const started: string[] = [];
    const dropped: string[] = [];
    const hold = gate();
    const done = gate();
    const results: string[] = [];
    bus.forSymbol('depthSnapshot', 'BTCUSDT').pipe(
      conflateMap(async (book) => {
        started.push(book.version);
        if (started.length === 1) await hold.wait;
        return book.bids[0]![0];
      }, { onDrop: (b) => dropped.push(b.version) }),
    ).subscribe({ next: (best) => results.push(best), complete: () => done.open() });

    for (let n = 0; n <= 1000; n++) bus.publish(sampleBook('BTCUSDT', `112801745_${n}`));
    expect(started).toEqual(['112801745_0']);
    hold.open();
    bus.close();
    await done.wait;

    expect(started).toEqual(['112801745_0', '112801745_1000']);
    expect(dropped).toHaveLength(999);
    expect(dropped[0]).toBe('112801745_1');
    expect(dropped[998]).toBe('112801745_999');
    expect(results).toEqual(['11371.49', '11371.49']);
  });

  it('passes an error of the async step to the subscriber', async () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    const err = await new Promise<Error>((resolve) => {
      bus.on('depthSnapshot').pipe(conflateMap(async () => {
        throw new Error('book consumer failed');
      })).subscribe({ error: resolve });
      bus.publish(sampleBook());
    });
    expect(err.message).toBe('book consumer failed');
    bus.close();
  });
});
