// Scaled-integer arithmetic of the fill path: the same exact answers decimal.js gives, and the same refusals of what is not a decimal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/core/errors.ts';
import {
  addScaled, addToText, compareDecimal, compareScaled, Decimal, divideDecimal, divideRounded, formatScaled, isDecimalString, mulScaled, negScaled, scaled, scaledText, subScaled,
} from '../../src/core/fixed.ts';

const VALUES = [
  '0', '-0', '+0', '00.000', '1', '-1', '10', '010', '9.99', '10.000', '.5', '-.5', '0.50', '5.', '11369', '0.01', '0.00001', '-12.5',
  '123456789012345678901234.5', '0.000000001', '1.0001', '999999999999999.9', '1000000000000000',
];

describe('scaled decimals', () => {
  it('add, subtract, multiply and compare every pair exactly as decimal.js does', () => {
    for (const a of VALUES) {
      for (const b of VALUES) {
        const x = scaled(a);
        const y = scaled(b);
        const da = new Decimal(a);
        const db = new Decimal(b);
        expect(scaledText(addScaled(x, y)), `${a} + ${b}`).toBe(da.plus(db).toFixed());
        expect(scaledText(subScaled(x, y)), `${a} - ${b}`).toBe(da.minus(db).toFixed());
        expect(scaledText(mulScaled(x, y)), `${a} × ${b}`).toBe(da.mul(db).toFixed());
        expect(compareScaled(x, y), `${a} ? ${b}`).toBe(da.comparedTo(db));
        expect(compareDecimal(a, b), `compareDecimal ${a} ? ${b}`).toBe(da.comparedTo(db));
      }
      expect(scaledText(negScaled(scaled(a)))).toBe(new Decimal(a).neg().toFixed());
    }
  });

  it('add a scaled amount to a decimal text as the bigint path and decimal.js do, in safe integers or beyond them', () => {
    for (const a of VALUES) {
      for (const b of [...VALUES, '9007199254740993', '-0.0000000000000001', '4503599627370495.5']) {
        const want = new Decimal(a).plus(b).toFixed();
        expect(addToText(a, scaled(b)), `${a} + ${b}`).toBe(want);
        expect(addToText(a, scaled(b))).toBe(scaledText(addScaled(scaled(a), scaled(b))));
      }
    }
    fc.assert(fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), fc.nat(12), fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), fc.nat(12), (m, e, n, f) => {
      const a = new Decimal(m).div(new Decimal(10).pow(e)).toFixed();
      const b = new Decimal(n).div(new Decimal(10).pow(f)).toFixed();
      expect(addToText(a, scaled(b))).toBe(new Decimal(a).plus(b).toFixed());
    }));
    expect(() => addToText('1e3', scaled('1'), 'free')).toThrow(ParseError);
    expect(() => addToText('', scaled('1'), 'free')).toThrow(/free/);
  });

  it('divides as decimal.js at 60 digits does, ending quotients and repeating ones alike', () => {
    const nums = ['113.69', '3.02', '1', '-2.5', '123456789.123456789', '0.0000000000000000000001', '99999999999999999999999999999999.9'];
    const dens = ['0.01', '3', '7', '0.03', '1024', '-4', '0.00000001'];
    for (const a of nums) for (const b of dens) expect(divideDecimal(a, b), `${a} / ${b}`).toBe(new Decimal(a).div(b).toFixed());
    expect(divideDecimal('113.69', '0.01')).toBe('11369');
    expect(() => divideDecimal('1', '0')).toThrow(RangeError);
  });

  it('rounds a quotient that does not end at 60 significant digits as decimal.js does, ties away from zero, whatever the sizes', () => {
    const digits = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 70n }), fc.integer({ min: 0, max: 75 }), fc.boolean())
      .map(([units, scale, neg]) => formatScaled(neg ? -units : units, scale));
    fc.assert(fc.property(digits, digits, (a, b) => {
      expect(divideDecimal(a, b), `${a} / ${b}`).toBe(new Decimal(a).div(b).toFixed());
    }), { numRuns: 2000 });
    // 61 significant digits ending in a 5: a tie at the 60th, rounded away from zero.
    const tie = `1${'0'.repeat(59)}5`;
    for (const [a, b] of [[tie, '1'], [`-${tie}`, '1'], [tie, '-0.001'], [`${tie}0`, '10'], [`0.${tie}`, '3']] as const) {
      expect(divideDecimal(a, b), `${a} / ${b}`).toBe(new Decimal(a).div(b).toFixed());
    }
  });

  it('rounds a quotient half away from zero as decimal.js ROUND_HALF_UP does', () => {
    const nums = ['113.69', '3.02', '1', '-2.5', '0.125', '-0.125', '2', '300760.93333333', '0.00000001'];
    const dens = ['0.01', '3', '7', '0.03', '-4', '16', '0.00000003'];
    for (const a of nums) {
      for (const b of dens) {
        for (const dp of [0, 1, 2, 8]) {
          expect(divideRounded(scaled(a), scaled(b), dp), `${a} / ${b} to ${dp}`).toBe(new Decimal(a).div(b).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP).toFixed());
        }
      }
    }
  });

  it('refuses what isDecimalString refuses, naming the field', () => {
    for (const bad of ['', '.', '-', '+', '1e5', ' 1', '1 ', 'abc', '1.2.3', '--1', '0x1', '1.-2']) {
      expect(isDecimalString(bad)).toBe(false);
      expect(() => scaled(bad, 'lastQty')).toThrow(ParseError);
      expect(() => compareDecimal(bad, '0')).toThrow(/^a: must be a decimal number|must be a decimal number/);
    }
    expect(() => scaled('1e5', 'lastQty')).toThrow(/lastQty/);
  });
});
