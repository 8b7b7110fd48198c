// Contract trading on SimVenue: priceTypes, time in force, STOP triggers, close orders limited to the available position, margin, validation codes.
import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/core/errors.ts';
import { fundContracts, makeVenue } from './fixtures.ts';

function codeOf(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueError) return e.venueCode;
    throw e;
  }
  throw new Error('expected a refusal');
}

let n = 0;
const order = (side: string, qty: string, price: string | undefined, extra: Record<string, string> = {}) => ({
  symbol: 'BTC-PERP-REV', side, quantity: qty, leverage: '10', clientOrderId: `c${++n}`, ...(price ? { price } : {}), ...extra,
});

function setup() {
  const v = makeVenue();
  const [a, b, c] = fundContracts(v.venue, ['alice', 'bob', 'carol']) as [string, string, string];
  return { ...v, a, b, c };
}

describe('contract orders', () => {
  it('an open order locks its marginLocked; a fill opens LONG and SHORT positions at the maker price', () => {
    const { venue, a, b } = setup();
    const s = venue.newContractOrder(a, order('SELL_OPEN', '1000', '10000'));
    expect(s.status).toBe('NEW');
    expect(BigInt(venue.ledger.balance(a, 'TBTC').locked)).toBeGreaterThan(0n);
    expect(Number(s.marginLocked)).toBeGreaterThan(0.01);
    const l = venue.newContractOrder(b, order('BUY_OPEN', '400', '10100'));
    expect(l).toMatchObject({ status: 'FILLED', executedQty: '400', avgPrice: '10000' });
    expect(venue.positions(b)).toMatchObject([{ side: 'LONG', position: '400', available: '400', avgPrice: '10000' }]);
    expect(venue.positions(a)).toMatchObject([{ side: 'SHORT', position: '400' }]);
    expect(venue.contractMyTrades(b)).toMatchObject([{ side: 'BUY_OPEN', price: '10000', quantity: '400', feeTokenId: 'TBTC' }]);
    venue.cancelContractOrder(a, { orderId: s.orderId });
    expect(venue.getContractOrder(a, { orderId: s.orderId })).toMatchObject({ status: 'CANCELED', marginLocked: '0', executedQty: '400' });
  });

  it('close orders are limited to the available position and hold it while open', () => {
    const { venue, a, b } = setup();
    venue.newContractOrder(a, order('SELL_OPEN', '100', '10000'));
    venue.newContractOrder(b, order('BUY_OPEN', '100', '10000'));
    const before = venue.snapshot();
    expect(codeOf(() => venue.newContractOrder(b, order('SELL_CLOSE', '101', '11000')))).toBe(-1156);
    expect(codeOf(() => venue.newContractOrder(a, order('SELL_CLOSE', '1', '11000')))).toBe(-1156);
    expect(venue.snapshot()).toBe(before);
    const c1 = venue.newContractOrder(b, order('SELL_CLOSE', '60', '11000'));
    expect(venue.positions(b)[0]).toMatchObject({ position: '100', available: '40' });
    expect(codeOf(() => venue.newContractOrder(b, order('SELL_CLOSE', '41', '11000')))).toBe(-1156);
    venue.newContractOrder(a, order('BUY_CLOSE', '60', '11000'));
    expect(venue.getContractOrder(b, { orderId: c1.orderId }).status).toBe('FILLED');
    expect(venue.positions(b)[0]).toMatchObject({ position: '40', available: '40' });
    expect(Number(venue.positions(b)[0]!.realizedPnL)).toBeGreaterThan(0);
  });

  it('priceType OPPONENT, QUEUE, OVER and MARKET price from the book and the last trade', () => {
    const { venue, a, b, c } = setup();
    venue.newContractOrder(a, order('SELL_OPEN', '10', '10010'));
    venue.newContractOrder(a, order('BUY_OPEN', '10', '9990'));
    const q = venue.newContractOrder(c, order('BUY_OPEN', '5', undefined, { priceType: 'QUEUE' }));
    expect(q).toMatchObject({ price: '9990', status: 'NEW', priceType: 'QUEUE' });
    const o = venue.newContractOrder(b, order('BUY_OPEN', '15', undefined, { priceType: 'OPPONENT' }));
    // Fills 10 at the best ask and rests the rest at that price.
    expect(o).toMatchObject({ price: '10010', executedQty: '10', status: 'PARTIALLY_FILLED' });
    venue.newContractOrder(a, order('SELL_OPEN', '10', '10020'));
    // Best bid is b's resting 10010: OVER sells at 10010 − 5 and so trades at 10010.
    const over = venue.newContractOrder(c, order('SELL_OPEN', '3', undefined, { priceType: 'OVER', overPrice: '5' }));
    expect(over).toMatchObject({ price: '10005', avgPrice: '10010', status: 'FILLED' });
    const mkt = venue.newContractOrder(b, order('BUY_OPEN', '1', undefined, { priceType: 'MARKET' }));
    // last 10010 × 1.05 = 10510.5; it fills at the best ask 10020.
    expect(mkt).toMatchObject({ price: '10510.5', avgPrice: '10020', status: 'FILLED' });
    const sellMkt = venue.newContractOrder(b, order('SELL_OPEN', '1', undefined, { priceType: 'MARKET', timeInForce: 'IOC' }));
    // last 10020 × 0.95 = 9519.
    expect(sellMkt.price).toBe('9519');
  });

  it('IOC, FOK and LIMIT_MAKER behave as on spot', () => {
    const { venue, a, b } = setup();
    venue.newContractOrder(a, order('SELL_OPEN', '10', '10000'));
    expect(venue.newContractOrder(b, order('BUY_OPEN', '20', '10000', { timeInForce: 'FOK' }))).toMatchObject({ status: 'CANCELED', executedQty: '0', marginLocked: '0' });
    expect(codeOf(() => venue.newContractOrder(b, order('BUY_OPEN', '1', '10000', { timeInForce: 'LIMIT_MAKER' })))).toBe(-1158);
    expect(venue.newContractOrder(b, order('BUY_OPEN', '20', '10000', { timeInForce: 'IOC' }))).toMatchObject({ status: 'CANCELED', executedQty: '10' });
    expect(venue.ledger.balance(b, 'TBTC').locked).toBeGreaterThan(0n);
    expect(venue.depth('BTC-PERP-REV')).toMatchObject({ bids: [], asks: [] });
  });

  it('a STOP order waits off the book and triggers when the last price reaches its trigger', () => {
    const { venue, a, b, c } = setup();
    venue.newContractOrder(a, order('SELL_OPEN', '10', '10000'));
    venue.newContractOrder(b, order('BUY_OPEN', '1', '10000'));
    const stop = venue.newContractOrder(c, order('BUY_OPEN', '2', '10300', { orderType: 'STOP', triggerPrice: '10200' }));
    expect(stop.status).toBe('NEW');
    expect(venue.openContractOrders(c, { orderType: 'STOP' }).map((o) => o.orderId)).toEqual([stop.orderId]);
    expect(venue.openContractOrders(c)).toEqual([]);
    expect(venue.depth('BTC-PERP-REV').bids).toEqual([]);
    venue.newContractOrder(a, order('SELL_OPEN', '5', '10200'));
    venue.newContractOrder(b, order('BUY_OPEN', '9', '10200'));
    // 10000 × 9 filled first, no trade at 10200 yet; then a trade at 10200 triggers the stop.
    expect(venue.getContractOrder(c, { orderId: stop.orderId }).status).toBe('NEW');
    venue.newContractOrder(b, order('BUY_OPEN', '1', '10200'));
    const after = venue.getContractOrder(c, { orderId: stop.orderId });
    expect(after).toMatchObject({ status: 'FILLED', executedQty: '2', avgPrice: '10200', orderType: 'STOP' });
    expect(venue.positions(c)).toMatchObject([{ side: 'LONG', position: '2' }]);
    const stop2 = venue.newContractOrder(c, order('SELL_CLOSE', '2', '9000', { orderType: 'STOP', triggerPrice: '9500' }));
    expect(venue.cancelContractOrder(c, { orderId: stop2.orderId }).status).toBe('CANCELED');
  });

  it('a close sent without leverage answers with its position\'s leverage, also for a STOP close with no position yet', () => {
    const { venue, a, b, c } = setup();
    const noLeverage = (side: string, qty: string, price: string, extra: Record<string, string> = {}) => {
      const { leverage: _, ...rest } = order(side, qty, price, extra);
      return rest;
    };
    venue.newContractOrder(a, order('SELL_OPEN', '100', '10000', { leverage: '5' }));
    venue.newContractOrder(b, order('BUY_OPEN', '100', '10000', { leverage: '4' }));
    const close = venue.newContractOrder(b, noLeverage('SELL_CLOSE', '30', '11000'));
    expect(close.leverage).toBe('4');
    expect(venue.openContractOrders(b)[0]).toMatchObject({ orderId: close.orderId, leverage: '4' });
    // The user stream's contractExecutionReport reads `v` from the engine's order.
    expect(venue.core.orders.get(close.orderId)!.leverage).toBe('4');
    const filled = venue.newContractOrder(a, noLeverage('BUY_CLOSE', '30', '11000'));
    expect(filled).toMatchObject({ status: 'FILLED', leverage: '5' });
    const sent = venue.newContractOrder(b, order('SELL_CLOSE', '10', '12000', { leverage: '7' }));
    expect(sent.leverage).toBe('7');
    // c holds nothing when its STOP close is placed; the position's leverage is known when it triggers.
    const stop = venue.newContractOrder(c, noLeverage('SELL_CLOSE', '2', '9000', { orderType: 'STOP', triggerPrice: '9500' }));
    expect(stop.leverage).toBe('');
    venue.newContractOrder(a, order('SELL_OPEN', '2', '9600', { leverage: '5' }));
    venue.newContractOrder(c, order('BUY_OPEN', '2', '9600', { leverage: '3' }));
    venue.newContractOrder(a, order('BUY_OPEN', '3', '9500', { leverage: '5' }));
    venue.newContractOrder(b, noLeverage('SELL_CLOSE', '1', '9500'));
    expect(venue.getContractOrder(c, { orderId: stop.orderId })).toMatchObject({ leverage: '3', status: 'FILLED' });
  });

  it('refuses bad contract orders with the venue\'s codes and changes nothing', () => {
    const { venue, a } = setup();
    const before = venue.snapshot();
    const cases: [object, number][] = [
      [{ ...order('BUY_OPEN', '1', '10000'), symbol: 'ETHBTC' }, -1130],
      [order('BUY', '1', '10000'), -1117],
      [order('BUY_OPEN', '1', '10000', { orderType: 'MARKET' }), -1116],
      [order('BUY_OPEN', '1', '10000', { priceType: 'BEST' }), -1154],
      [order('BUY_OPEN', '1', '10000', { timeInForce: 'DAY' }), -1115],
      [order('BUY_OPEN', '0', '10000'), -1105],
      [order('BUY_OPEN', '1', undefined), -1105],
      [order('BUY_OPEN', '1', '10000', { leverage: '0' }), -1105],
      [order('BUY_OPEN', '1', '10000', { orderType: 'STOP' }), -1105],
      [order('BUY_OPEN', '1', '10000.001'), -1134],
      [order('BUY_OPEN', '1.5', '10000'), -1137],
      [order('BUY_OPEN', '1', '10000', { leverage: '1000' }), -1130],
      [order('BUY_OPEN', '100000', '100', { leverage: '1' }), -1131],
      [order('BUY_OPEN', '1', undefined, { priceType: 'OPPONENT' }), -1149],
      [{ ...order('BUY_OPEN', '1', '10000'), clientOrderId: '' }, -1105],
    ];
    for (const [p, code] of cases) {
      expect(codeOf(() => venue.newContractOrder(a, p as never)), JSON.stringify(p)).toBe(code);
      expect(venue.snapshot()).toBe(before);
    }
    const ok = venue.newContractOrder(a, order('BUY_OPEN', '1', '9000', { clientOrderId: 'dup' }));
    expect(codeOf(() => venue.newContractOrder(a, order('BUY_OPEN', '1', '9000', { clientOrderId: 'dup' })))).toBe(-1141);
    expect(codeOf(() => venue.cancelContractOrder(a, { orderId: '1' }))).toBe(-2013);
    venue.cancelContractOrder(a, { clientOrderId: 'dup' });
    expect(codeOf(() => venue.cancelContractOrder(a, { orderId: ok.orderId }))).toBe(-1142);
  });

  it('a mark price past a position\'s flp liquidates it and cancels its close orders', () => {
    const { venue, a, b } = setup();
    venue.newContractOrder(a, order('SELL_OPEN', '1000', '10000', { leverage: '50' }));
    venue.newContractOrder(b, order('BUY_OPEN', '1000', '10000', { leverage: '50' }));
    const close = venue.newContractOrder(b, order('SELL_CLOSE', '500', '12000'));
    const flp = venue.positions(b)[0]!.flp;
    expect(Number(flp)).toBeGreaterThan(9000);
    venue.setMarkPrice('BTC-PERP-REV', String(Number(flp) - 1));
    expect(venue.positions(b)).toEqual([]);
    expect(venue.getContractOrder(b, { orderId: close.orderId }).status).toBe('CANCELED');
    expect(venue.depth('BTC-PERP-REV').asks).toEqual([]);
  });
});
