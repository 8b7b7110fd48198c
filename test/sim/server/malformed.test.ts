import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmac, KEY, send, startTest, T0, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => { t = await startTest(); });
afterAll(async () => t.close());

const base = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.01';
const swap = (k: string, v: string): string => base.replace(new RegExp(`${k}=[^&]*`), `${k}=${v}`);
const drop = (k: string): string => base.split('&').filter((p) => !p.startsWith(`${k}=`)).join('&');

/** Each row: what is sent as the spot new-order parameters, and the code it must get. */
const rows: [string, string, number][] = [
  ['bad number', swap('quantity', 'abc'), -1130],
  ['exponent', swap('price', '1e-2'), -1130],
  ['negative quantity', swap('quantity', '-1'), -1105],
  ['zero quantity', swap('quantity', '0'), -1105],
  ['huge quantity', swap('quantity', '9'.repeat(30)), -1135],
  ['too many decimals', swap('price', '0.0100001'), -1134],
  ['enormous value', swap('quantity', '1'.repeat(5000)), -1130],
  ['unknown side', swap('side', 'HOLD'), -1117],
  ['unknown type', swap('type', 'STOP_LOSS'), -1116],
  ['unknown timeInForce', swap('timeInForce', 'DAY'), -1115],
  ['unknown symbol', swap('symbol', 'XXXYYY'), -1130],
  ['missing symbol', drop('symbol'), -1004],
  ['missing quantity', drop('quantity'), -1004],
  ['array-like key', `${base}&price[]=1`, 0],
  ['bad percent-encoding', `${base}&newClientOrderId=%E0%A4%A`, -1100],
  ['non-UTF-8 percent bytes', `${base}&newClientOrderId=%FF%FE`, -1100],
];

describe('malformed requests get {code,msg}, never a stack trace, never a state change', () => {
  for (const [name, params, code] of rows) {
    it(name, async () => {
      const before = t.venue.backend.venue.snapshot();
      const text = `${params}&timestamp=${T0}`;
      const r = await send(t.url, 'POST', '/openapi/v1/order', { body: `${text}&signature=${hmac(text)}`, key: KEY });
      if (code === 0) {
        // An unknown extra parameter is ignored, as the venue's framework did.
        expect(r.status).toBe(200);
        return;
      }
      expect(r.status).toBe(400);
      expect(Object.keys(r.json).sort()).toEqual(['code', 'msg']);
      expect(r.json.code).toBe(code);
      expect(r.text).not.toMatch(/at .*\.ts|Error:/);
      expect(t.venue.backend.venue.snapshot()).toBe(before);
    });
  }

  it('a body that is not UTF-8', async () => {
    const before = t.venue.backend.venue.snapshot();
    const r = await send(t.url, 'POST', '/openapi/v1/order', { body: Buffer.from([0x73, 0x3d, 0xff, 0xfe, 0x80]), key: KEY });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(-1100);
    expect(t.venue.backend.venue.snapshot()).toBe(before);
  });

  it('an oversized body', async () => {
    const r = await send(t.url, 'POST', '/openapi/v1/order', { body: `a=${'x'.repeat(200_000)}`, key: KEY });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: -1004, msg: 'Bad request' });
  });

  it('a JSON body is not read as parameters', async () => {
    const r = await send(t.url, 'POST', '/openapi/v1/order', { body: '{"symbol":"ETHBTC"}', key: KEY, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(-1103);
  });

  it('wrong types on reads: ids, limits and times', async () => {
    for (const q of ['orderId=abc', 'orderId=99999999999999999999999', 'startTime=yesterday']) {
      const text = `${q}&timestamp=${T0}`;
      const path = q.startsWith('orderId') ? '/openapi/v1/order' : '/openapi/v1/historyOrders';
      const r = await send(t.url, 'GET', path, { query: `${text}&signature=${hmac(text)}`, key: KEY });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe(-1130);
    }
  });

  it('quote endpoints: missing symbol and bad interval', async () => {
    expect((await send(t.url, 'GET', '/openapi/quote/v1/depth')).json).toEqual({ code: -100012, msg: 'Parameter symbol [String] missing!' });
    expect((await send(t.url, 'GET', '/openapi/quote/v1/klines', { query: 'symbol=BTCUSDT&interval=7m' })).json.code).toBe(-1120);
    expect((await send(t.url, 'GET', '/openapi/quote/v1/depth', { query: 'symbol=BTCUSDT&limit=abc' })).json.code).toBe(-1130);
  });
});
