// Spot trading on SimVenue: order types and time in force, MARKET BUY by quote amount, self-trade rule, validation codes, refusals that change nothing.
import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/core/errors.ts';
import type { SimVenue } from '../../../src/sim/engine/venue.ts';
import { makeVenue } from './fixtures.ts';

function codeOf(fn: () => unknown): { code: number; msg: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueError) return { code: e.venueCode, msg: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

function bal(v: SimVenue, acc: string, asset: string): string {
  const b = v.ledger.balance(acc, asset);
  return `${(b.free / 10n ** 12n).toString()}/${(b.locked / 10n ** 12n).toString()}`;
}

const sell = (qty: string, price: string, extra = {}) => ({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: qty, price, ...extra });
const buy = (qty: string, price: string, extra = {}) => ({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: qty, price, ...extra });

describe('spot orders', () => {
  it('a LIMIT GTC rests, locks its funds, and a crossing order fills at the resting price', () => {
    const { venue, alice, bob } = makeVenue();
    const a = venue.newSpotOrder(alice, sell('2', '0.035'));
    expect(a.status).toBe('NEW');
    expect(bal(venue, alice, 'ETH')).toBe('998000000/2000000');
    const b = venue.newSpotOrder(bob, buy('0.5', '0.04'));
    expect(b).toMatchObject({ status: 'FILLED', executedQty: '0.5', price: '0.04' });
    expect(venue.getSpotOrder(bob, { orderId: b.orderId })).toMatchObject({ avgPrice: '0.035', cummulativeQuoteQty: '0.0175' });
    expect(venue.getSpotOrder(alice, { orderId: a.orderId }).status).toBe('PARTIALLY_FILLED');
    // bob locked 0.02 BTC at his limit but paid 0.0175: nothing stays locked; fee 0.1% of 0.5 ETH in ETH.
    expect(bal(venue, bob, 'BTC')).toBe('99982500/0');
    expect(bal(venue, bob, 'ETH')).toBe('1000499500/0');
    expect(venue.depth('ETHBTC').asks).toEqual([['0.035', '1.5']]);
  });

  it('IOC cancels what it cannot fill at once; FOK fills all or nothing', () => {
    const { venue, alice, bob } = makeVenue();
    venue.newSpotOrder(alice, sell('1', '0.035'));
    const fok = venue.newSpotOrder(bob, buy('2', '0.035', { timeInForce: 'FOK' }));
    expect(fok).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(venue.depth('ETHBTC').asks).toEqual([['0.035', '1']]);
    const ioc = venue.newSpotOrder(bob, buy('2', '0.035', { timeInForce: 'IOC' }));
    expect(ioc).toMatchObject({ status: 'CANCELED', executedQty: '1' });
    expect(venue.depth('ETHBTC')).toMatchObject({ bids: [], asks: [] });
    expect(bal(venue, bob, 'BTC')).toBe('99965000/0');
  });

  it('a MARKET BUY spends its quote amount lot by lot and returns the unspent rest', () => {
    const { venue, alice, bob } = makeVenue();
    venue.newSpotOrder(alice, sell('1', '0.03'));
    venue.newSpotOrder(alice, sell('5', '0.04'));
    const m = venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'MARKET', quantity: '0.07' });
    // 1 ETH at 0.03, then 0.04 BTC buys exactly 1 ETH at 0.04.
    expect(m).toMatchObject({ price: '0', origQty: '0.07', executedQty: '2', status: 'FILLED' });
    const m2 = venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'MARKET', quantity: '0.0401' });
    expect(m2).toMatchObject({ executedQty: '1.002', status: 'FILLED' });
    expect(bal(venue, bob, 'BTC')).toBe(`${100_000_000 - 70_000 - 40_080}/0`);
  });

  it('a MARKET BUY of a quote amount beyond exact integer matching is refused, and changes nothing', () => {
    const { venue, bob } = makeVenue();
    const before = venue.snapshot();
    const e = codeOf(() => venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'BUY', type: 'MARKET', quantity: '100000000' }));
    expect([e.code, e.msg]).toEqual([-1130, expect.stringMatching(/quantity/)]);
    expect(venue.snapshot()).toBe(before);
  });

  it('a MARKET SELL takes the bids down and cancels what is left when the book runs dry', () => {
    const { venue, alice, bob } = makeVenue();
    venue.newSpotOrder(alice, buy('1', '0.03'));
    const m = venue.newSpotOrder(bob, { symbol: 'ETHBTC', side: 'SELL', type: 'MARKET', quantity: '3' });
    expect(m).toMatchObject({ status: 'CANCELED', executedQty: '1' });
    expect(bal(venue, bob, 'ETH')).toBe('999000000/0');
  });

  it('LIMIT_MAKER rests when it would not take and is refused with -1158 when it would', () => {
    const { venue, alice, bob } = makeVenue();
    venue.newSpotOrder(alice, sell('1', '0.035'));
    expect(venue.newSpotOrder(bob, { ...buy('1', '0.034'), type: 'LIMIT_MAKER' }).status).toBe('NEW');
    const before = venue.snapshot();
    expect(codeOf(() => venue.newSpotOrder(bob, { ...buy('1', '0.035'), type: 'LIMIT_MAKER' })).code).toBe(-1158);
    expect(venue.snapshot()).toBe(before);
  });

  it('self-trade: the taker expires the resting order of its own account and trades on behind it', () => {
    const { venue, alice, bob } = makeVenue();
    const own = venue.newSpotOrder(alice, sell('1', '0.035'));
    venue.newSpotOrder(bob, sell('1', '0.035'));
    const t = venue.newSpotOrder(alice, buy('1', '0.035'));
    expect(t).toMatchObject({ status: 'FILLED', executedQty: '1' });
    expect(venue.getSpotOrder(alice, { orderId: own.orderId })).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(bal(venue, alice, 'ETH')).toBe('1000999000/0');
    expect(venue.spotMyTrades(alice)).toHaveLength(1);
  });

  it('cancel returns the locked funds; a second cancel is -1142, a filled order -1139, an unknown one -2013', () => {
    const { venue, alice, bob } = makeVenue();
    const a = venue.newSpotOrder(alice, buy('1', '0.03'));
    expect(venue.cancelSpotOrder(alice, { orderId: a.orderId })).toMatchObject({ status: 'CANCELED', orderId: a.orderId });
    expect(bal(venue, alice, 'BTC')).toBe('100000000/0');
    expect(codeOf(() => venue.cancelSpotOrder(alice, { orderId: a.orderId })).code).toBe(-1142);
    const b = venue.newSpotOrder(alice, sell('1', '0.03'));
    venue.newSpotOrder(bob, buy('1', '0.03'));
    expect(codeOf(() => venue.cancelSpotOrder(alice, { orderId: b.orderId })).code).toBe(-1139);
    expect(codeOf(() => venue.cancelSpotOrder(bob, { orderId: b.orderId })).code).toBe(-2013);
    expect(codeOf(() => venue.getSpotOrder(alice, {})).code).toBe(-1105);
  });

  it('refuses bad orders with the venue\'s codes and leaves the state byte-identical', () => {
    const { venue, alice } = makeVenue();
    venue.newSpotOrder(alice, sell('1', '0.035', { newClientOrderId: 'c1' }));
    const before = venue.snapshot();
    const cases: [object, number][] = [
      [{ ...buy('1', '0.03'), symbol: 'NOPE' }, -1130],
      [{ ...buy('1', '0.03'), side: 'HOLD' }, -1117],
      [{ ...buy('1', '0.03'), type: 'STOP' }, -1116],
      [{ ...buy('1', '0.03'), timeInForce: 'GTX' }, -1115],
      [buy('0', '0.03'), -1105],
      [buy('1', '0'), -1105],
      [buy('1', '100001'), -1132],
      [buy('1', '0.0000001'), -1133],
      [buy('1', '0.0300001'), -1134],
      [buy('100001', '0.03'), -1135],
      [buy('0.0001', '0.03'), -1136],
      [buy('1.0001', '0.03'), -1137],
      [buy('0.001', '0.5'), -1140],
      [buy('10000', '0.03'), -1131],
      [buy('1', '0.03', { newClientOrderId: 'c1' }), -1141],
      [{ symbol: 'ETHBTC', side: 'BUY', type: 'MARKET', quantity: '0.0000001' }, -1148],
    ];
    for (const [p, code] of cases) {
      expect(codeOf(() => venue.newSpotOrder(alice, p as never)).code, JSON.stringify(p)).toBe(code);
      expect(codeOf(() => venue.testSpotOrder(alice, p as never)).code).toBe(code);
      expect(venue.snapshot()).toBe(before);
    }
    expect(codeOf(() => venue.newSpotOrder(alice, buy('10000', '0.03'))).msg).toBe('Balance insufficient ');
    expect(venue.testSpotOrder(alice, buy('1', '0.03'))).toEqual({});
    expect(venue.snapshot()).toBe(before);
  });

  it('my trades follow the fromId/toId table; open and history orders list newest first', () => {
    const { venue, alice, bob } = makeVenue();
    venue.newSpotOrder(alice, sell('10', '0.03'));
    for (let i = 0; i < 4; i++) venue.newSpotOrder(bob, buy('1', '0.03'));
    const all = venue.spotMyTrades(bob).map((t) => t.id);
    expect(all).toHaveLength(4);
    expect([...all].sort()).toEqual([...all].reverse());
    const [t4, t3, t2, t1] = all as [string, string, string, string];
    expect(venue.spotMyTrades(bob, { fromId: t3 }).map((t) => t.id)).toEqual([t2, t1]);
    expect(venue.spotMyTrades(bob, { toId: t2 }).map((t) => t.id)).toEqual([t3, t4]);
    expect(venue.spotMyTrades(bob, { fromId: t4, toId: t1 }).map((t) => t.id)).toEqual([t3, t2]);
    expect(venue.spotMyTrades(bob, { limit: 2 }).map((t) => t.id)).toEqual([t4, t3]);
    const o2 = venue.newSpotOrder(alice, sell('1', '0.05'));
    const o3 = venue.newSpotOrder(alice, sell('1', '0.06'));
    expect(venue.openSpotOrders(alice).map((o) => o.orderId).slice(0, 2)).toEqual([o3.orderId, o2.orderId]);
    expect(venue.openSpotOrders(alice, { orderId: o3.orderId }).map((o) => o.orderId)[0]).toBe(o2.orderId);
    expect(venue.spotHistory(bob).map((o) => o.status)).toEqual(['FILLED', 'FILLED', 'FILLED', 'FILLED']);
  });

  it('market data follows the trades: depth, trades, klines of every interval, tickers', () => {
    const { venue, clock, alice, bob } = makeVenue();
    venue.newSpotOrder(alice, sell('3', '0.03'));
    venue.newSpotOrder(bob, buy('1', '0.03'));
    clock.advanceToSync(clock.now() + 60_000);
    venue.newSpotOrder(bob, buy('2', '0.03'));
    venue.newSpotOrder(alice, buy('1', '0.029'));
    expect(venue.trades('ETHBTC').map((t) => [t.price, t.qty, t.isBuyerMaker])).toEqual([['0.03', '1', false], ['0.03', '2', false]]);
    expect(venue.klines('ETHBTC', '1m')).toHaveLength(2);
    for (const iv of ['3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M']) {
      const k = venue.klines('ETHBTC', iv);
      expect(k.length, iv).toBeGreaterThanOrEqual(1);
      expect(k.reduce((s, x) => s + Number(x[8]), 0), iv).toBe(2);
    }
    expect(codeOf(() => venue.klines('ETHBTC', '2m')).code).toBe(-1120);
    expect(venue.ticker24h('ETHBTC')).toMatchObject({ lastPrice: '0.03', volume: '3', quoteVolume: '0.09', bestBidPrice: '0.029', bestAskPrice: '0' });
    expect(venue.bookTicker('ETHBTC')).toEqual({ symbol: 'ETHBTC', bidPrice: '0.029', bidQty: '1', askPrice: '0', askQty: '0' });
    expect(venue.priceTicker()).toEqual([{ symbol: 'ETHBTC', price: '0.03' }]);
  });
});
