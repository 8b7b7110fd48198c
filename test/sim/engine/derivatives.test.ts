// Index, mark, EDP, funding on the clock, liquidation with insurance records and the contract views, all through SimVenue.
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../src/sim/engine/events.ts';
import { fundContracts, makeVenue } from './fixtures.ts';

let n = 0;
const order = (side: string, qty: string, price: string, leverage = '10') => ({ symbol: 'BTC-PERP-REV', side, quantity: qty, leverage, clientOrderId: `d${++n}`, price });

function setup(over: Parameters<typeof makeVenue>[0] = {}) {
  const v = makeVenue(over);
  const [a, b, c] = fundContracts(v.venue, ['alice', 'bob', 'carol']) as [string, string, string];
  const events: SimEvent[] = [];
  v.venue.subscribe((e) => events.push(e));
  return { ...v, a, b, c, events };
}

const total = (venue: ReturnType<typeof makeVenue>['venue'], acc: string): bigint => {
  const bal = venue.ledger.balance(acc, 'TBTC');
  return bal.free + bal.locked;
};

describe('funding through SimVenue', () => {
  it('moves position value × rate from the long to the short at the 8-hour boundary of the clock', () => {
    const { venue, clock, a, b, events } = setup({ funding: { rates: { 'BTC-PERP-REV': '0.0001' } } });
    venue.newContractOrder(b, order('SELL_OPEN', '1000', '10000'));
    venue.newContractOrder(a, order('BUY_OPEN', '1000', '10000'));
    venue.setIndexPrice('BTCUSDT', '10000');
    expect(venue.markPrice('BTC-PERP-REV')).toBe('10000');
    const [aBefore, bBefore] = [total(venue, a), total(venue, b)];
    const next = venue.contracts()[0]!.nextFundingRateTs * 1000;
    expect(next).toBeGreaterThan(clock.now());
    expect((next - 4 * 3_600_000) % (8 * 3_600_000)).toBe(0);
    clock.advanceToSync(next - 1);
    expect(venue.fundingRates({ state: 'past' })).toEqual([]);
    clock.advanceToSync(next);
    // Value = 1000 contracts × 1 / 10000 = 0.1 TBTC; × 0.0001 = 0.00001 TBTC.
    const due = 10n ** 13n;
    expect(total(venue, a)).toBe(aBefore - due);
    expect(total(venue, b)).toBe(bBefore + due);
    expect(venue.ledger.flows(a, 'TBTC').at(-1)).toMatchObject({ flowType: 'FUNDING_SETTLEMENT', change: -due });
    expect(venue.ledger.flows(b, 'TBTC').at(-1)).toMatchObject({ flowType: 'FUNDING_SETTLEMENT', change: due });
    const funding = events.filter((e) => e.body.type === 'funding').map((e) => e.body);
    expect(funding).toEqual([
      { type: 'funding', account: a, symbol: 'BTC-PERP-REV', side: 'LONG', rate: '0.0001', amount: '-0.00001', asset: 'TBTC', intervalEnd: next },
      { type: 'funding', account: b, symbol: 'BTC-PERP-REV', side: 'SHORT', rate: '0.0001', amount: '0.00001', asset: 'TBTC', intervalEnd: next },
    ].sort((x, y) => (x.account < y.account ? -1 : 1)));
    expect(events.some((e) => e.body.type === 'balance' && e.body.account === a && e.time === next)).toBe(true);
    expect(venue.fundingRates({ state: 'past' })).toEqual([
      { symbol: 'BTC-PERP-REV', intervalStart: String(next - 8 * 3_600_000), intervalEnd: String(next), rate: '0.0001', index: '10000' },
    ]);
    expect(venue.contracts()[0]).toMatchObject({ fundingRate: '0.0001', nextFundingRateTs: (next + 8 * 3_600_000) / 1000, openInterest: '1000' });
    // The next interval settles again eight hours later.
    clock.advanceToSync(next + 8 * 3_600_000);
    expect(total(venue, a)).toBe(aBefore - 2n * due);
    for (const x of venue.ledger.audit()) expect(x.users + x.fees + x.insurance + x.clearing).toBe(x.inflow - x.outflow);
  });

  it('with a negative rate the short pays the long', () => {
    const { venue, clock, a, b } = setup({ funding: { rates: { 'BTC-PERP-REV': '-0.0002' } } });
    venue.newContractOrder(b, order('SELL_OPEN', '500', '10000'));
    venue.newContractOrder(a, order('BUY_OPEN', '500', '10000'));
    venue.setIndexPrice('BTCUSDT', '10000');
    const [aBefore, bBefore] = [total(venue, a), total(venue, b)];
    clock.advanceToSync(venue.contracts()[0]!.nextFundingRateTs * 1000);
    // 500 / 10000 = 0.05 TBTC × 0.0002 = 0.00001.
    expect(total(venue, a) - aBefore).toBe(10n ** 13n);
    expect(bBefore - total(venue, b)).toBe(10n ** 13n);
    expect(venue.fundingRates({ state: 'current' })[0]).toMatchObject({ symbol: 'BTC-PERP-REV', rate: '-0.0002' });
  });
});

