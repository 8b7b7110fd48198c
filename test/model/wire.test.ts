// Field readers and bad payloads: every failure is a ParseError that names the full path and the rule.
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/core/errors.ts';
import * as m from '../../src/model/index.ts';
import { loadSample } from '../fixtures/samples.ts';

function clone<T>(v: T): T {
  return structuredClone(v);
}

function parseErrorOf(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ParseError) return err;
    throw err;
  }
  throw new Error('expected a ParseError');
}

describe('bad payloads', () => {
  const openOrders = loadSample('spot-open-orders.capture-2020').payload as Record<string, unknown>[];

  it('names the path and rule of a non-decimal price', () => {
    const bad = clone(openOrders);
    bad[0]!['price'] = '0.0l';
    const err = parseErrorOf(() => m.parseSpotOrderList(bad, 'openOrders'));
    expect(err.field).toBe('openOrders[0].price');
    expect(err.message).toBe('openOrders[0].price: must be a decimal number, got "0.0l"');
    expect(err.code).toBe('PARSE');
  });

  it('names a missing required field', () => {
    const bad = clone(openOrders);
    delete bad[0]!['orderId'];
    expect(() => m.parseSpotOrderList(bad, 'openOrders')).toThrow('openOrders[0].orderId: is required but missing');
  });

  it('names a field of the wrong type', () => {
    const bad = clone(openOrders);
    bad[0]!['isWorking'] = 'yes';
    expect(() => m.parseSpotOrderList(bad, 'openOrders')).toThrow('openOrders[0].isWorking: must be a boolean, got "yes"');
    expect(() => m.parseSpotOrderList({}, 'openOrders')).toThrow('openOrders: must be an array, got an object');
  });

  it('refuses a price sent as a JSON number (floats are never read as money)', () => {
    const bad = clone(openOrders);
    bad[0]!['price'] = 0.01;
    expect(() => m.parseSpotOrderList(bad)).toThrow('orders[0].price: must be a decimal string, got number 0.01');
  });

  it('refuses an unknown enum value and a bad time, naming nested paths', () => {
    const order = clone(loadSample('contract-get-order.official').payload) as Record<string, unknown>;
    expect(() => m.parseContractOrder({ ...order, side: 'BUY' })).toThrow('order.side: must be one of BUY_OPEN, SELL_CLOSE, SELL_OPEN, BUY_CLOSE, got "BUY"');
    expect(() => m.parseContractOrder({ ...order, time: '2019-10-11' })).toThrow(/order\.time: must be a non-negative integer time in ms/);
    expect(() => m.parseContractOrder({ ...order, fees: [{ feeToken: 'TBTC', fee: 'x' }] })).toThrow('order.fees[0].fee: must be a decimal number, got "x"');
  });

  it('names the element of a kline and of a user-stream balance', () => {
    expect(() => m.parseKlineList([[1, '1', '1', '1', '1', '1', 0, '1', 0, '1']])).toThrow('klines[0]: must have 11 elements, got 10');
    expect(() => m.parseUserStreamFrame({ e: 'outboundAccountInfo', E: 1, B: [{ a: 'BTC', f: '1', l: null }] })).toThrow('frame.B[0].l: is required but missing');
  });
});

