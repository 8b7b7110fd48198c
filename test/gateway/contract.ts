/** The Gateway contract: one script of orders, cancels, queries and refusals, run against a gateway, with what every gateway must answer; rest.test.ts and sim.test.ts run it on RestGateway and SimGateway, parity.test.ts checks both give the same transcript. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BhError } from '../../src/core/errors.ts';
import { Decimal, formatDown } from '../../src/core/fixed.ts';
import { Portfolio } from '../../src/execution/portfolio/portfolio.ts';
import { instrumentsOf, type Balances, type ContractOrderRequest, type FillReport, type Gateway, type OrderReport, type SpotOrderRequest } from '../../src/model/index.ts';
import type { SimVenue } from '../../src/sim/engine/venue.ts';
import type { Harness, HarnessFactory } from './harness.ts';

/** One step's answer, or the error it threw (class, code, venue code, retry class). */
export type Answer = { readonly ok: unknown } | { readonly error: { readonly name: string; readonly code: string; readonly venueCode: number | undefined; readonly retry: string } };

/** The script's answers by step name, in order. */
export type Transcript = [string, Answer][];

async function step(t: Transcript, name: string, fn: () => Promise<unknown>): Promise<Answer> {
  let a: Answer;
  try {
    a = { ok: await fn() };
  } catch (e) {
    if (!(e instanceof BhError)) throw e;
    a = { error: { name: e.name, code: e.code, venueCode: (e as { venueCode?: number }).venueCode, retry: e.retry } };
  }
  t.push([name, a]);
  return a;
}

const spot = (o: Omit<SpotOrderRequest, 'account' | 'symbol'> & { symbol?: string }): SpotOrderRequest => ({ account: 'spot', symbol: 'BTCUSDT', ...o });
const contract = (o: Omit<ContractOrderRequest, 'account' | 'priceType'> & { priceType?: ContractOrderRequest['priceType'] }): ContractOrderRequest => ({ account: 'contract', priceType: 'INPUT', ...o });

/** The counterparty's resting quotes, placed on the venue directly (the same on both venues). */
function quoteCounterparty(venue: SimVenue): void {
  const user = venue.user('counter');
  const s = venue.accountOf(user, 1);
  const k = venue.accountOf(user, 3);
  let n = 0;
  for (const [side, qty, price] of [['SELL', '0.5', '30010'], ['SELL', '0.5', '30020'], ['BUY', '0.5', '29990']] as const) {
    venue.newSpotOrder(s, { symbol: 'BTCUSDT', side, type: 'LIMIT', timeInForce: 'GTC', quantity: qty, price, newClientOrderId: `cp${++n}` });
  }
  for (const symbol of ['BTC-PERP-REV', 'BTC-SWAP-USDT']) {
    for (const [side, qty, price] of [['SELL_OPEN', '5', '30010'], ['SELL_OPEN', '50', '30020'], ['BUY_OPEN', '50', '29990']] as const) {
      venue.newContractOrder(k, { symbol, side, orderType: 'LIMIT', priceType: 'INPUT', quantity: qty, price, leverage: '10', timeInForce: 'GTC', clientOrderId: `cp${++n}` });
    }
  }
}

