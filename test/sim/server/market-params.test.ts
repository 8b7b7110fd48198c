// A market subscription's params are kept and echoed in every push: a blob is refused, so many connections cannot make the venue hold gigabytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PARAMS_CHARS } from '../../../src/sim/server/market-requests.ts';
import { openWs, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

describe('market subscription params', () => {
  it('past MAX_PARAMS_CHARS are refused with -10000 and subscribe nothing; short ones are echoed', async () => {
    const m = await openWs(`${t.ws}/openapi/quote/ws/v1`);
    const big = { binary: false, pad: 'x'.repeat(MAX_PARAMS_CHARS) };
    for (const topic of ['depth', 'trade', 'kline_1m']) m.ws.send(JSON.stringify({ symbol: 'BTCUSDT', topic, event: 'sub', params: big }));
    m.ws.send(JSON.stringify({ ping: 1 }));
    const before: unknown[] = [];
    for (;;) {
      const f = await m.next();
      if ('pong' in f) break;
      before.push(f);
    }
    expect(before).toEqual([0, 1, 2].map(() => ({ code: '-10000', desc: 'Invalid request!' })));
    m.ws.send(JSON.stringify({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false, limit: 5 } }));
    expect(await m.next()).toMatchObject({ topic: 'depth', f: true, params: { binary: false, limit: 5 } });
    m.ws.close();
  });
});
