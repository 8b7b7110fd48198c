import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  compareDecimal, Decimal, DecimalSum, formatScaled, fromUnits, mulScaled, normalizeDecimal, parseScaled, roundToDecimal, scaled, scaledText, scaleOf, toUnits,
} from '../../src/core/fixed.ts';
import { ParseError } from '../../src/core/errors.ts';

describe('fixed-point helpers', () => {
  it('parses "0.29" exactly where a float multiply would not', () => {
    expect(Number('0.29') * 100).not.toBe(29);
    expect(parseScaled('0.29', 2)).toBe(29n);
    expect(toUnits('0.29', '0.01')).toBe(29);
  });

  it('reads the scale of venue steps with trailing zeros', () => {
    expect(scaleOf('0.00100000')).toBe(3);
    expect(scaleOf('1.0')).toBe(0);
    expect(scaleOf('100000.00000000')).toBe(0);
  });

  it('round-trips scaled values and strips trailing zeros', () => {
    expect(formatScaled(parseScaled('4723846.89208129', 8), 8)).toBe('4723846.89208129');
    expect(formatScaled(-5n, 3)).toBe('-0.005');
    expect(formatScaled(0n, 8)).toBe('0');
    expect(normalizeDecimal('1.50')).toBe('1.5');
    expect(normalizeDecimal('0.0')).toBe('0');
    expect(fromUnits(822311, '0.01')).toBe('8223.11');
  });

  it('refuses a value off the tick, naming the field', () => {
    expect(() => toUnits('8183.115', '0.01', 'price')).toThrow(ParseError);
    expect(() => toUnits('8183.115', '0.01', 'price')).toThrow(/price: must be a multiple of 0.01/);
  });

  it('refuses non-decimals and more decimals than the scale', () => {
    expect(() => parseScaled('1e-8', 8, 'qty')).toThrow(/qty: must be a decimal number/);
    expect(() => parseScaled('NaN', 8)).toThrow(ParseError);
    expect(() => parseScaled('0.123', 2, 'fee')).toThrow(/fee: has more than 2 decimals/);
  });

  it('handles ids beyond 2^53 as BigInt-backed values and refuses unsafe unit counts', () => {
    expect(() => toUnits('100000000000000000', '0.01')).toThrow(/too large/);
  });

  it('compares decimals exactly', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('0.00000001', '0')).toBe(1);
    expect(compareDecimal('-1', '0.5')).toBe(-1);
  });
});

describe('fixed-point helpers on any decimal text', () => {
  // Short strings take a number path and long ones the bigint path: both must give decimal.js's exact answers.
  const digits = fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '9'), minLength: 0, maxLength: 20 });
  const decimalText = fc.tuple(fc.constantFrom('', '-', '+'), digits, fc.boolean(), digits)
    .filter(([, i, dot, f]) => i.length > 0 || (dot && f.length > 0))
    .map(([sign, i, dot, f]) => `${sign}${i}${dot ? `.${f}` : ''}`);
  const unitText = fc.constantFrom('0.01', '0.00000001', '1', '0.1', '5', '0.0100', '0.5', '10', '0.000000000000000001');

  it('toUnits is the exact quotient when the text is on the grid and throws otherwise', () => {
    fc.assert(fc.property(decimalText, unitText, (s, unit) => {
      const q = new Decimal(s).div(unit);
      const fits = q.isInteger() && q.abs().lte(Number.MAX_SAFE_INTEGER);
      if (fits) expect(toUnits(s, unit)).toBe(q.toNumber() + 0);
      else expect(() => toUnits(s, unit)).toThrow(ParseError);
    }), { numRuns: 3000 });
  });

  it('fromUnits writes n units without trailing zeros, and toUnits reads it back', () => {
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), unitText, (n, unit) => {
      const text = fromUnits(n, unit);
      expect(text).toBe(new Decimal(n).mul(unit).toFixed());
      expect(toUnits(text, unit)).toBe(n + 0);
    }), { numRuns: 3000 });
  });

  it('compareDecimal orders texts as their values', () => {
    fc.assert(fc.property(decimalText, decimalText, (a, b) => {
      expect(compareDecimal(a, b)).toBe(new Decimal(a).comparedTo(b));
    }), { numRuns: 3000 });
  });
});

describe('DecimalSum', () => {
  // Amounts with up to 70 digits: some sums stay within decimal.js's 60 significant digits, some go past them and are rounded there.
  const amount = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 70n }), fc.integer({ min: 0, max: 40 }))
    .map(([neg, units, scale]) => formatScaled(neg ? -units : units, scale));

  it('adds up to what adding with decimal.js gives, rounded at 60 digits where decimal.js rounds', () => {
    fc.assert(fc.property(fc.array(amount, { maxLength: 12 }), (xs) => {
      const sum = new DecimalSum();
      let d = new Decimal(0);
      for (const x of xs) {
        sum.addText(x);
        d = d.plus(x);
        expect(sum.text()).toBe(d.toFixed());
      }
      expect(sum.value().eq(d)).toBe(true);
    }), { numRuns: 500 });
  });

  it('rounds a product as decimal.js multiplies (roundToDecimal)', () => {
    fc.assert(fc.property(amount, amount, (a, b) => {
      expect(scaledText(roundToDecimal(mulScaled(scaled(a), scaled(b)))), `${a} × ${b}`).toBe(new Decimal(a).times(b).toFixed());
    }), { numRuns: 500 });
  });

  it('reads a text with an exponent as decimal.js does', () => {
    const sum = new DecimalSum();
    sum.addText('1e-7');
    sum.addText('2.5');
    expect(sum.text()).toBe('2.5000001');
  });
});
