// Integer ticks and lots turn back into the exact decimal strings the venue sends, decimals that are not whole steps are refused, and a recording's instruments keep what the backtest needs of them.
import { describe, expect, it } from 'vitest';
import { fromUnits } from '../../src/core/fixed.ts';
import { instrumentsOf } from '../../src/data/import-bhtrade.ts';
import { StepFormatter, toSteps } from '../../src/data/instruments.ts';
import { loadSample } from '../fixtures/samples.ts';

describe('steps', () => {
  it('format like the wire (trailing zeros stripped) for ticks of every scale, as the exact fromUnits does', () => {
    for (const step of ['1', '0.1', '0.01', '0.5', '0.00000001', '0.00001', '25']) {
      const f = new StepFormatter(step);
      for (const n of [0, 1, 7, 10, 99, 100, 123_456, 6_183_763, 100_000_000, 2_542_618_900, 8_000_000_000_000]) {
        expect(f.format(n), `${n} × ${step}`).toBe(fromUnits(n, step));
        expect(f.format(n), 'cached').toBe(fromUnits(n, step));
      }
    }
    expect(new StepFormatter('0.01').format(6_183_763)).toBe('61837.63');
    // Values that share a slot of the fixed-size cache replace each other, never mix.
    const f = new StepFormatter('0.01');
    for (let round = 0; round < 3; round++) {
      for (const n of [5, 5 + 16_384, 5 + 2 * 16_384, 2 ** 40 + 5]) expect(f.format(n)).toBe(fromUnits(n, '0.01'));
    }
    expect(new StepFormatter('0.00000001').format(2_542_618_900)).toBe('25.426189');
  });

  it('count steps exactly and refuse a value between steps, naming the field', () => {
    expect(toSteps('61837.63000000', '0.01', 'p')).toBe(6_183_763n);
    expect(toSteps('1001', '1', 'q')).toBe(1001n);
    expect(() => toSteps('25.426189', '0.00001', 'data.q')).toThrow('data.q: must be a multiple of 0.00001, got 25.426189');
  });
});

describe('instruments of a recording', () => {
  it('keep the index a contract is marked at from the venue\'s published brokerInfo (the backtest marks the contract at that symbol\'s recorded index)', () => {
    const listed = instrumentsOf(loadSample('broker-info.capture-2024').payload);
    expect(listed.find((i) => i.symbol === 'ETH-SWAP-USDT')).toMatchObject({ kind: 'linear', index: 'ETHUSDT' });
    expect(listed.filter((i) => i.kind === 'spot').every((i) => i.index === undefined)).toBe(true);
  });
});
