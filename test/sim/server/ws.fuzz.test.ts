// Fuzz the venue's two WebSocket routes (fast-check, fixed seed, bounded runs): any frame gets a data frame, a {code,desc} error or nothing, and the connection stays open and usable.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWs, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

const value = fc.oneof(
  fc.constantFrom('sub', 'cancel', 'cancel_all', 'depth', 'diffDepth', 'trade', 'kline_1m', 'kline_2m', 'index', 'BTCUSDT', 'ETHBTC,BTCUSDT', 'BTC-PERP-REV', ''),
  fc.string({ maxLength: 30 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('limit', 'binary', 'klineType'), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), { maxKeys: 3 }),
);
const request = fc.dictionary(fc.constantFrom('event', 'topic', 'symbol', 'params', 'id', 'ping', 'pong'), value, { maxKeys: 6 });
const frame = fc.oneof(request.map((r) => JSON.stringify(r)), fc.string({ maxLength: 60 }), fc.json({ maxDepth: 2 }));

/** Resolves once the connection answers a ping: everything sent before it has been handled, and the socket is alive. */
async function alive(c: Awaited<ReturnType<typeof openWs>>, n: number): Promise<void> {
  c.ws.send(JSON.stringify({ ping: n }));
  await c.next((f) => f.pong === n);
}

describe('fuzzed frames on the WebSocket routes', () => {
  it('the market stream answers every frame with data, a {code,desc} error or nothing, and stays open', async () => {
    const c = await openWs(`${t.ws}/openapi/quote/ws/v1`);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(frame, async (text) => {
        const from = c.frames.length;
        c.ws.send(text);
        await alive(c, ++n);
        for (const f of c.frames.slice(from)) {
          const ok = 'pong' in f || Array.isArray(f.data) || (typeof f.code === 'string' && typeof f.desc === 'string') || f.event !== undefined;
          expect(ok, `${text} → ${JSON.stringify(f).slice(0, 200)}`).toBe(true);
        }
      }),
      { numRuns: 150, seed: 1301 },
    );
    c.ws.close();
  }, 60_000);

  it('the user stream ignores or pongs every frame and stays open', async () => {
    const key = (await signed(t.url, 'POST', '/openapi/v1/userDataStream', {})).json.listenKey as string;
    const c = await openWs(`${t.ws}/openapi/ws/${key}`);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(frame, async (text) => {
        const from = c.frames.length;
        c.ws.send(text);
        await alive(c, ++n);
        for (const f of c.frames.slice(from)) expect('pong' in f, `${text} → ${JSON.stringify(f)}`).toBe(true);
      }),
      { numRuns: 100, seed: 1302 },
    );
    c.ws.close();
  }, 60_000);
});
