import { afterEach, describe, expect, it } from 'vitest';
import { send, signed, startTest, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
afterEach(async () => t?.close());

describe('rate limits and bans on the virtual clock', () => {
  it('answers 429 -1003 with Retry-After past the weight limit, then 418 to a client that keeps going, for longer each time', async () => {
    t = await startTest({
      rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 5 }],
      bans: { minMs: 120_000, maxMs: 259_200_000, scale: 1 },
    });
    const v = t;
    // A bounded burst of 20 requests.
    const statuses: number[] = [];
    let first429: Awaited<ReturnType<typeof send>> | undefined;
    let first418: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 20; i++) {
      const r = await send(v.url, 'GET', '/openapi/v1/time');
      statuses.push(r.status);
      if (r.status === 429) first429 ??= r;
      if (r.status === 418) first418 ??= r;
    }
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(statuses.slice(6).every((s) => s === 418)).toBe(true);
    expect(first429!.json).toEqual({ code: -1003, msg: 'Too many requests, current limit is 5 requests per minute .' });
    expect(Number(first429!.headers['retry-after'])).toBeGreaterThan(0);
    expect(first418!.headers['retry-after']).toBe('120');
    // The ban lasts 2 minutes; after it the client is served again.
    await v.clock.advance(119_000);
    expect((await send(v.url, 'GET', '/openapi/v1/time')).status).toBe(418);
    await v.clock.advance(1_000);
    expect((await send(v.url, 'GET', '/openapi/v1/time')).status).toBe(200);
    // A repeat offender is banned twice as long.
    for (let i = 0; i < 10; i++) await send(v.url, 'GET', '/openapi/v1/time');
    const again = await send(v.url, 'GET', '/openapi/v1/time');
    expect(again.status).toBe(418);
    expect(again.headers['retry-after']).toBe('240');
  });

  it('caps bans at the configured maximum and scales them', async () => {
    t = await startTest({ rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', limit: 1 }], bans: { minMs: 120_000, maxMs: 480_000, scale: 0.01 } });
    const seen: string[] = [];
    for (let round = 0; round < 5; round++) {
      await send(t.url, 'GET', '/openapi/v1/time');
      await send(t.url, 'GET', '/openapi/v1/time');
      const b = await send(t.url, 'GET', '/openapi/v1/time');
      seen.push(String(b.headers['retry-after']));
      await t.clock.advance(10_000);
    }
    // 1.2 s, 2.4 s, 4.8 s, then capped at 4.8 s (scaled from 2, 4, 8 minutes).
    expect(seen).toEqual(['2', '3', '5', '5', '5']);
  });

  it('answers 429 -1015 past the ORDERS limit, and counts only new orders', async () => {
    t = await startTest({ rateLimits: [{ rateLimitType: 'ORDERS', interval: 'SECOND', limit: 2 }] });
    const order = { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01' };
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order)).status).toBe(200);
    expect((await signed(t.url, 'GET', '/openapi/v1/openOrders', {})).status).toBe(200);
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order)).status).toBe(200);
    const r = await signed(t.url, 'POST', '/openapi/v1/order', order);
    expect(r.status).toBe(429);
    expect(r.json).toEqual({ code: -1015, msg: 'Too many new orders; current limit is 2 orders per second.' });
    expect(r.headers['retry-after']).toBe('1');
    await t.clock.advance(1000);
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order, { timestamp: t.clock.now() })).status).toBe(200);
  });
});
