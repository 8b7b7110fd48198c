// Positions the venue closed without a fill (a liquidation): what each strategy's book gives up, and its share of the margin lost.
import { describe, expect, it } from 'vitest';
import { outsideCloses } from '../../src/execution/outside-close.ts';
import type { ContractPosition } from '../../src/execution/portfolio/accounting.ts';
import type { Instrument } from '../../src/model/index.ts';

const SYMBOL = 'BTC-SWAP-USDT';
const instruments = new Map([[SYMBOL, { symbol: SYMBOL, stepSize: '1' } as Instrument]]);
const pos = (qty: string, margin: string): ContractPosition => ({ symbol: SYMBOL, side: 'LONG', qty, avgPrice: '30000', margin, leverage: '10' });

describe('closes outside the bot', () => {
  it('splits a whole liquidation between two strategies in proportion, with their shares of the margin', () => {
    const held = new Map([['a', '70'], ['b', '30']]);
    expect(outsideCloses([pos('100', '15')], [], () => held, instruments)).toEqual([
      { strategyId: 'a', symbol: SYMBOL, side: 'LONG', qty: '70', loss: '10.5' },
      { strategyId: 'b', symbol: SYMBOL, side: 'LONG', qty: '30', loss: '4.5' },
    ]);
  });

  it('splits a partial one on the step, giving what rounding leaves to the largest holder, and loses exactly what vanished', () => {
    const held = new Map([['b', '3'], ['a', '7']]);
    const out = outsideCloses([pos('10', '2')], [pos('5', '1')], () => held, instruments);
    // 5 of 10 gone: 3.5 → 3 and 1.5 → 1 on the step, the 1 left to the largest holder (a).
    expect(out.map((c) => [c.strategyId, c.qty, c.loss])).toEqual([['a', '4', '0.8'], ['b', '1', '0.2']]);
  });

  it('takes nothing when the venue holds what the fills made, or the books hold none of it', () => {
    expect(outsideCloses([pos('10', '2')], [pos('10', '2')], () => new Map([['a', '10']]), instruments)).toEqual([]);
    expect(outsideCloses([pos('10', '2')], [], () => new Map(), instruments)).toEqual([]);
  });

  it('uses the margin the venue held (the stream\'s) when given, for the account lost that', () => {
    expect(outsideCloses([pos('10', '0')], [], () => new Map([['a', '10']]), instruments, () => '3')).toEqual([
      { strategyId: 'a', symbol: SYMBOL, side: 'LONG', qty: '10', loss: '3' },
    ]);
  });
});
