// The rate limiter forgets clients whose windows have ended: many addresses calling once each do not stay in memory.
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTest, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

/** GET /openapi/v1/time from the loopback address `from` (any 127/8 address reaches a server on 127.0.0.1); resolves with the status. */
function timeFrom(from: string): Promise<number> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/openapi/v1/time', localAddress: from, agent: false, headers: { Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

/** Calls once from each of `n` addresses starting at the `first`-th after 127.0.1.0, 16 at a time. */
async function callFrom(first: number, n: number): Promise<void> {
  let next = first;
  const worker = async (): Promise<void> => {
    while (next < first + n) {
      const i = next++;
      expect(await timeFrom(`127.0.${1 + (i >> 8)}.${i & 255}`)).toBe(200);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

describe('rate limiter memory', () => {
  it('stays bounded while 1200 addresses call once each over two minutes', async () => {
    const perMinute = 600;
    for (let minute = 0; minute < 2; minute++) {
      await callFrom(minute * perMinute, perMinute);
      expect(t.venue.server.limiter.tracked).toBeLessThanOrEqual(1024);
      await t.clock.advance(60_000);
    }
    // A client still inside its window keeps its count: the sweep forgets only ended windows.
    expect(t.venue.server.limiter.tracked).toBeGreaterThan(0);
  });
});