describe('index, mark and EDP', () => {
  it('EDP is the mean index of the last 10 minutes; the mark moves a tenth of the way toward the book premium per update', () => {
    const { venue, clock, a, b, events } = setup();
    venue.newContractOrder(a, order('BUY_OPEN', '10', '10010'));
    venue.newContractOrder(b, order('SELL_OPEN', '10', '10030'));
    venue.setIndexPrice('BTCUSDT', '10000');
    // Mid 10020, premium 20: basis 2.
    expect(venue.markPrice('BTC-PERP-REV')).toBe('10002');
    clock.advanceToSync(clock.now() + 60_000);
    venue.setIndexPrice('BTCUSDT', '10000');
    // Basis 2 + (20 − 2) / 10 = 3.8.
    expect(venue.markPrice('BTC-PERP-REV')).toBe('10003.8');
    clock.advanceToSync(clock.now() + 60_000);
    venue.setIndexPrice('BTCUSDT', '10300');
    expect(venue.indexPrices()).toEqual({ index: { BTCUSDT: '10300' }, edp: { BTCUSDT: '10100' } });
    clock.advanceToSync(clock.now() + 10 * 60_000);
    expect(venue.indexPrices('BTCUSDT').edp).toEqual({ BTCUSDT: '10300' });
    const marks = events.filter((e) => e.body.type === 'mark').map((e) => e.body);
    expect(marks[0]).toEqual({ type: 'mark', symbol: 'BTC-PERP-REV', index: 'BTCUSDT', indexPrice: '10000', markPrice: '10002' });
    expect(() => venue.setIndexPrice('ETHUSDT', '1')).toThrow(/index/);
  });

  it('the premium rate is basis / index, and the contract info shows the book, index and volumes', () => {
    const { venue, a, b } = setup();
    venue.newContractOrder(b, order('SELL_OPEN', '10', '10100'));
    venue.newContractOrder(a, order('BUY_OPEN', '4', '10100'));
    venue.newContractOrder(a, order('BUY_OPEN', '3', '10050'));
    venue.setIndexPrice('BTCUSDT', '10000');
    // Mid (10050 + 10100) / 2 = 10075: premium 75, basis 7.5, rate 7.5 / 10000 = 0.00075.
    expect(venue.fundingRates()[0]).toMatchObject({ rate: '0.00075' });
    expect(venue.contracts()).toEqual([expect.objectContaining({
      symbol: 'BTC-PERP-REV', baseToken: 'BTC-PERP-REV', quoteToken: 'TBTC', lastPrice: '10100', baseVolume: '4', bid: '10050', ask: '10100',
      high: '10100', low: '10100', productType: 'futures', openInterest: '4', indexPrice: '10000', index: 'BTCUSDT', nextFundingRate: '0.00075', fundingRate: '0',
    })]);
  });
});

describe('liquidation through SimVenue', () => {
  it('closes a position when the index moves the mark across its flp, pays the rest of its margin to the insurance fund and records it', () => {
    const { venue, a, b, c, events } = setup();
    venue.newContractOrder(b, order('SELL_OPEN', '1000', '10000', '50'));
    venue.newContractOrder(a, order('BUY_OPEN', '1000', '10000', '50'));
    venue.newContractOrder(c, order('BUY_OPEN', '1', '9000'));
    const flp = venue.positions(a)[0]!.flp;
    expect(Number(flp)).toBeGreaterThan(9800);
    expect(venue.insurance()).toEqual({ TBTC: [] });
    // The index walks down in steps of 5; with only a bid on the book the basis decays and the mark follows the index to flp.
    let index = Number(flp) + 1;
    venue.setIndexPrice('BTCUSDT', index.toFixed(2));
    expect(venue.positions(a)).toHaveLength(1);
    while (venue.positions(a).length > 0 && index > 9000) {
      index -= 5;
      venue.setIndexPrice('BTCUSDT', index.toFixed(2));
    }
    expect(venue.positions(a)).toEqual([]);
    expect(Number(venue.markPrice('BTC-PERP-REV'))).toBeLessThanOrEqual(Number(flp));
    const liq = events.find((e) => e.body.type === 'liquidation')!.body;
    expect(liq).toMatchObject({ type: 'liquidation', account: a, symbol: 'BTC-PERP-REV', side: 'LONG', qty: '1000', flp, asset: 'TBTC' });
    const recs = venue.insurance({ symbol: 'BTC-PERP-REV' }).TBTC!;
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({ unit: 'TBTC' });
    expect(Number(recs[0]!.value)).toBeGreaterThan(0);
    expect(venue.ledger.flows(a, 'TBTC').at(-1)).toMatchObject({ flowType: 'LIQUIDATION' });
    const pos = events.filter((e) => e.body.type === 'position' && e.body.account === a).at(-1)!.body;
    expect(pos).toMatchObject({ position: '0' });
    for (const x of venue.ledger.audit()) expect(x.users + x.fees + x.insurance + x.clearing).toBe(x.inflow - x.outflow);
  });
});
