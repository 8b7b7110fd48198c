// Replays of signed wallet movements: the same signed transfer or withdrawal sent again within its window moves money once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayGuard } from '../../../src/sim/server/replay.ts';
import { hmac, KEY, send, signed, startTest, T0, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

/** Returns the demo main account's free USDT. */
async function freeUsdt(at: number): Promise<string> {
  const r = await signed(t.url, 'GET', '/openapi/v1/account', {}, { timestamp: at });
  return (r.json.balances as { asset: string; free: string }[]).find((b) => b.asset === 'USDT')!.free;
}

describe('replayed signed wallet requests', () => {
  it('moves money once when one signed transfer is sent three times', async () => {
    expect(await freeUsdt(T0)).toBe('100000');
    const text = `fromAccountType=1&fromAccountIndex=0&toAccountType=1&toAccountIndex=1&tokenId=USDT&amount=7&timestamp=${T0}`;
    const body = `${text}&signature=${hmac(text)}`;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send(t.url, 'POST', '/openapi/v1/transfer', { body, key: KEY }));
    expect(answers[0]!.json).toEqual({ success: 'true' });
    for (const a of answers.slice(1)) expect(a.json).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    expect(await freeUsdt(T0 + 1)).toBe('99993');
    // A fresh signature (new timestamp) is a new request and moves money again.
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', { fromAccountType: '1', fromAccountIndex: '0', toAccountType: '1', toAccountIndex: '1', tokenId: 'USDT', amount: '7' }, { timestamp: T0 + 2 })).json).toEqual({ success: 'true' });
    expect(await freeUsdt(T0 + 3)).toBe('99986');
  });

  it('takes one withdrawal when the signed request is replayed, even with its signature in upper case', async () => {
    const text = `tokenId=USDT&clientOrderId=replay-w&address=0x815bF1c3cc0f49b8FC66B21A7e48fCb476051209&withdrawQuantity=3&timestamp=${T0 + 10}`;
    const sig = hmac(text);
    const first = await send(t.url, 'POST', '/openapi/v1/withdraw', { body: `${text}&signature=${sig}`, key: KEY });
    expect(first.json.success).toBe(true);
    const again = await send(t.url, 'POST', '/openapi/v1/withdraw', { body: `${text}&signature=${sig.toUpperCase()}`, key: KEY });
    expect(again.json.code).toBe(-1021);
    const list = await signed(t.url, 'GET', '/openapi/v1/withdrawalOrders', { token: 'USDT' }, { timestamp: T0 + 11 });
    expect(list.json.filter((w: { quantity: string }) => w.quantity === '3')).toHaveLength(1);
  });
});

describe('ReplayGuard', () => {
  it('is bounded: refuses with -1003 when full of live signatures, forgets them once their window has passed', () => {
    const g = new ReplayGuard(61_000, 100);
    for (let i = 0; i < 100; i++) g.admit('k', `s${i}`, 1000 + i);
    expect(g.size).toBe(100);
    expect(() => g.admit('k', 's100', 1100)).toThrow(expect.objectContaining({ code: -1003, status: 429 }));
    expect(() => g.admit('k', 's5', 1100)).toThrow(expect.objectContaining({ code: -1021 }));
    expect(g.size).toBe(100);
    // 61 s after the first ones they are forgotten in order: room again, and an old signature is no longer remembered (its timestamp now fails the window).
    g.admit('k', 's100', 62_000);
    expect(g.size).toBe(100);
    g.admit('k', 's0', 62_050);
    expect(g.size).toBeLessThanOrEqual(100);
    expect(() => g.admit('other', 's5', 62_050)).not.toThrow();
  });
});
