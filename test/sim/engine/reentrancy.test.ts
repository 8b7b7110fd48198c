// A listener that places an order while another order is matching (events are published synchronously) leaves the outer order's matching intact.
import { describe, expect, it } from 'vitest';
import { makeVenue } from './fixtures.ts';

describe('orders placed from a listener', () => {
  it('a nested placement during a fill does not take over the outer taker', () => {
    const { venue, alice, bob, carol } = makeVenue();
    venue.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.035' });
    venue.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.036' });
    let nested = '';
    venue.subscribe((e) => {
      if (e.body.type === 'fill' && e.body.account === bob && nested === '') {
        nested = venue.newSpotOrder(carol, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '0.02' }).orderId;
      }
    });
    const outer = venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '2', price: '0.036' });
    expect(nested).not.toBe('');
    expect(outer).toMatchObject({ status: 'FILLED', executedQty: '2' });
    expect(venue.getSpotOrder(carol, { orderId: nested })).toMatchObject({ status: 'NEW', executedQty: '0' });
    expect(venue.spotMyTrades(bob).map((t) => t.price).sort()).toEqual(['0.035', '0.036']);
    for (const a of venue.ledger.audit()) expect(a.users + a.fees + a.insurance + a.clearing).toBe(a.inflow - a.outflow);
  });
});