/** Runs the script on `h` and returns its transcript. */
export async function runScript(h: Harness): Promise<Transcript> {
  const g: Gateway = h.gateway;
  const t: Transcript = [];
  quoteCounterparty(h.venue);
  await step(t, 'exchangeInfo', async () => {
    const i = await g.exchangeInfo();
    return { timezone: i.timezone, serverTime: i.serverTime, rateLimits: i.rateLimits, symbols: i.symbols, contracts: i.contracts };
  });
  await step(t, 'balances at start', () => g.balances());
  // Spot: a resting limit, a maker that would take, a market buy by quote amount, an IOC that fills part.
  await step(t, 'LIMIT GTC rests', () => g.place(spot({ clientOrderId: 's1', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '29000' })));
  await step(t, 'LIMIT_MAKER that would take', () => g.place(spot({ clientOrderId: 's2', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.01', price: '30010' })));
  await step(t, 'LIMIT_MAKER rests', () => g.place(spot({ clientOrderId: 's2b', side: 'SELL', type: 'LIMIT_MAKER', quantity: '0.01', price: '30500' })));
  await step(t, 'MARKET BUY by quote amount', () => g.place(spot({ clientOrderId: 's3', side: 'BUY', type: 'MARKET', quantity: '3001' })));
  await step(t, 'MARKET BUY queried', () => g.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 's3' }));
  await step(t, 'IOC SELL fills part', () => g.place(spot({ clientOrderId: 's4', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.6', price: '29980' })));
  await step(t, 'IOC queried', () => g.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 's4' }));
  await step(t, 'query by clientOrderId', () => g.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 's1' }));
  await step(t, 'spot open orders', () => g.openOrders('spot'));
  await step(t, 'spot open orders of BTCUSDT', () => g.openOrders('spot', 'BTCUSDT'));
  await step(t, 'cancel', () => g.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 's1' }));
  await step(t, 'cancel again', () => g.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 's1' }));
  await step(t, 'cancel a filled order', () => g.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 's3' }));
  await step(t, 'cancel unknown', () => g.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'nope' }));
  await step(t, 'query unknown', () => g.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'nope' }));
  await step(t, 'query unknown orderId', () => g.getOrder({ account: 'spot', symbol: 'BTCUSDT', orderId: '1' }));
  await step(t, 'balances before refusals', () => g.balances());
  await step(t, 'price off the tick', () => g.place(spot({ clientOrderId: 'r1', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '29000.001' })));
  await step(t, 'quantity below LOT_SIZE', () => g.place(spot({ clientOrderId: 'r2', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.0001', price: '29000' })));
  await step(t, 'balance insufficient', () => g.place(spot({ clientOrderId: 'r3', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '100', price: '29000' })));
  await step(t, 'duplicate clientOrderId', () => g.place(spot({ clientOrderId: 's1', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '29000' })));
  await step(t, 'unknown symbol', () => g.place(spot({ symbol: 'NOPEUSDT', clientOrderId: 'r4', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '29000' })));
  await step(t, 'balances after refusals', () => g.balances());
  const spotFills = await step(t, 'spot trades', () => g.tradesSince('spot'));
  const first = 'ok' in spotFills ? (spotFills.ok as { tradeId: string }[])[0]?.tradeId : undefined;
  await step(t, 'spot trades after the first', () => g.tradesSince('spot', first));
  // Contracts: a limit sweeping two levels, a resting open, a market order, a STOP, cancels and refusals.
  await step(t, 'inverse BUY_OPEN sweeps two levels', () => g.place(contract({ symbol: 'BTC-PERP-REV', clientOrderId: 'c1', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '10', price: '30020', leverage: '10', timeInForce: 'GTC' })));
  await step(t, 'inverse SELL_OPEN rests', () => g.place(contract({ symbol: 'BTC-PERP-REV', clientOrderId: 'c2', side: 'SELL_OPEN', orderType: 'LIMIT', quantity: '5', price: '31000', leverage: '10', timeInForce: 'GTC' })));
  await step(t, 'linear BUY_OPEN sweeps two levels', () => g.place(contract({ symbol: 'BTC-SWAP-USDT', clientOrderId: 'c3', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '20', price: '30020', leverage: '10', timeInForce: 'GTC' })));
  await step(t, 'linear SELL_OPEN at market', () => g.place(contract({ symbol: 'BTC-SWAP-USDT', clientOrderId: 'c4', side: 'SELL_OPEN', orderType: 'LIMIT', priceType: 'MARKET', quantity: '3', leverage: '10' })));
  await step(t, 'STOP waits', () => g.place(contract({ symbol: 'BTC-PERP-REV', clientOrderId: 'c5', side: 'BUY_OPEN', orderType: 'STOP', quantity: '1', price: '32100', triggerPrice: '32000', leverage: '10' })));
  await step(t, 'contract query by clientOrderId', () => g.getOrder({ account: 'contract', symbol: 'BTC-PERP-REV', clientOrderId: 'c2' }));
  await step(t, 'contract open orders', () => g.openOrders('contract'));
  await step(t, 'contract cancel', () => g.cancel({ account: 'contract', symbol: 'BTC-PERP-REV', clientOrderId: 'c2' }));
  await step(t, 'contract cancel again', () => g.cancel({ account: 'contract', symbol: 'BTC-PERP-REV', clientOrderId: 'c2' }));
  await step(t, 'STOP cancel', () => g.cancel({ account: 'contract', symbol: 'BTC-PERP-REV', clientOrderId: 'c5' }));
  await step(t, 'contract cancel unknown', () => g.cancel({ account: 'contract', symbol: 'BTC-PERP-REV', clientOrderId: 'nope' }));
  await step(t, 'close above available', () => g.place(contract({ symbol: 'BTC-PERP-REV', clientOrderId: 'r5', side: 'SELL_CLOSE', orderType: 'LIMIT', quantity: '11', price: '30000' })));
  await step(t, 'contract price off the tick', () => g.place(contract({ symbol: 'BTC-SWAP-USDT', clientOrderId: 'r6', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '1', price: '30000.05', leverage: '10' })));
  await step(t, 'contract trades', () => g.tradesSince('contract'));
  // The index moves: marks go index + basis (the books' premium), and positions are valued there.
  for (const price of ['30004', '30006', '30008']) h.venue.setIndexPrice('BTCUSDT', price);
  await step(t, 'positions', () => g.positions());
  await step(t, 'balances at the end', () => g.balances());
  return t;
}

function answerOf(t: Transcript, name: string): Answer {
  const a = t.find(([n]) => n === name);
  if (!a) throw new Error(`no step ${name}`);
  return a[1];
}

function ok<T>(t: Transcript, name: string): T {
  const a = answerOf(t, name);
  if (!('ok' in a)) throw new Error(`${name} failed: ${JSON.stringify(a.error)}`);
  return a.ok as T;
}

function refused(t: Transcript, name: string): number | undefined {
  const a = answerOf(t, name);
  if (!('error' in a)) throw new Error(`${name} answered ${JSON.stringify(a.ok)}`);
  expect(a.error.retry, `${name} is a definite refusal`).toBe('definite');
  return a.error.venueCode;
}

/** The suite every gateway passes. */
export function gatewayContract(name: string, factory: HarnessFactory): void {
  describe(`Gateway contract: ${name}`, () => {
    let h: Harness;
    let t: Transcript;
    beforeAll(async () => {
      h = await factory();
      t = await runScript(h);
    });
    afterAll(() => h?.close());

    it('places spot LIMIT, LIMIT_MAKER, MARKET and IOC orders with the venue\'s statuses and fills', () => {
      expect(ok<OrderReport>(t, 'LIMIT GTC rests')).toMatchObject({ status: 'NEW', side: 'BUY', type: 'LIMIT', clientOrderId: 's1', price: '29000', origQty: '0.01', executedQty: '0' });
      // The venue reports a LIMIT_MAKER as a LIMIT order (venue-api.md: spot report types are LIMIT and MARKET).
      expect(ok<OrderReport>(t, 'LIMIT_MAKER rests')).toMatchObject({ status: 'NEW', type: 'LIMIT', clientOrderId: 's2b' });
      expect(ok<OrderReport>(t, 'MARKET BUY queried')).toMatchObject({ status: 'FILLED', type: 'MARKET', executedQty: '0.1', avgPrice: '30010' });
      expect(ok<OrderReport>(t, 'IOC queried')).toMatchObject({ status: 'CANCELED', executedQty: '0.5', avgPrice: '29990' });
      const fills = ok<{ side: string; qty: string; price: string; maker: boolean }[]>(t, 'spot trades');
      expect(fills.map((f) => [f.side, f.qty, f.price, f.maker])).toEqual([['BUY', '0.1', '30010', false], ['SELL', '0.5', '29990', false]]);
      expect(ok<unknown[]>(t, 'spot trades after the first')).toHaveLength(1);
    });

    it('moves spot balances by exactly what the fills imply, locks what rests, and refusals leave them exactly as before', () => {
      const total = (b: Balances, asset: string): Decimal => {
        const x = b.spot.find((y) => y.asset === asset);
        return x ? new Decimal(x.free).plus(x.locked) : new Decimal(0);
      };
      const start = ok<Balances>(t, 'balances at start');
      const end = ok<Balances>(t, 'balances at the end');
      const implied = new Map<string, Decimal>();
      const add = (asset: string, d: Decimal): void => { implied.set(asset, (implied.get(asset) ?? new Decimal(0)).plus(d)); };
      for (const f of ok<FillReport[]>(t, 'spot trades')) {
        const sign = f.side === 'BUY' ? 1 : -1;
        add('BTC', new Decimal(f.qty).mul(sign));
        add('USDT', new Decimal(f.qty).mul(f.price).mul(-sign));
        add(f.feeAsset, new Decimal(f.fee).neg());
      }
      for (const asset of ['BTC', 'USDT']) expect(total(end, asset).minus(total(start, asset)).toFixed(), asset).toBe(implied.get(asset)!.toFixed());
      // The resting LIMIT_MAKER sell of 0.01 BTC is all that stays locked on spot.
      expect(end.spot.find((b) => b.asset === 'BTC')!.locked).toBe('0.01');
      expect(end.spot.find((b) => b.asset === 'USDT')!.locked).toBe('0');
      expect(ok(t, 'balances after refusals')).toEqual(ok(t, 'balances before refusals'));
    });

    it('queries by clientOrderId, lists open orders and cancels', () => {
      expect(ok<OrderReport>(t, 'query by clientOrderId')).toMatchObject({ clientOrderId: 's1', status: 'NEW' });
      expect(ok<OrderReport[]>(t, 'spot open orders').map((o) => o.clientOrderId).sort()).toEqual(['s1', 's2b']);
      expect(ok<OrderReport[]>(t, 'spot open orders of BTCUSDT')).toHaveLength(2);
      expect(ok<OrderReport>(t, 'cancel')).toMatchObject({ clientOrderId: 's1', status: 'CANCELED' });
    });

    it('refuses with the venue\'s codes, definitely', () => {
      expect(refused(t, 'LIMIT_MAKER that would take')).toBe(-1158);
      expect(refused(t, 'cancel again')).toBe(-1142);
      expect(refused(t, 'cancel a filled order')).toBe(-1139);
      expect(refused(t, 'cancel unknown')).toBe(-2013);
      expect(refused(t, 'query unknown')).toBe(-2013);
      expect(refused(t, 'query unknown orderId')).toBe(-2013);
      expect(refused(t, 'price off the tick')).toBe(-1134);
      expect(refused(t, 'quantity below LOT_SIZE')).toBe(-1136);
      expect(refused(t, 'balance insufficient')).toBe(-1131);
      expect(refused(t, 'duplicate clientOrderId')).toBe(-1141);
      expect(refused(t, 'unknown symbol')).toBeLessThan(0);
      expect(refused(t, 'contract cancel again')).toBe(-1142);
      expect(refused(t, 'contract cancel unknown')).toBe(-2013);
      expect(refused(t, 'close above available')).toBe(-1156);
      expect(refused(t, 'contract price off the tick')).toBe(-1134);
    });

    it('places, lists and cancels contract orders, STOP included', () => {
      expect(ok<OrderReport>(t, 'inverse BUY_OPEN sweeps two levels')).toMatchObject({ status: 'FILLED', side: 'BUY_OPEN', executedQty: '10' });
      expect(ok<OrderReport>(t, 'linear BUY_OPEN sweeps two levels')).toMatchObject({ status: 'FILLED', executedQty: '20' });
      expect(ok<OrderReport>(t, 'linear SELL_OPEN at market')).toMatchObject({ status: 'FILLED', executedQty: '3' });
      expect(ok<OrderReport>(t, 'STOP waits')).toMatchObject({ status: 'NEW', type: 'STOP' });
      expect(ok<OrderReport[]>(t, 'contract open orders').map((o) => [o.clientOrderId, o.type]).sort()).toEqual([['c2', 'LIMIT'], ['c5', 'STOP']]);
      expect(ok<OrderReport>(t, 'contract cancel')).toMatchObject({ clientOrderId: 'c2', status: 'CANCELED' });
      expect(ok<OrderReport>(t, 'STOP cancel')).toMatchObject({ clientOrderId: 'c5', status: 'CANCELED' });
      const fills = ok<{ symbol: string; qty: string; price: string }[]>(t, 'contract trades');
      expect(fills.map((f) => [f.symbol, f.qty, f.price])).toEqual([
        ['BTC-PERP-REV', '5', '30010'], ['BTC-PERP-REV', '5', '30020'],
        ['BTC-SWAP-USDT', '5', '30010'], ['BTC-SWAP-USDT', '15', '30020'], ['BTC-SWAP-USDT', '3', '29990'],
      ]);
    });

    it.each(['BTC-PERP-REV', 'BTC-SWAP-USDT'])('values %s positions as the venue\'s position endpoint does (the portfolio from the fills, at the venue\'s mark)', async (symbol) => {
      const instruments = instrumentsOf(await h.gateway.exchangeInfo());
      const portfolio = new Portfolio(instruments);
      portfolio.applyFills(ok(t, 'contract trades'));
      const mark = h.venue.markPrice(symbol);
      // The mark carries the basis (the books' premium): valued at the index, the figures differ from the venue's.
      expect(mark, `${symbol} mark differs from its index`).not.toBe(h.venue.indexPrices().index['BTCUSDT']);
      portfolio.setPrice(symbol, { mark });
      const positions = ok<{ symbol: string; side: string; position: string; positionValue: string; unrealizedPnL: string }[]>(t, 'positions').filter((p) => p.symbol === symbol);
      expect(positions.map((p) => `${p.side} ${p.position}`)).toEqual(symbol === 'BTC-PERP-REV' ? ['LONG 10'] : ['LONG 20', 'SHORT 3']);
      const inst = instruments.get(symbol)!;
      const d = inst.marginPrecision!;
      for (const p of positions) {
        const mine = portfolio.view().positions.find((x) => x.symbol === symbol && x.side === p.side)!;
        expect(mine.qty).toBe(p.position);
        expect(formatDown(new Decimal(mine.value!), d), `${symbol} ${p.side} position value`).toBe(p.positionValue);
        expect(formatDown(new Decimal(mine.unrealizedPnl!), d), `${symbol} ${p.side} unrealized PnL`).toBe(p.unrealizedPnL);
      }
    });
  });
}
