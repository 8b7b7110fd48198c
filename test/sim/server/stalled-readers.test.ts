// 200 market subscribers that never read: the venue (alone in a child process) conflates their depth, closes the ones past the buffer limit, and stays under 300 MB of RSS over 60 s of market.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

const SUBSCRIBERS = 200;
const LIMIT_RSS = 300 * 1024 * 1024;

let child: ChildProcessWithoutNullStreams | undefined;
const clients: WebSocket[] = [];
afterAll(() => {
  for (const ws of clients) ws.terminate();
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

/** Opens one market connection, subscribes to `topics` of two symbols, waits for their snapshots, then stops reading for good. */
async function stalledSubscriber(url: string, topics: readonly string[]): Promise<WebSocket> {
  const ws = new WebSocket(`${url}/openapi/quote/ws/v1`);
  clients.push(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const snapshots = new Promise<void>((resolve) => {
    let n = 0;
    ws.on('message', (d) => {
      if ((JSON.parse(d.toString()) as { f?: boolean }).f === true && ++n === 2 * topics.length) resolve();
    });
  });
  ws.on('error', () => undefined);
  for (const topic of topics) ws.send(JSON.stringify({ symbol: 'BTCUSDT,ETHUSDT', topic, event: 'sub', params: { limit: 100, binary: false } }));
  await snapshots;
  ws.pause();
  return ws;
}

describe('stalled market readers', () => {
  // Depth alone is conflated: the readers stay connected the whole minute. With trades, which cannot be skipped, they pass the close limit and are dropped.
  for (const { topics, open } of [{ topics: ['depth'], open: SUBSCRIBERS }, { topics: ['depth', 'trade'], open: 0 }]) {
    it(`keep the venue under 300 MB with ${SUBSCRIBERS} subscribers to ${topics.join(' and ')} that never read, for 60 s of market`, async () => {
      const venue = spawn(process.execPath, ['--import', 'tsx', 'test/sim/server/fixtures/stalled-venue.ts'], { stdio: 'pipe' });
      child = venue;
      let err = '';
      venue.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const lines = createInterface({ input: venue.stdout })[Symbol.asyncIterator]();
      const first = await lines.next();
      expect(first.done, err).toBe(false);
      const { ws } = JSON.parse(first.value as string) as { ws: string };
      for (let i = 0; i < SUBSCRIBERS; i++) await stalledSubscriber(ws, topics);
      venue.stdin.write('go\n');
      const last = await lines.next();
      expect(last.done, err).toBe(false);
      const r = JSON.parse(last.value as string) as { peakRss: number; virtualMs: number; shed: number; open: number; conflating: number };
      // The whole minute ran (a broken bound stops the run early) and the peak stayed under the limit.
      expect(r.virtualMs).toBe(60_000);
      expect(r.peakRss, `peak RSS ${Math.round(r.peakRss / 1048576)} MB`).toBeLessThan(LIMIT_RSS);
      expect(r.open).toBe(open);
      expect(r.shed).toBe(SUBSCRIBERS - open);
      process.stderr.write(`stalled readers (${topics.join('+')}): peak RSS ${Math.round(r.peakRss / 1048576)} MB, ${r.shed} shed, ${r.open} still open, ${r.conflating} owed the latest book\n`);
      for (const c of clients.splice(0)) c.terminate();
    });
  }
});
