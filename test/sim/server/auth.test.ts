import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmac, KEY, send, signed, startTest, T0, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest({
    accounts: [
      {
        name: 'demo',
        keys: [
          { apiKey: KEY, secret: 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76', permissions: 'all' },
          { apiKey: 'T'.repeat(64), secret: 'trade-only-secret-0001', permissions: 'trade-only' },
          { apiKey: 'N'.repeat(64), secret: 'no-trade-secret-00001', permissions: 'no-trade' },
          { apiKey: 'R'.repeat(64), secret: 'read-only-secret-0001', permissions: 'read-only' },
          { apiKey: 'D'.repeat(64), secret: 'disabled-secret-00001', permissions: 'all', enabled: false },
        ],
        balances: { spot: { BTC: '10', ETH: '100', USDT: '100000' }, contract: { BTC: '1' } },
      },
    ],
  });
});
afterAll(async () => t.close());

const ORDER = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';

describe('signing styles of venue-notes.md §2', () => {
  it('accepts the published all-in-query example verbatim', async () => {
    const r = await send(t.url, 'POST', '/openapi/v1/order', { query: `${ORDER}&signature=5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6`, key: KEY });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ symbol: 'ETHBTC', status: 'NEW', price: '0.1', origQty: '1', type: 'LIMIT', side: 'BUY' });
    expect(typeof r.json.orderId).toBe('string');
  });

  it('accepts the same signature with everything in the body', async () => {
    const r = await send(t.url, 'POST', '/openapi/v1/order', { body: `${ORDER}&signature=5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6`, key: KEY });
    expect(r.status).toBe(200);
  });

  it('accepts the published split example (no & at the join)', async () => {
    const r = await send(t.url, 'POST', '/openapi/v1/order', {
      query: 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC',
      body: 'quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa',
      key: KEY,
    });
    expect(r.status).toBe(200);
  });

  it('accepts uppercase hex and the signature anywhere', async () => {
    const upper = '5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6'.toUpperCase();
    expect((await send(t.url, 'POST', '/openapi/v1/order', { query: `signature=${upper}&${ORDER}`, key: KEY })).status).toBe(200);
  });

  it('accepts timestamp first, empty-valued parameters and GET with everything in the query', async () => {
    const text = `timestamp=${T0}&orderId=&symbol=ETHBTC`;
    const r = await send(t.url, 'GET', '/openapi/v1/openOrders', { query: `${text}&signature=${hmac(text)}`, key: KEY });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json)).toBe(true);
  });

  it('accepts a parameter sent in both places, signed either as the literal text or as real servers built it', async () => {
    const query = 'symbol=ETHBTC&side=BUY&type=LIMIT&quantity=1';
    const body = 'quantity=1&price=0.1&timestamp=1538323200000';
    const literal = hmac(query + body);
    const merged = hmac(`${query}price=0.1&timestamp=1538323200000`);
    expect(literal).not.toBe(merged);
    for (const sig of [literal, merged]) {
      const r = await send(t.url, 'POST', '/openapi/v1/order', { query, body: `${body}&signature=${sig}`, key: KEY });
      expect(r.status, r.text).toBe(200);
    }
  });

  it('uses the query value when a parameter is in both the query and the body', async () => {
    const query = 'symbol=ETHBTC&side=BUY&type=LIMIT&price=0.05';
    const body = 'symbol=ETHUSDT&quantity=1&price=0.07&timestamp=1538323200000';
    const r = await send(t.url, 'POST', '/openapi/v1/order', { query, body: `${body}&signature=${hmac(query + body)}`, key: KEY });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ symbol: 'ETHBTC', price: '0.05' });
  });

  it('serves paths with and without v1', async () => {
    const r = await signed(t.url, 'GET', '/openapi/account', {});
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json.balances)).toBe(true);
    const q = await send(t.url, 'GET', '/openapi/quote/v1/contract/depth', { query: 'symbol=BTC-PERP-REV' });
    expect(q.status).toBe(200);
  });
});

