import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/core/errors.ts';
import { divAmount, divRound, fmtAmount, mulAmount, roundToStep, toAmount } from '../../../src/sim/ledger/index.ts';

describe('amounts', () => {
  it('parse decimal strings exactly at 18 decimals and refuse more', () => {
    expect(toAmount('0.29')).toBe(290_000_000_000_000_000n);
    expect(toAmount('-1.5')).toBe(-1_500_000_000_000_000_000n);
    expect(() => toAmount('0.0000000000000000001', 'qty')).toThrow(ParseError);
    expect(() => toAmount('1e3', 'qty')).toThrow(/qty/);
  });

  it('format rounded down toward zero with trailing zeros stripped', () => {
    expect(fmtAmount(toAmount('0.006089758844722014'), 8)).toBe('0.00608975');
    expect(fmtAmount(toAmount('-0.006089758844722014'), 8)).toBe('-0.00608975');
    expect(fmtAmount(toAmount('12.50'), 8)).toBe('12.5');
    expect(fmtAmount(toAmount('0.000000001'), 8)).toBe('0');
    expect(fmtAmount(toAmount('3'))).toBe('3');
  });

  it('divide with the rounding asked for, on both signs', () => {
    expect(divRound(7n, 2n, 'floor')).toBe(3n);
    expect(divRound(7n, 2n, 'ceil')).toBe(4n);
    expect(divRound(-7n, 2n, 'floor')).toBe(-4n);
    expect(divRound(-7n, 2n, 'ceil')).toBe(-3n);
    expect(divRound(-7n, 2n, 'trunc')).toBe(-3n);
    expect(divRound(6n, -3n, 'floor')).toBe(-2n);
    expect(() => divRound(1n, 0n, 'floor')).toThrow(RangeError);
  });

  it('multiply and divide amounts exactly, rounding only past 18 decimals', () => {
    expect(mulAmount(toAmount('6826.06'), toAmount('0.1'), 'ceil')).toBe(toAmount('682.606'));
    expect(mulAmount(toAmount('682.606'), toAmount('0.001'), 'ceil')).toBe(toAmount('0.682606'));
    const third = divAmount(toAmount('1'), toAmount('3'), 'floor');
    expect(fmtAmount(third)).toBe('0.333333333333333333');
    expect(divAmount(toAmount('1'), toAmount('3'), 'ceil') - third).toBe(1n);
    expect(roundToStep(toAmount('7523.6546'), toAmount('0.01'), 'floor')).toBe(toAmount('7523.65'));
    expect(roundToStep(toAmount('7523.6546'), toAmount('0.01'), 'ceil')).toBe(toAmount('7523.66'));
  });
});