describe('wire readers', () => {
  it('reads ids as strings from strings or safe numbers, and refuses rounded big numbers', () => {
    expect(m.reqId({ orderId: 28 }, 'orderId', 'o')).toBe('28');
    expect(m.reqId({ orderId: '616376654496877056' }, 'orderId', 'o')).toBe('616376654496877056');
    expect(() => m.reqId({ orderId: Number('436002617267469062') }, 'orderId', 'o')).toThrow(/o\.orderId: id .* exceeds 2\^53/);
  });

  it('reads decimals in their normal form, whatever form was sent, and names a bad one', () => {
    const cases: [string, string][] = [
      ['0.001', '0.001'], ['25', '25'], ['0', '0'], ['0.00100000', '0.001'], ['05', '5'], ['1.', '1'], ['.5', '0.5'],
      ['+3.10', '3.1'], ['-0.0', '0'], ['-2.50', '-2.5'], ['000.000', '0'], ['123456789012345678901234.5', '123456789012345678901234.5'],
    ];
    for (const [sent, read] of cases) expect(m.reqDecimal({ p: sent }, 'p', 'o')).toBe(read);
    for (const bad of ['', '1e3', ' 1', '1.2.3', '0x10', '-', '.']) expect(() => m.reqDecimal({ p: bad }, 'p', 'o')).toThrow(`o.p: must be a decimal number, got ${JSON.stringify(bad)}`);
  });

  it('refuses a decimal longer than any the venue sends (a thousands-digit price would stall decimal arithmetic)', () => {
    const longest = `${'9'.repeat(m.MAX_DECIMAL_CHARS - 19)}.${'1'.repeat(18)}`;
    expect(m.reqDecimal({ p: longest }, 'p', 'o')).toBe(longest);
    for (const bad of ['1'.repeat(5000), `0.${'1'.repeat(m.MAX_DECIMAL_CHARS)}`, `-${'2'.repeat(m.MAX_DECIMAL_CHARS)}`]) {
      expect(() => m.reqDecimal({ p: bad }, 'p', 'o')).toThrow(`o.p: must be a decimal of at most ${m.MAX_DECIMAL_CHARS} characters, got ${bad.length}`);
      expect(() => m.optDecimal({ p: bad }, 'p', 'o')).toThrow(ParseError);
    }
  });

  it('reads times from strings or numbers', () => {
    expect(m.reqTime({ t: '1588214701974' }, 't', 'x')).toBe(1588214701974);
    expect(m.reqTime({ t: 1588214701974 }, 't', 'x')).toBe(1588214701974);
    expect(m.optTime({ t: '0' }, 't', 'x')).toBe(0);
    expect(m.optTime({}, 't', 'x')).toBeUndefined();
  });

  it('parseWireJson keeps integers beyond 2^53 exact and leaves everything else alone', () => {
    const v = m.parseWireJson('{"a":436002617267469062,"b":1499865549590,"c":"436002617267469062","d":-12345678901234567890,"e":1.5,"f":"x\\"9999999999999999"}') as Record<string, unknown>;
    expect(v).toEqual({ a: '436002617267469062', b: 1499865549590, c: '436002617267469062', d: '-12345678901234567890', e: 1.5, f: 'x"9999999999999999' });
    // What plain JSON.parse would have done to the same id:
    expect(String((JSON.parse('{"a":436002617267469062}') as { a: number }).a)).not.toBe('436002617267469062');
    expect(() => m.parseWireJson('{"a":')).toThrow(ParseError);
  });

  it('parseWireJson finds a long bare number wherever it starts in the text', () => {
    for (let pad = 0; pad < 40; pad++) {
      const v = m.parseWireJson(`{"${'k'.repeat(pad)}":9007199254740993,"x":[12345678901234567]}`) as Record<string, unknown>;
      expect(v).toEqual({ ['k'.repeat(pad)]: '9007199254740993', x: ['12345678901234567'] });
    }
  });

  it('normalises both rateLimitType spellings', () => {
    expect(m.normalizeRateLimitType('REQUESTS_WEIGHT')).toBe('REQUEST_WEIGHT');
    expect(m.normalizeRateLimitType('REQUEST_WEIGHT')).toBe('REQUEST_WEIGHT');
    expect(m.normalizeRateLimitType('ORDERS')).toBe('ORDERS');
    expect(m.normalizeRateLimitType('RAW')).toBeUndefined();
  });

  it('maps withdrawal status codes and names both ways', () => {
    expect(m.withdrawalStatusName(6)).toBe('WITHDRAWAL_SUCCESS_STATUS');
    expect(m.withdrawalStatusCode('BLOCK_MINING_STATUS')).toBe(8);
    expect(m.withdrawalStatusName(9)).toBeUndefined();
    expect(m.isKlineEndpointInterval('3m')).toBe(false);
    expect(m.isKlineInterval('3m')).toBe(true);
  });
});
