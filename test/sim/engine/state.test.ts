// State export and import: a venue started from another's exported state has the same snapshot, and trading goes on with the next ids.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { MarketAgents } from '../../../src/sim/agents/index.ts';
import type { AgentsConfig } from '../../../src/sim/engine/config.ts';
import { SimVenue } from '../../../src/sim/engine/venue.ts';
import { baseConfig, fundContracts, makeVenue } from './fixtures.ts';

const ONE = 10n ** 18n;

function busyVenue() {
  const v = makeVenue({ withdrawal: { stepMs: 60_000 }, funding: { rates: { 'BTC-PERP-REV': '0.0001' } } });
  const { venue, clock, alice, bob, carol } = v;
  const [ca, cb] = fundContracts(venue, ['alice', 'bob']) as [string, string];
  venue.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.035', newClientOrderId: 'a-sell' });
  venue.newSpotOrder(carol, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.035' });
  venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1.5', price: '0.036' });
  venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.034', newClientOrderId: 'b-bid' });
  const gone = venue.newSpotOrder(carol, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.03' });
  venue.cancelSpotOrder(carol, { orderId: gone.orderId });
  venue.newContractOrder(cb, { symbol: 'BTC-PERP-REV', side: 'SELL_OPEN', quantity: '1000', price: '10000', leverage: '20', clientOrderId: 's1' });
  venue.newContractOrder(ca, { symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', quantity: '600', price: '10000', leverage: '20', clientOrderId: 'l1' });
  venue.newContractOrder(ca, { symbol: 'BTC-PERP-REV', side: 'SELL_CLOSE', quantity: '100', price: '10500', clientOrderId: 'c1' });
  venue.newContractOrder(ca, { symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', orderType: 'STOP', triggerPrice: '10200', quantity: '10', price: '10300', leverage: '20', clientOrderId: 'st1' });
  venue.setIndexPrice('BTCUSDT', '10010');
  clock.advanceToSync(venue.contracts()[0]!.nextFundingRateTs * 1000 + 1000);
  venue.withdraw({ userId: venue.user('carol'), tokenId: 'BTC', clientOrderId: 'w1', address: 'addr', quantity: ONE });
  clock.advanceToSync(clock.now() + 60_000);
  return { ...v, ca, cb };
}

describe('state export and import', () => {
  it('a venue started from the exported state has the same snapshot, on any clock', () => {
    const { venue } = busyVenue();
    const state = venue.exportState();
    expect(() => JSON.parse(state)).not.toThrow();
    const restored = SimVenue.fromState(baseConfig(), new VirtualClock(1_700_000_000_000), state);
    expect(restored.snapshot()).toBe(venue.snapshot());
    expect(restored.exportState()).toBe(state);
    venue.close();
    restored.close();
  });

  it('keeps balances, positions, open orders in their queue places, queries and ids; trading goes on with the next ids', () => {
    const { venue, clock, alice, bob, ca } = busyVenue();
    const restored = SimVenue.fromState(baseConfig(), new VirtualClock(clock.now()), venue.exportState());
    const bobId = restored.user('bob');
    expect(restored.accountOf(bobId, 1)).toBe(bob);
    expect(restored.ledger.balances(alice)).toEqual(venue.ledger.balances(alice));
    expect(restored.positions(ca)).toEqual(venue.positions(ca));
    expect(restored.openSpotOrders(bob)).toEqual(venue.openSpotOrders(bob));
    expect(restored.spotMyTrades(alice)).toEqual(venue.spotMyTrades(alice));
    expect(restored.openContractOrders(ca, { orderType: 'STOP' })).toEqual(venue.openContractOrders(ca, { orderType: 'STOP' }));
    expect(restored.getSpotOrder(bob, { clientOrderId: 'b-bid' })).toEqual(venue.getSpotOrder(bob, { clientOrderId: 'b-bid' }));
    expect(restored.ledger.flows(alice)).toEqual(venue.ledger.flows(alice));
    expect(restored.fundingRates({ state: 'past' })).toEqual(venue.fundingRates({ state: 'past' }));
    expect(restored.indexPrices()).toEqual(venue.indexPrices());
    expect(restored.klines('ETHBTC', '1m')).toEqual(venue.klines('ETHBTC', '1m'));
    expect(restored.ticker24h('ETHBTC')).toEqual(venue.ticker24h('ETHBTC'));
    // The same operations on both give the same answers: the sell meets the remaining queue in the same order.
    for (const v of [venue, restored]) v.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '0.7', price: '0.034' });
    const a = venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '3', price: '0.036' });
    const b = restored.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '3', price: '0.036' });
    expect(b).toEqual(a);
    expect(() => restored.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.04', newClientOrderId: 'a-sell' })).toThrow(/Duplicate/);
    const c1 = venue.newContractOrder(ca, { symbol: 'BTC-PERP-REV', side: 'SELL_CLOSE', quantity: '50', price: '9000', clientOrderId: 'c2' });
    const c2 = restored.newContractOrder(ca, { symbol: 'BTC-PERP-REV', side: 'SELL_CLOSE', quantity: '50', price: '9000', clientOrderId: 'c2' });
    expect(c2).toEqual(c1);
    // The pending withdrawal goes on on the new clock.
    (restored.clock as VirtualClock).advanceToSync(clock.now() + 10 * 60_000);
    clock.advanceToSync(clock.now() + 10 * 60_000);
    expect(restored.snapshot()).toBe(venue.snapshot());
    expect(restored.ledger.withdrawal(restored.user('carol'), { clientOrderId: 'w1' })).toMatchObject({ status: 6 });
    venue.close();
    restored.close();
  });

  it('round-trips a venue the agents have traded on for a while', () => {
    const clock = new VirtualClock(1_601_215_914_010);
    const cfg: AgentsConfig = { referencePrice: { ETHBTC: '0.035', BTCUSDT: '10000' }, funds: { ETH: '100000', BTC: '5000' }, contractFunds: { TBTC: '50' }, levels: 3 };
    const venue = new SimVenue(baseConfig({ keepFinishedOrders: 50 }), clock);
    const agents = new MarketAgents(venue, cfg, 9);
    agents.start();
    clock.advanceToSync(clock.now() + 10 * 60_000);
    agents.stop();
    const restored = SimVenue.fromState(baseConfig({ keepFinishedOrders: 50 }), new VirtualClock(clock.now()), venue.exportState());
    expect(restored.snapshot()).toBe(venue.snapshot());
    const order = { symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', quantity: '5', priceType: 'MARKET', leverage: '10', clientOrderId: 'after' };
    expect(restored.newContractOrder(agents.contracts!.takerAccount, order)).toEqual(venue.newContractOrder(agents.contracts!.takerAccount, order));
    expect(restored.snapshot()).toBe(venue.snapshot());
    venue.close();
    restored.close();
  });
});
