import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sim/server/errors.ts';
import { bodyText, parseParams } from '../../../src/sim/server/params.ts';

const SIG = 'signature=5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6';

function codeOf(f: () => unknown): number | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? e.code : undefined;
  }
  return undefined;
}

describe('request parameters of the venue server', () => {
  it('signs the body without its trailing signature piece', () => {
    const p = parseParams('', `symbol=ETHBTC&side=BUY&timestamp=1&${SIG}`);
    expect(p.signedTexts).toEqual(['symbol=ETHBTC&side=BUY&timestamp=1']);
    expect(p.signature).toBe(SIG.slice('signature='.length));
    expect(p.count).toBe(4);
    expect([...p.values]).toEqual([['symbol', 'ETHBTC'], ['side', 'BUY'], ['timestamp', '1'], ['signature', SIG.slice(10)]]);
  });

  it('leaves a signature in the middle and empty pieces out of the signed text', () => {
    const p = parseParams('', `a=1&&${SIG}&b=2&`);
    expect(p.signedTexts).toEqual(['a=1&b=2']);
    expect(p.count).toBe(3);
  });

  it('joins query and body with no & (literal) and, when the query repeats a body key, also offers the merged text', () => {
    const p = parseParams(`symbol=ETHBTC&side=BUY&${SIG}`, 'side=SELL&quantity=1&timestamp=5');
    expect(p.signedTexts).toEqual(['symbol=ETHBTC&side=BUYside=SELL&quantity=1&timestamp=5', 'symbol=ETHBTC&side=BUYquantity=1&timestamp=5']);
    expect(p.values.get('side')).toBe('BUY');
    expect(p.count).toBe(6);
  });

  it('keeps the first occurrence within one source and the query over the body', () => {
    const p = parseParams('a=1&a=2', 'a=3&b=4&b=5');
    expect(p.values.get('a')).toBe('1');
    expect(p.values.get('b')).toBe('4');
    expect(p.signature).toBeUndefined();
  });

  it('decodes percent-encoding and +, and keeps the raw text for the signature', () => {
    const p = parseParams('', 'newClientOrderId=a%2Bb+c&flag');
    expect(p.values.get('newClientOrderId')).toBe('a+b c');
    expect(p.values.get('flag')).toBe('');
    expect(p.signedTexts).toEqual(['newClientOrderId=a%2Bb+c&flag']);
  });

  it('refuses text that is not UTF-8 percent-encoding (-1100) and values too long to be real (-1130)', () => {
    expect(codeOf(() => parseParams('a=%zz', ''))).toBe(-1100);
    expect(codeOf(() => parseParams('', '%E2%82=1'))).toBe(-1100);
    expect(codeOf(() => parseParams('', `a=${'x'.repeat(1025)}`))).toBe(-1130);
    expect(codeOf(() => parseParams('', `a=${'x'.repeat(1024)}`))).toBeUndefined();
  });
});

describe('form body text', () => {
  it('reads ASCII and UTF-8 bodies as sent and refuses bytes that are not UTF-8 (-1100)', () => {
    expect(bodyText(Buffer.from('symbol=ETHBTC&quantity=1'))).toBe('symbol=ETHBTC&quantity=1');
    expect(bodyText(Buffer.from('newClientOrderId=café'))).toBe('newClientOrderId=café');
    expect(bodyText(Buffer.alloc(0))).toBe('');
    expect(codeOf(() => bodyText(Buffer.from([0x61, 0x3d, 0xff, 0xfe])))).toBe(-1100);
  });
});
