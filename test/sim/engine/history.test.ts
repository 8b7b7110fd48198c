// The cap on kept finished orders: the oldest finished orders are forgotten, open orders never are.
import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/core/errors.ts';
import { makeVenue } from './fixtures.ts';

describe('kept order history', () => {
  it('forgets the oldest finished orders beyond keepFinishedOrders per account and keeps every open one', () => {
    const { venue, alice } = makeVenue({ keepFinishedOrders: 3 });
    const open = venue.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01', newClientOrderId: 'keep-me' });
    const done: string[] = [];
    for (let i = 0; i < 20; i++) {
      const o = venue.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.02', newClientOrderId: `x${i}` });
      venue.cancelSpotOrder(alice, { orderId: o.orderId });
      done.push(o.orderId);
    }
    const history = venue.spotHistory(alice).map((o) => o.orderId);
    expect(history.length).toBeGreaterThanOrEqual(3);
    expect(history.length).toBeLessThanOrEqual(7);
    expect(history[0]).toBe(done.at(-1));
    expect(venue.core.orders.size).toBeLessThanOrEqual(8);
    const code = (() => {
      try {
        venue.getSpotOrder(alice, { orderId: done[0]! });
      } catch (e) {
        return e instanceof VenueError ? e.venueCode : 0;
      }
      return 0;
    })();
    expect(code).toBe(-2013);
    expect(venue.getSpotOrder(alice, { clientOrderId: 'keep-me' })).toMatchObject({ orderId: open.orderId, status: 'NEW' });
    expect(venue.openSpotOrders(alice).map((o) => o.orderId)).toEqual([open.orderId]);
    // A forgotten order's clientOrderId may be used again.
    expect(venue.newSpotOrder(alice, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.02', newClientOrderId: 'x0' }).status).toBe('NEW');
  });
});
