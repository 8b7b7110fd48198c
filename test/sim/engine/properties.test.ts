// Property tests over random order flows on SimVenue with the real ledger: conservation, no negative balance, uncrossed books, executed ≤ ordered, refusals change nothing, determinism by hash.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/core/errors.ts';
import type { SimVenue } from '../../../src/sim/engine/venue.ts';
import { fundContracts, makeVenue } from './fixtures.ts';

type Op =
  | { k: 'spot'; who: number; side: string; type: string; tif: string; qty: number; price: number }
  | { k: 'cancel'; who: number; pick: number }
  | { k: 'contract'; who: number; side: string; tif: string; qty: number; price: number; priceType: string; stop: boolean }
  | { k: 'ccancel'; who: number; pick: number }
  | { k: 'mark'; price: number }
  | { k: 'time'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ k: fc.constant('spot' as const), who: fc.integer({ min: 0, max: 2 }), side: fc.constantFrom('BUY', 'SELL'), type: fc.constantFrom('LIMIT', 'LIMIT', 'MARKET', 'LIMIT_MAKER'), tif: fc.constantFrom('GTC', 'IOC', 'FOK'), qty: fc.integer({ min: 0, max: 400_000 }), price: fc.integer({ min: 29_900, max: 30_100 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), who: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('contract' as const), who: fc.integer({ min: 0, max: 2 }), side: fc.constantFrom('BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE'), tif: fc.constantFrom('GTC', 'GTC', 'GTC', 'IOC', 'FOK', 'LIMIT_MAKER'), qty: fc.integer({ min: 0, max: 3000 }), price: fc.integer({ min: 9_950, max: 10_050 }), priceType: fc.constantFrom('INPUT', 'INPUT', 'OPPONENT', 'QUEUE', 'MARKET'), stop: fc.integer({ min: 0, max: 5 }).map((x) => x === 0) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('ccancel' as const), who: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('mark' as const), price: fc.integer({ min: 9_400, max: 10_600 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('time' as const), ms: fc.integer({ min: 1, max: 120_000 }) }) },
);

interface World {
  venue: SimVenue;
  advance: (ms: number) => void;
  spot: string[];
  contract: string[];
  orders: { spot: [number, string][]; contract: [number, string][] };
}

function world(): World {
  const v = makeVenue();
  const contract = fundContracts(v.venue, ['alice', 'bob', 'carol']);
  return { venue: v.venue, advance: (ms) => v.clock.advanceToSync(v.clock.now() + ms), spot: [v.alice, v.bob, v.carol], contract, orders: { spot: [], contract: [] } };
}

/** Applies one op; returns true when the venue refused it. */
function apply(w: World, op: Op, n: number): boolean {
  const v = w.venue;
  try {
    switch (op.k) {
      case 'spot': {
        const qty = op.type === 'MARKET' && op.side === 'BUY' ? (op.qty / 1e7).toFixed(6) : (op.qty / 1e4).toFixed(3);
        const r = v.newSpotOrder(w.spot[op.who]!, { symbol: 'ETHBTC', side: op.side, type: op.type, timeInForce: op.tif, quantity: qty, price: (op.price / 1e6).toFixed(6) });
        w.orders.spot.push([op.who, r.orderId]);
        return false;
      }
      case 'cancel': {
        const o = w.orders.spot[op.pick % Math.max(1, w.orders.spot.length)];
        v.cancelSpotOrder(w.spot[op.who]!, { orderId: o ? o[1] : '42' });
        return false;
      }
      case 'contract': {
        const r = v.newContractOrder(w.contract[op.who]!, {
          symbol: 'BTC-PERP-REV', side: op.side, quantity: String(op.qty), leverage: '20', clientOrderId: `p${n}`, price: String(op.price),
          priceType: op.priceType, timeInForce: op.tif, ...(op.stop ? { orderType: 'STOP', triggerPrice: String(op.price) } : {}),
        });
        w.orders.contract.push([op.who, r.orderId]);
        return false;
      }
      case 'ccancel': {
        const o = w.orders.contract[op.pick % Math.max(1, w.orders.contract.length)];
        v.cancelContractOrder(w.contract[op.who]!, { orderId: o ? o[1] : '42' });
        return false;
      }
      case 'mark':
        v.setMarkPrice('BTC-PERP-REV', String(op.price));
        return false;
      case 'time':
        w.advance(op.ms);
        return false;
    }
  } catch (e) {
    if (e instanceof VenueError) return true;
    throw e;
  }
}

function checkInvariants(w: World): void {
  const v = w.venue;
  for (const a of v.ledger.audit()) {
    expect(a.users + a.fees + a.insurance + a.clearing, a.asset).toBe(a.inflow - a.outflow);
  }
  for (const acc of [...w.spot, ...w.contract]) {
    for (const b of v.ledger.balances(acc)) {
      expect(b.free >= 0n && b.locked >= 0n, `${acc} ${b.asset}`).toBe(true);
    }
  }
  for (const inst of v.core.instruments.values()) {
    const bid = inst.book.bestBid();
    const ask = inst.book.bestAsk();
    if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
  }
  for (const o of v.core.orders.values()) {
    if (o.quoteBudget === Infinity) expect(o.executedLots).toBeLessThanOrEqual(o.origLots);
    expect(o.leaves).toBeGreaterThanOrEqual(0);
    expect(o.locked >= 0n).toBe(true);
  }
}

/** accepted, refused, spot trades, contract trades over all runs. */
const stats: [number, number, number, number] = [0, 0, 0, 0];
describe('random order flows', () => {
  it('conserve funds, keep balances non-negative and books uncrossed, never overfill, and refusals change nothing', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 80 }), (ops) => {
        const w = world();
        ops.forEach((op, i) => {
          const before = w.venue.snapshot();
          const refused = apply(w, op, i);
          stats[refused ? 1 : 0] += 1;
          if (refused) expect(w.venue.snapshot()).toBe(before);
          checkInvariants(w);
        });
        stats[2] += w.venue.core.instruments.get('ETHBTC')!.trades.length;
        stats[3] += w.venue.core.instruments.get('BTC-PERP-REV')!.trades.length;
      }),
      { numRuns: 60, seed: 20200927 },
    );
    // The flows must exercise the engine: many accepted and refused orders, and trades on both markets.
    expect(stats[0]).toBeGreaterThan(500);
    expect(stats[1]).toBeGreaterThan(100);
    expect(stats[2]).toBeGreaterThan(50);
    expect(stats[3]).toBeGreaterThan(10);
  });

  it('two runs of the same flow with the same seed and config give the same event log hash', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 5, maxLength: 80 }), (ops) => {
        const hashes = [0, 1].map(() => {
          const w = world();
          ops.forEach((op, i) => apply(w, op, i));
          return w.venue.logHash();
        });
        expect(hashes[0]).toBe(hashes[1]);
        expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
      }),
      { numRuns: 15, seed: 7 },
    );
  });
});
