/** Contract trading routes (/openapi/contract/v1/...) and the public funding-rate and insurance routes. */
import type { SimVenue } from '../engine/venue.ts';
import { apiError, missingParam } from './errors.ts';
import { keyOf, type Ctx, type Route } from './route.ts';

/** Returns the contract routes. */
export function contractRoutes(venue: SimVenue): Route[] {
  const account = (x: Ctx): string => venue.accountOf(keyOf(x).userId, 3, keyOf(x).accountIndex);
  const which = (x: Ctx) => ({ orderId: x.p.optId('orderId'), clientOrderId: x.p.opt('clientOrderId') ?? x.p.opt('origClientOrderId') });
  const orderType = (x: Ctx): string | undefined => x.p.opt('orderType')?.toUpperCase();
  return [
    {
      method: 'POST', path: 'contract:order', security: 'TRADE', weight: 1, order: true,
      handle: (x) => {
        const clientOrderId = x.p.opt('clientOrderId');
        if (clientOrderId === undefined) throw missingParam('clientOrderId');
        return venue.newContractOrder(account(x), {
          symbol: x.p.req('symbol'), side: x.p.req('side'), orderType: x.p.opt('orderType'), quantity: x.p.opt('quantity') ?? '',
          leverage: x.p.opt('leverage'), price: x.p.opt('price'), priceType: x.p.opt('priceType'), overPrice: x.p.opt('overPrice'),
          triggerPrice: x.p.opt('triggerPrice'), timeInForce: x.p.opt('timeInForce'), clientOrderId,
        });
      },
    },
    { method: 'GET', path: 'contract:getOrder', security: 'USER_DATA', weight: 1, handle: (x) => venue.getContractOrder(account(x), which(x)) },
    { method: 'DELETE', path: 'contract:order/cancel', security: 'TRADE', weight: 1, handle: (x) => venue.cancelContractOrder(account(x), which(x)) },
    { method: 'DELETE', path: 'contract:order/batchCancel', security: 'TRADE', weight: 5, handle: (x) => venue.batchCancel(account(x), x.p.opt('symbol')) },
    {
      method: 'GET', path: 'contract:openOrders', security: 'USER_DATA', weight: 1,
      handle: (x) => venue.openContractOrders(account(x), { orderType: orderType(x), symbol: x.p.opt('symbol'), orderId: x.p.optId('orderId'), limit: x.p.limit(20, 1000) }),
    },
    {
      method: 'GET', path: 'contract:historyOrders', security: 'USER_DATA', weight: 5,
      handle: (x) => venue.contractHistory(account(x), { orderType: orderType(x), symbol: x.p.opt('symbol'), orderId: x.p.optId('orderId'), limit: x.p.limit(500, 1000) }),
    },
    {
      method: 'GET', path: 'contract:myTrades', security: 'USER_DATA', weight: 5,
      handle: (x) => venue.contractMyTrades(account(x), { symbol: x.p.opt('symbol'), fromId: x.p.optId('fromId'), toId: x.p.optId('toId'), limit: x.p.limit(20, 1000) }),
    },
    {
      method: 'GET', path: 'contract:positions', security: 'USER_DATA', weight: 5,
      handle: (x) => venue.positions(account(x), { symbol: x.p.opt('symbol'), side: x.p.opt('side')?.toUpperCase() }),
    },
    {
      method: 'POST', path: 'contract:modifyMargin', security: 'TRADE', weight: 1,
      handle: (x) => {
        const amount = x.p.optDecimal('amount');
        if (amount === undefined) throw missingParam('amount');
        if (/^[+-]?0*\.?0*$/.test(amount)) throw apiError(-1130, 'amount');
        return venue.modifyMargin(account(x), { symbol: x.p.req('symbol'), side: x.p.req('side').toUpperCase(), amount });
      },
    },
    {
      method: 'GET', path: 'contract:fundingRate', security: 'NONE', weight: 0,
      handle: (x) => venue.fundingRates({
        symbol: x.p.opt('symbol'), state: x.p.opt('state')?.toLowerCase(), from: x.p.optInt('from'), endTime: x.p.optInt('endTime'), limit: x.p.limit(20, 1000),
      }),
    },
    {
      method: 'GET', path: 'contract:insurance', security: 'NONE', weight: 0,
      handle: (x) => venue.insurance({ symbol: x.p.opt('symbol'), fromId: x.p.optId('fromId'), toId: x.p.optId('toId'), limit: x.p.limit(20, 1000) }),
    },
  ];
}