describe('refusals with the codes, statuses and wire format of venue-errors.md', () => {
  it('-1002 without a key or with a short key', async () => {
    for (const key of [undefined, 'short']) {
      const r = await send(t.url, 'GET', '/openapi/v1/account', { query: `timestamp=${T0}&signature=${hmac(`timestamp=${T0}`)}`, ...(key ? { key } : {}) });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ code: -1002, msg: 'You are not authorized to execute this request' });
      expect(r.headers['error_code']).toBe('-1002');
      expect(r.headers['content-type']).toBe('application/json;charset=UTF-8');
    }
  });

  it('-1004 for a missing signature or timestamp', async () => {
    const a = await send(t.url, 'GET', '/openapi/v1/account', { query: `timestamp=${T0}`, key: KEY });
    expect(a.status).toBe(400);
    expect(a.text).toBe('{"code":-1004,"msg":"Missing required parameter \\u0027signature\\u0027"}');
    const b = await send(t.url, 'GET', '/openapi/v1/account', { query: `recvWindow=5000&signature=${hmac('recvWindow=5000')}`, key: KEY });
    expect(b.json).toEqual({ code: -1004, msg: "Missing required parameter 'timestamp'" });
  });

  it('-1103 for a signed endpoint with no parameters at all', async () => {
    expect((await send(t.url, 'GET', '/openapi/v1/account', { key: KEY })).json.code).toBe(-1103);
  });

  it('-1022 for a bad signature, -2015 for an unknown or disabled key', async () => {
    const q = `timestamp=${T0}`;
    expect((await send(t.url, 'GET', '/openapi/v1/account', { query: `${q}&signature=${hmac(q, 'wrong')}`, key: KEY })).json.code).toBe(-1022);
    expect((await send(t.url, 'GET', '/openapi/v1/account', { query: `${q}&signature=abc`, key: KEY })).json.code).toBe(-1022);
    expect((await send(t.url, 'GET', '/openapi/v1/account', { query: `${q}&signature=${hmac(q)}`, key: 'x'.repeat(64) })).json.code).toBe(-2015);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {}, { key: 'D'.repeat(64), secret: 'disabled-secret-00001' })).json.code).toBe(-2015);
  });

  it('-1021 on every signed request outside the recvWindow or too far ahead (stricter than the published venue)', async () => {
    const order = { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01' };
    const old = await signed(t.url, 'POST', '/openapi/v1/order', order, { timestamp: T0 - 5001 });
    expect(old.json).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    expect((await signed(t.url, 'POST', '/openapi/v1/order', { ...order, recvWindow: '10000' }, { timestamp: T0 - 5001 })).status).toBe(200);
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order, { timestamp: T0 + 1000 })).json.code).toBe(-1021);
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order, { timestamp: T0 + 999 })).status).toBe(200);
    const contract = { symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '1', price: '100', leverage: '10', clientOrderId: 'c-1021' };
    expect((await signed(t.url, 'POST', '/openapi/contract/v1/order', contract, { timestamp: T0 - 60_000 })).json.code).toBe(-1021);
    // The published venue checked only the two new-order endpoints; here reads, cancels, transfers and withdrawals are held to it too.
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {}, { timestamp: T0 - 3_600_000 })).json.code).toBe(-1021);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {}, { timestamp: T0 - 5000 })).status).toBe(200);
    expect((await signed(t.url, 'DELETE', '/openapi/v1/order', { orderId: '1' }, { timestamp: T0 - 5001 })).json.code).toBe(-1021);
    const move = { fromAccountType: '1', fromAccountIndex: '0', toAccountType: '1', toAccountIndex: '1', tokenId: 'USDT', amount: '1' };
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', move, { timestamp: T0 - 5001 })).json.code).toBe(-1021);
    const out = { tokenId: 'USDT', clientOrderId: 'w-1021', address: 'x', withdrawQuantity: '1' };
    expect((await signed(t.url, 'POST', '/openapi/v1/withdraw', out, { timestamp: T0 + 1000 })).json.code).toBe(-1021);
  });

  it('caps recvWindow at 60 000 ms: a larger one is -1130 naming recvWindow', async () => {
    const huge = await signed(t.url, 'GET', '/openapi/v1/account', { recvWindow: '9999999999999999' }, { timestamp: T0 - 1 });
    expect(huge.status).toBe(400);
    expect(huge.json).toEqual({ code: -1130, msg: "Data sent for paramter 'recvWindow' is not valid." });
    expect((await signed(t.url, 'GET', '/openapi/v1/account', { recvWindow: '60001' }, { timestamp: T0 - 2 })).json.code).toBe(-1130);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', { recvWindow: '60000' }, { timestamp: T0 - 60_000 })).status).toBe(200);
  });

  it('limits keys to their permissions: -1005', async () => {
    const order = { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01' };
    const as = (c: string, s: string) => ({ key: c.repeat(64), secret: s });
    const trade = as('T', 'trade-only-secret-0001');
    const noTrade = as('N', 'no-trade-secret-00001');
    const read = as('R', 'read-only-secret-0001');
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order, trade)).status).toBe(200);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {}, trade)).json).toEqual({ code: -1005, msg: 'No Permission' });
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order, noTrade)).json.code).toBe(-1005);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {}, noTrade)).status).toBe(200);
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', { fromAccountType: '1', fromAccountIndex: '0', toAccountType: '3', toAccountIndex: '0', tokenId: 'BTC', amount: '0.1' }, noTrade)).json).toEqual({ success: 'true' });
    expect((await signed(t.url, 'POST', '/openapi/v1/order', order, read)).json.code).toBe(-1005);
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', { fromAccountType: '1', fromAccountIndex: '0', toAccountType: '3', toAccountIndex: '0', tokenId: 'BTC', amount: '0.1' }, read)).json.code).toBe(-1005);
    expect((await signed(t.url, 'GET', '/openapi/v1/account', {}, read)).status).toBe(200);
    expect((await signed(t.url, 'POST', '/openapi/v1/userDataStream', {}, read)).json.listenKey).toMatch(/^[A-Za-z]{64}$/);
  });

  it('answers unknown paths and wrong methods with {code,msg}', async () => {
    const a = await send(t.url, 'GET', '/openapi/v1/nothing');
    expect(a.status).toBe(404);
    expect(a.json.code).toBe(-1020);
    const b = await send(t.url, 'PATCH', '/openapi/v1/order');
    expect(b.status).toBe(400);
    expect(b.json).toEqual({ code: -1004, msg: 'Bad request' });
  });
});
