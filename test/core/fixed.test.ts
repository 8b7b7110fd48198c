import { describe, expect, it } from 'vitest';
import { compareDecimal, formatScaled, fromUnits, normalizeDecimal, parseScaled, scaleOf, toUnits } from '../../src/core/fixed.ts';
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
