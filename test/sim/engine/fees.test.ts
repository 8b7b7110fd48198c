// The engine's fee tables charge exactly what the ledger's feeOn charges (value × rate rounded up), for exact and inexact rates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeOn, toAmount } from '../../../src/sim/ledger/index.ts';
import { makeVenue } from './fixtures.ts';

describe('fee tables', () => {
  it('match feeOn on the base quantity and on the quote amount', () => {
    const { venue } = makeVenue();
    const inst = venue.instrument('ETHBTC')!;
    const rates = ['0', '0.001', '0.00075', '0.0002', '0.000000000000000003', '0.123456789012345678'].map((r) => toAmount(r));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 1, max: 100_000_000 }), fc.constantFrom(...rates), (lots, price, rate) => {
        expect(inst.baseFee(lots, rate)).toBe(feeOn(inst.lotsAmount(lots), rate));
        const quote = inst.quoteAmount(price, lots);
        expect(inst.quoteFee(price * lots, quote, rate)).toBe(feeOn(quote, rate));
      }),
      { numRuns: 400, seed: 11 },
    );
  });
});
