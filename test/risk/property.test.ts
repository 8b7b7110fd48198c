// Property: whatever the strategy asks, an intent the gate accepts satisfies every filter of its instrument, and rounding only ever moves toward the passive side.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, formatScaled } from '../../src/core/fixed.ts';
import type { Instrument } from '../../src/model/index.ts';
import { RiskGate, valueOf, type OrderIntent, type PlaceIntent } from '../../src/risk/index.ts';
import { BTCUSDT, ETHUSDT, INSTRUMENTS, LIN, REV, snapshot } from './fixtures.ts';

const d = (s: string): Decimal => new Decimal(s);

/** A positive decimal string with 0..10 decimals, spanning tiny to huge. */
const decimalText = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 13n }), fc.integer({ min: 0, max: 10 })).map(([v, s]) => formatScaled(v, s));

const spotIntent = (inst: Instrument) =>
  fc.record({
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    type: fc.constantFrom('LIMIT' as const, 'LIMIT_MAKER' as const, 'MARKET' as const),
    price: decimalText,
    quantity: decimalText,
  }).map((r): OrderIntent => ({ kind: 'placeSpot', strategyId: 's', symbol: inst.symbol, clientOrderId: 'p', ...r }));

const contractIntent = (inst: Instrument) =>
  fc.record({
    side: fc.constantFrom('BUY_OPEN' as const, 'SELL_OPEN' as const, 'BUY_CLOSE' as const, 'SELL_CLOSE' as const),
    priceType: fc.constantFrom('INPUT' as const, 'MARKET' as const),
    price: decimalText,
    quantity: decimalText,
    leverage: fc.constantFrom('1', '5', '20', '100'),
  }).map((r): OrderIntent => ({ kind: 'placeContract', strategyId: 's', symbol: inst.symbol, clientOrderId: 'p', orderType: 'LIMIT', ...r }));

const anyIntent = fc.oneof(spotIntent(ETHUSDT), spotIntent(BTCUSDT), contractIntent(REV), contractIntent(LIN));

// Rich enough that funds rarely deny, so the filters are what decide.
const SNAP = snapshot({
  spot: { USDT: { free: '1000000000000000000', locked: '0' }, ETH: { free: '1000000', locked: '0' }, BTC: { free: '1000000', locked: '0' } },
  positions: [
    { symbol: REV.symbol, side: 'LONG', quantity: '100000', avgPrice: '8000', margin: '1' },
    { symbol: REV.symbol, side: 'SHORT', quantity: '100000', avgPrice: '8000', margin: '1' },
    { symbol: LIN.symbol, side: 'LONG', quantity: '100000', avgPrice: '9000', margin: '1' },
    { symbol: LIN.symbol, side: 'SHORT', quantity: '100000', avgPrice: '9000', margin: '1' },
  ],
  contract: { TBTC: { token: 'TBTC', total: '1e30', availableMargin: '1000000000000', positionMargin: '0', orderMargin: '0' }, BUSDT: { token: 'BUSDT', total: '0', availableMargin: '1000000000000', positionMargin: '0', orderMargin: '0' } },
});

function limitPrice(o: PlaceIntent): string | undefined {
  if (o.kind === 'placeSpot') return o.type === 'MARKET' ? undefined : o.price;
  return o.priceType === 'INPUT' ? o.price : undefined;
}

function isBuy(o: PlaceIntent): boolean {
  return o.side === 'BUY' || o.side === 'BUY_OPEN' || o.side === 'BUY_CLOSE';
}

function satisfiesFilters(o: PlaceIntent, inst: Instrument): void {
  const price = limitPrice(o);
  if (price !== undefined) {
    const p = d(price);
    expect(p.mod(d(inst.tickSize)).isZero(), `price ${price} on tick ${inst.tickSize}`).toBe(true);
    expect(p.gte(d(inst.minPrice!)) && p.lte(d(inst.maxPrice!)), `price ${price} in range`).toBe(true);
  }
  const marketBuy = o.kind === 'placeSpot' && o.type === 'MARKET' && o.side === 'BUY';
  if (marketBuy) {
    // A quote amount: on the tick (the venue's -1148 otherwise), and at least the minimum notional.
    expect(d(o.quantity).mod(d(inst.tickSize)).isZero(), `amount ${o.quantity} on tick ${inst.tickSize}`).toBe(true);
    expect(d(o.quantity).gte(d(inst.minNotional!))).toBe(true);
    return;
  }
  const q = d(o.quantity);
  expect(q.mod(d(inst.stepSize)).isZero(), `qty ${o.quantity} on step ${inst.stepSize}`).toBe(true);
  expect(q.gte(d(inst.minQty!)) && q.lte(d(inst.maxQty!)), `qty ${o.quantity} in range`).toBe(true);
  const refPrice = price ?? SNAP.prices[o.symbol]!.last!;
  // Market-priced contracts are valued at a price at least as bad as the last; the last is the venue's lower bound here.
  if (price !== undefined || inst.kind === 'spot') expect(valueOf(inst, q, d(refPrice)).gte(d(inst.minNotional!))).toBe(true);
}

describe('property: accepted intents satisfy the instrument filters', () => {
  for (const rounding of ['round', 'deny'] as const) {
    it(`in ${rounding} mode`, () => {
      const gate = new RiskGate({ instruments: INSTRUMENTS, config: { rounding } });
      let accepted = 0;
      fc.assert(
        fc.property(anyIntent, (intent) => {
          const r = gate.check(intent, SNAP);
          if (!r.ok) return;
          accepted++;
          const out = r.intent as PlaceIntent;
          const inst = INSTRUMENTS.get(out.symbol)!;
          satisfiesFilters(out, inst);
          const before = intent as PlaceIntent;
          if (rounding === 'deny') expect(out).toEqual(before);
          const p0 = limitPrice(before);
          const p1 = limitPrice(out);
          if (p0 !== undefined && p1 !== undefined) {
            // Toward the passive side, by less than one tick.
            const moved = d(p1).sub(d(p0));
            expect(isBuy(out) ? moved.lte(0) : moved.gte(0)).toBe(true);
            expect(moved.abs().lt(d(inst.tickSize))).toBe(true);
          }
          // Down, by less than a step (a quote amount: less than a tick).
          const moved = d(before.quantity).sub(d(out.quantity));
          const unit = out.kind === 'placeSpot' && out.type === 'MARKET' && out.side === 'BUY' ? inst.tickSize : inst.stepSize;
          expect(moved.gte(0) && moved.lt(d(unit))).toBe(true);
        }),
        { numRuns: 4000, seed: 20240611 },
      );
      // The property says nothing if almost everything is denied.
      expect(accepted).toBeGreaterThan(100);
    });
  }
});
