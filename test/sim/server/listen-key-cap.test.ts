// A client that keeps creating listenKeys without closing them holds at most MAX_KEYS_PER_OWNER: each new one past it ends its oldest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_KEYS_PER_OWNER } from '../../../src/sim/server/listen-keys.ts';
import { openWs, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

async function listenKey(): Promise<string> {
  const r = await signed(t.url, 'POST', '/openapi/v1/userDataStream', {});
  expect(r.status).toBe(200);
  return r.json.listenKey as string;
}

async function upgradeStatus(key: string): Promise<number> {
  const ws = new WebSocket(`${t.ws}/openapi/ws/${key}`);
  return new Promise<number>((resolve) => {
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
  });
}

describe('listenKeys of one account', () => {
  it('are bounded: past the cap the oldest key ends, its stream closes, and the newest keys all stay valid', async () => {
    const first = await listenKey();
    const stream = await openWs(`${t.ws}/openapi/ws/${first}`);
    const later: string[] = [];
    for (let i = 0; i < MAX_KEYS_PER_OWNER - 1; i++) later.push(await listenKey());
    expect(t.venue.server.listenKeys.size()).toBe(MAX_KEYS_PER_OWNER);
    expect(await upgradeStatus(first)).toBe(101);

    for (let i = 0; i < MAX_KEYS_PER_OWNER + 8; i++) later.push(await listenKey());
    expect(t.venue.server.listenKeys.size()).toBe(MAX_KEYS_PER_OWNER);
    expect(await stream.closed).toBe(1000);
    expect(await upgradeStatus(first)).toBe(400);
    expect(await upgradeStatus(later[later.length - MAX_KEYS_PER_OWNER - 1]!)).toBe(400);
    expect(await upgradeStatus(later[later.length - MAX_KEYS_PER_OWNER]!)).toBe(101);
    expect(await upgradeStatus(later.at(-1)!)).toBe(101);
  });
});
