// Known-answer tests of the signer: the three published examples of venue-notes.md §2.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeParams, placeParams, signRequest, Signer } from '../../src/venue/signing.ts';
import { DEMO_SECRET } from './demo-keys.ts';

const ORDER = { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1', recvWindow: 5000, timestamp: 1538323200000 };
const ALL_TEXT = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const ALL_SIG = '5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6';
const SPLIT_SIG = '885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa';

describe('signing (venue-notes.md §2 published examples)', () => {
  const signer = new Signer(DEMO_SECRET);

  it('all parameters in the query give the published signature', () => {
    const r = signRequest(signer, ORDER, 'query');
    expect(r.totalParams).toBe(ALL_TEXT);
    expect(r.query).toBe(`${ALL_TEXT}&signature=${ALL_SIG}`);
    expect(r.body).toBe('');
  });

  it('all parameters in the body give the published signature', () => {
    const r = signRequest(signer, ORDER, 'body');
    expect(r.query).toBe('');
    expect(r.body).toBe(`${ALL_TEXT}&signature=${ALL_SIG}`);
  });

  it('split placement signs query + body with no & at the join', () => {
    const r = signRequest(signer, ORDER, 'split');
    expect(r.query).toBe('symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC');
    expect(r.totalParams).toBe('symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTCquantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000');
    expect(r.body).toBe(`quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=${SPLIT_SIG}`);
  });

  it('a chosen split set moves exactly those keys to the query', () => {
    const { query, body } = placeParams(ORDER, 'split', new Set(['symbol', 'timestamp']));
    expect(query).toBe('symbol=ETHBTC&timestamp=1538323200000');
    expect(body).toBe('side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000');
  });

  it('matches bare createHmac over the same text and drops undefined values', () => {
    const text = encodeParams({ a: '1', skip: undefined, b: 'x y', c: true });
    expect(text).toBe('a=1&b=x%20y&c=true');
    expect(signer.sign(text)).toBe(createHmac('sha256', DEMO_SECRET).update(text).digest('hex'));
  });

  it('does not expose the secret when serialised', () => {
    expect(JSON.stringify({ signer })).not.toContain(DEMO_SECRET);
  });
});
