/** Spot trading routes: new order (and test), query, cancel, open and history orders, my trades. */
import type { SimVenue } from '../engine/venue.ts';
import type { Ctx, Route } from './route.ts';
import { keyOf } from './route.ts';

/** Returns the routes of the spot trade table of venue-api.md. */
export function spotRoutes(venue: SimVenue): Route[] {
  const account = (c: Ctx): string => {
    const k = keyOf(c);
    return venue.accountOf(k.userId, 1, k.accountIndex);
  };
  const orderParams = (c: Ctx) => ({
    symbol: c.p.req('symbol'),
    side: c.p.req('side'),
    type: c.p.req('type'),
    timeInForce: c.p.opt('timeInForce'),
    quantity: c.p.req('quantity'),
    price: c.p.opt('price'),
    newClientOrderId: c.p.opt('newClientOrderId'),
  });
  // venue-notes.md §5: GET takes orderId or origClientOrderId, DELETE orderId or clientOrderId; both accepted everywhere.
  const which = (c: Ctx) => ({ orderId: c.p.optId('orderId'), clientOrderId: c.p.opt('origClientOrderId') ?? c.p.opt('clientOrderId') });
  return [
    { method: 'POST', path: 'main:order', security: 'TRADE', weight: 1, order: true, handle: (c) => venue.newSpotOrder(account(c), orderParams(c)) },
    { method: 'POST', path: 'main:order/test', security: 'TRADE', weight: 1, handle: (c) => venue.testSpotOrder(account(c), orderParams(c)) },
    { method: 'GET', path: 'main:order', security: 'USER_DATA', weight: 1, handle: (c) => venue.getSpotOrder(account(c), which(c)) },
    { method: 'DELETE', path: 'main:order', security: 'TRADE', weight: 1, handle: (c) => venue.cancelSpotOrder(account(c), which(c)) },
    {
      method: 'GET', path: 'main:openOrders', security: 'USER_DATA', weight: 1,
      handle: (c) => venue.openSpotOrders(account(c), { symbol: c.p.opt('symbol'), orderId: c.p.optId('orderId'), limit: c.p.limit(500, 1000) }),
    },
    {
      method: 'GET', path: 'main:historyOrders', security: 'USER_DATA', weight: 5,
      handle: (c) => venue.spotHistory(account(c), {
        symbol: c.p.opt('symbol'), orderId: c.p.optId('orderId'), startTime: c.p.optInt('startTime'), endTime: c.p.optInt('endTime'), limit: c.p.limit(500, 1000),
      }),
    },
    {
      method: 'GET', path: 'main:myTrades', security: 'USER_DATA', weight: 5,
      handle: (c) => venue.spotMyTrades(account(c), {
        symbol: c.p.opt('symbol'), fromId: c.p.optId('fromId'), toId: c.p.optId('toId'), startTime: c.p.optInt('startTime'), endTime: c.p.optInt('endTime'), limit: c.p.limit(500, 1000),
      }),
    },
  ];
}
