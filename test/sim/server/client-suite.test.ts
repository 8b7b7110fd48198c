// The REST client's whole endpoint suite against the simulated venue over loopback: every catalogue method, answers parsed into the model, plus a fill seen on the user stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Decimal } from '../../../src/core/fixed.ts';
import { ENDPOINTS, type EndpointName } from '../../../src/venue/catalogue.ts';
import { VenueRestClient } from '../../../src/venue/rest-client.ts';
import type { Placement } from '../../../src/venue/signing.ts';
import { KEY, openWs, SECRET, startTest, T0, type TestVenue } from './helpers.ts';

const TAKER = { apiKey: 'C'.repeat(64), secret: 'taker-secret-00000002' };
const ADDRESS = '0x815bF1c3cc0f49b8FC66B21A7e48fCb476051209';
const ACCOUNTS = {
  accounts: [
    {
      name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], withdrawAddresses: [ADDRESS],
      balances: { spot: { USDT: '100000', BTC: '10', ETH: '100' }, contract: { BTC: '10', USDT: '100000' } },
      subAccounts: [{ name: 'demo-sub', index: 1, balances: { spot: { USDT: '1000' } } }],
    },
    { name: 'taker', keys: [TAKER], balances: { spot: { BTC: '5', ETH: '5' }, contract: { BTC: '10' } } },
  ],
};

/** What earlier steps left for later ones (ids of orders placed over the wire). */
interface State {
  sellId?: string;
  longId?: string;
  restingId?: string;
  withdrawId?: string;
  listenKey?: string;
}

interface Step {
  /** The catalogue method the step exercises. */
  readonly name: EndpointName;
  readonly run: (c: VenueRestClient, s: State, v: TestVenue, taker: VenueRestClient) => Promise<void>;
}

/**
 * One step per catalogue method, in an order that builds the state each needs: a resting sell, a
 * partial fill by another account, a contract position, transfers and a withdrawal. Each step calls
 * the method as a user would and checks what the venue must have done.
 */
const STEPS: readonly Step[] = [
  { name: 'ping', run: async (c) => expect(await c.ping()).toEqual({}) },
  { name: 'time', run: async (c, _s, v) => expect((await c.time()).serverTime).toBe(v.clock.now()) },
  { name: 'pairs', run: async (c) => expect((await c.pairs()).map((p) => p.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'ETHBTC']) },
  {
    name: 'brokerInfo',
    run: async (c) => {
      const r = await c.brokerInfo({ type: 'contracts' });
      expect(r.contracts?.map((k) => [k.symbol, k.inverse])).toEqual([['BTC-PERP-REV', true], ['BTC-SWAP-USDT', false]]);
      expect(r.symbols ?? []).toEqual([]);
      expect(r.rateLimits.map((l) => l.limit)).toEqual([1500, 20, 350000]);
    },
  },
  {
    name: 'newSpotOrder',
    run: async (c, s) => {
      const r = await c.newSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '2', price: '0.05', newClientOrderId: 'suite-sell' });
      expect(r).toMatchObject({ symbol: 'ETHBTC', clientOrderId: 'suite-sell', status: 'NEW', side: 'SELL', type: 'LIMIT', executedQty: '0' });
      expect(r.orderId).toMatch(/^\d+$/);
      s.sellId = r.orderId;
    },
  },
  {
    name: 'testSpotOrder',
    run: async (c) => {
      expect(await c.testSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.06' })).toEqual({});
      await expect(c.testSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '100000', price: '0.06' })).rejects.toMatchObject({ venueCode: -1131 });
      expect(await c.openSpotOrders({ symbol: 'ETHBTC' })).toHaveLength(1);
    },
  },
  {
    name: 'getSpotOrder',
    run: async (c, s) => {
      const r = await c.getSpotOrder({ orderId: s.sellId! });
      expect(r).toMatchObject({ orderId: s.sellId, clientOrderId: 'suite-sell', status: 'NEW', origQty: '2', executedQty: '0', price: '0.05' });
      expect((await c.getSpotOrder({ origClientOrderId: 'suite-sell' })).orderId).toBe(s.sellId);
    },
  },
  {
    name: 'openSpotOrders',
    run: async (c, s, _v, taker) => {
      expect((await c.openSpotOrders({ symbol: 'ETHBTC' })).map((o) => o.orderId)).toEqual([s.sellId]);
      const fill = await taker.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '0.05' });
      expect(fill).toMatchObject({ status: 'FILLED', executedQty: '0.5' });
      expect((await c.openSpotOrders())[0]).toMatchObject({ orderId: s.sellId, status: 'PARTIALLY_FILLED', executedQty: '0.5' });
    },
  },
  {
    name: 'spotMyTrades',
    run: async (c, s) => {
      const [t, ...rest] = await c.spotMyTrades({ symbol: 'ETHBTC' });
      expect(rest).toEqual([]);
      expect(t).toMatchObject({ orderId: s.sellId, price: '0.05', qty: '0.5', isBuyer: false, isMaker: true, commissionAsset: 'BTC' });
    },
  },
  {
    name: 'depth',
    run: async (c) => {
      const r = await c.depth({ symbol: 'ETHBTC', limit: 5 });
      expect(r.asks).toEqual([['0.05', '1.5']]);
      expect(r.bids).toEqual([]);
    },
  },
  { name: 'depthMerged', run: async (c) => expect((await c.depthMerged({ symbol: 'ETHBTC' })).asks).toEqual([['0.05', '1.5']]) },
  {
    name: 'trades',
    run: async (c) => {
      const [t, ...rest] = await c.trades({ symbol: 'ETHBTC' });
      expect(rest).toEqual([]);
      expect(t).toMatchObject({ price: '0.05', qty: '0.5', isBuyerMaker: false });
    },
  },
  {
    name: 'klines',
    run: async (c) => {
      const [k] = await c.klines({ symbol: 'ETHBTC', interval: '1m' });
      expect(k).toMatchObject({ openTime: T0, open: '0.05', close: '0.05', volume: '0.5' });
    },
  },
  {
    name: 'ticker24hr',
    run: async (c) => {
      expect(await c.ticker24hr({ symbol: 'ETHBTC' })).toMatchObject({ symbol: 'ETHBTC', lastPrice: '0.05', bestAskPrice: '0.05', volume: '0.5' });
      expect((await c.ticker24hr()).map((t) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'ETHBTC']);
    },
  },
  {
    name: 'tickerPrice',
    run: async (c) => {
      expect(await c.tickerPrice({ symbol: 'ETHBTC' })).toEqual({ price: '0.05' });
      expect((await c.tickerPrice()).find((t) => t.symbol === 'ETHBTC')?.price).toBe('0.05');
    },
  },
  { name: 'bookTicker', run: async (c) => expect(await c.bookTicker({ symbol: 'ETHBTC' })).toMatchObject({ symbol: 'ETHBTC', askPrice: '0.05', askQty: '1.5' }) },
  {
    name: 'cancelSpotOrder',
    run: async (c, s) => {
      expect(await c.cancelSpotOrder({ orderId: s.sellId! })).toMatchObject({ orderId: s.sellId, status: 'CANCELED', symbol: 'ETHBTC' });
      await expect(c.cancelSpotOrder({ orderId: s.sellId! })).rejects.toMatchObject({ venueCode: -1142 });
      expect(await c.openSpotOrders()).toEqual([]);
    },
  },
  {
    name: 'spotHistoryOrders',
    run: async (c, s) => {
      const [o] = await c.spotHistoryOrders({ symbol: 'ETHBTC' });
      expect(o).toMatchObject({ orderId: s.sellId, status: 'CANCELED', executedQty: '0.5' });
    },
  },
  {
    name: 'newContractOrder',
    run: async (c, s, _v, taker) => {
      const open = { symbol: 'BTC-PERP-REV', orderType: 'LIMIT', quantity: '100', price: '30000', leverage: '10' } as const;
      const mine = await c.newContractOrder({ ...open, side: 'BUY_OPEN', clientOrderId: 'suite-long' });
      expect(mine).toMatchObject({ clientOrderId: 'suite-long', status: 'NEW', side: 'BUY_OPEN', origQty: '100', leverage: '10' });
      s.longId = mine.orderId;
      expect(await taker.newContractOrder({ ...open, side: 'SELL_OPEN', clientOrderId: 'suite-short' })).toMatchObject({ status: 'FILLED' });
    },
  },
  { name: 'getContractOrder', run: async (c, s) => expect(await c.getContractOrder({ orderId: s.longId! })).toMatchObject({ orderId: s.longId, status: 'FILLED', executedQty: '100', avgPrice: '30000' }) },
  {
    name: 'contractMyTrades',
    run: async (c, s) => {
      const [t] = await c.contractMyTrades({ symbol: 'BTC-PERP-REV' });
      expect(t).toMatchObject({ orderId: s.longId, price: '30000', quantity: '100', side: 'BUY_OPEN', feeTokenId: 'BTC' });
      expect(Number(t!.fee)).toBeGreaterThan(0);
    },
  },
  {
    name: 'contractPositions',
    run: async (c) => {
      const [p, ...rest] = await c.contractPositions({ symbol: 'BTC-PERP-REV' });
      expect(rest).toEqual([]);
      expect(p).toMatchObject({ symbol: 'BTC-PERP-REV', side: 'LONG', position: '100', avgPrice: '30000' });
      expect(await c.contractPositions({ side: 'SHORT' })).toEqual([]);
    },
  },
  {
    name: 'modifyMargin',
    run: async (c) => {
      const before = (await c.contractPositions({ symbol: 'BTC-PERP-REV' }))[0]!.margin;
      const r = await c.modifyMargin({ symbol: 'BTC-PERP-REV', side: 'LONG', amount: '0.01' });
      expect(r.symbol).toBe('BTC-PERP-REV');
      expect(r.margin).not.toBe(before);
      expect((await c.contractPositions({ symbol: 'BTC-PERP-REV' }))[0]!.margin).toBe(r.margin);
    },
  },
  {
    name: 'openContractOrders',
    run: async (c, s) => {
      const r = await c.newContractOrder({ symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '10', price: '20000', leverage: '5', clientOrderId: 'suite-rest' });
      s.restingId = r.orderId;
      expect((await c.openContractOrders({ symbol: 'BTC-PERP-REV' })).map((o) => [o.orderId, o.status])).toEqual([[r.orderId, 'NEW']]);
    },
  },
  {
    name: 'cancelContractOrder',
    run: async (c, s) => {
      expect(await c.cancelContractOrder({ clientOrderId: 'suite-rest' })).toMatchObject({ orderId: s.restingId, status: 'CANCELED' });
      expect(await c.openContractOrders()).toEqual([]);
    },
  },
  {
    name: 'batchCancelContractOrders',
    run: async (c, _s, v) => {
      for (const id of ['b1', 'b2']) await c.newContractOrder({ symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '1', price: '20000', leverage: '5', clientOrderId: id });
      expect(await c.openContractOrders()).toHaveLength(2);
      expect(await c.batchCancelContractOrders({ symbol: 'BTC-PERP-REV' })).toEqual({ message: 'success', timestamp: v.clock.now() });
      expect(await c.openContractOrders()).toEqual([]);
    },
  },
  {
    name: 'contractHistoryOrders',
    run: async (c, s) => {
      const list = await c.contractHistoryOrders({ orderType: 'LIMIT', symbol: 'BTC-PERP-REV' });
      expect(list.map((o) => o.clientOrderId)).toEqual(['b2', 'b1', 'suite-rest', 'suite-long']);
      expect(list.find((o) => o.orderId === s.longId)?.status).toBe('FILLED');
    },
  },
  {
    name: 'contractAccount',
    run: async (c) => {
      const r = await c.contractAccount();
      expect(Object.keys(r).sort()).toEqual(['BTC', 'USDT']);
      expect(r['USDT']).toMatchObject({ total: '100000', availableMargin: '100000', positionMargin: '0', orderMargin: '0' });
      const btc = r['BTC']!;
      const margin = (await c.contractPositions({ symbol: 'BTC-PERP-REV' }))[0]!.margin;
      expect(btc).toMatchObject({ positionMargin: margin, orderMargin: '0' });
      expect(Number(btc.total)).toBeLessThan(10);
      // Each figure is cut to the margin precision (8 decimals) on its own.
      expect(new Decimal(btc.availableMargin).plus(btc.positionMargin).minus(btc.total).abs().lte('0.00000002')).toBe(true);
    },
  },
  { name: 'contractDepth', run: async (c) => expect(await c.contractDepth({ symbol: 'BTC-PERP-REV' })).toMatchObject({ bids: [], asks: [] }) },
  { name: 'contractDepthMerged', run: async (c) => expect(await c.contractDepthMerged({ symbol: 'BTC-PERP-REV' })).toMatchObject({ bids: [], asks: [] }) },
  { name: 'contractTrades', run: async (c) => expect(await c.contractTrades({ symbol: 'BTC-PERP-REV' })).toMatchObject([{ price: '30000', qty: '100' }]) },
  {
    name: 'contractTicker24hr',
    run: async (c) => {
      expect(await c.contractTicker24hr({ symbol: 'BTC-PERP-REV' })).toMatchObject({ symbol: 'BTC-PERP-REV', lastPrice: '30000', volume: '100', openInterest: '100' });
      expect((await c.contractTicker24hr()).map((t) => t.symbol)).toEqual(['BTC-PERP-REV', 'BTC-SWAP-USDT']);
    },
  },
  {
    name: 'contracts',
    run: async (c) => {
      const list = await c.contracts();
      expect(list.map((k) => [k.symbol, k.index])).toEqual([['BTC-PERP-REV', 'BTCUSDT'], ['BTC-SWAP-USDT', 'BTCUSDT']]);
      // Nothing settled yet: the last rate is 0, the next one is the configured fixed rate.
      expect(list[0]).toMatchObject({ lastPrice: '30000', fundingRate: '0', nextFundingRate: '0.0001', openInterest: '100', indexPrice: '30000' });
      expect(list[1]).toMatchObject({ openInterest: '0' });
    },
  },
  {
    name: 'insurance',
    run: async (c) => {
      expect(Object.keys(await c.insurance({ symbol: 'BTC-PERP-REV' }))).toEqual(['BTC']);
      expect(Object.keys(await c.insurance()).sort()).toEqual(['BTC', 'USDT']);
    },
  },
  {
    name: 'fundingRate',
    run: async (c) => {
      const [f, ...rest] = await c.fundingRate({ symbol: 'BTC-PERP-REV' });
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ symbol: 'BTC-PERP-REV', rate: '0.0001' });
      expect(f!.intervalEnd - f!.intervalStart).toBe(8 * 3_600_000);
    },
  },
  { name: 'contractIndex', run: async (c) => expect((await c.contractIndex({ symbols: 'BTCUSDT' })).index).toEqual({ BTCUSDT: '30000' }) },
  {
    name: 'spotAccount',
    run: async (c) => {
      const b = Object.fromEntries((await c.spotAccount()).balances.map((x) => [x.asset, [x.free, x.locked]]));
      expect(b['ETH']).toEqual(['99.5', '0']);
      expect(b['BTC']).toEqual(['10.024975', '0']);
    },
  },
  {
    name: 'depositOrders',
    run: async (c) => {
      const list = await c.depositOrders();
      expect(list.map((d) => [d.token, d.quantity]).sort()).toEqual([['BTC', '10'], ['BTC', '10'], ['ETH', '100'], ['USDT', '100000'], ['USDT', '100000'], ['USDT', '1000']].sort());
    },
  },
  {
    name: 'transferInternal',
    run: async (c) => {
      expect(await c.transferInternal({ fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1, tokenId: 'USDT', amount: '25' })).toEqual({ kind: 'success', success: true });
      await expect(c.transferInternal({ fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1, tokenId: 'USDT', amount: '1000000' })).rejects.toThrow();
    },
  },
  {
    name: 'transferPending',
    run: async (c, _s, v) => {
      expect(await c.transferPending({ from: 'wallet', to: 'contract', currency: 'USDT', amount: '100' })).toEqual({ kind: 'message', message: 'success', timestamp: v.clock.now() });
      expect((await c.contractAccount())['USDT']!.total).toBe('100100');
    },
  },
  {
    name: 'subAccounts',
    run: async (c) => {
      const list = await c.subAccounts();
      // Each sub-account answers with the name the config gives it.
      expect(list.map((a) => [a.accountType, a.accountIndex, a.accountName]).sort()).toEqual([[1, 0, ''], [1, 1, 'demo-sub'], [3, 0, ''], [3, 1, 'demo-sub']]);
    },
  },
  {
    name: 'withdraw',
    run: async (c, s) => {
      const r = await c.withdraw({ tokenId: 'USDT', clientOrderId: 'suite-w1', address: ADDRESS, withdrawQuantity: '10.5' });
      expect(r.success).toBe(true);
      s.withdrawId = r.orderId;
      const usdt = (await c.spotAccount()).balances.find((b) => b.asset === 'USDT');
      expect(usdt).toMatchObject({ free: '99864.5', locked: '10.5' });
    },
  },
  { name: 'withdrawalOrders', run: async (c, s) => expect((await c.withdrawalOrders({ token: 'USDT' })).map((w) => [w.orderId, w.quantity])).toEqual([[s.withdrawId, '10.5']]) },
  {
    name: 'withdrawDetail',
    run: async (c, s) => {
      expect(await c.withdrawDetail({ clientOrderId: 'suite-w1' })).toMatchObject({ orderId: s.withdrawId, address: ADDRESS, tokenId: 'USDT' });
      await expect(c.withdrawDetail({ orderId: '1' })).rejects.toMatchObject({ venueCode: -2013 });
    },
  },
  {
    name: 'balanceFlow',
    run: async (c) => {
      const flows = await c.balanceFlow({ tokenId: 'USDT' });
      expect(flows.map((f) => f.change).slice(0, 2)).toEqual(['-100', '-25']);
    },
  },
  {
    name: 'createListenKey',
    run: async (c, s) => {
      s.listenKey = (await c.createListenKey()).listenKey;
      expect(s.listenKey).toMatch(/^[A-Za-z]{64}$/);
    },
  },
  { name: 'keepaliveListenKey', run: async (c, s) => expect(await c.keepaliveListenKey({ listenKey: s.listenKey! })).toEqual({}) },
  {
    name: 'closeListenKey',
    run: async (c, s, v) => {
      const ws = await openWs(`${v.ws}/openapi/ws/${s.listenKey!}`);
      expect(await c.closeListenKey({ listenKey: s.listenKey! })).toEqual({});
      expect(await ws.closed).toBe(1000);
    },
  },
];

function clientFor(v: TestVenue, key: { apiKey: string; secret: string }, placement: Placement): VenueRestClient {
  return new VenueRestClient({ baseUrl: v.url, apiKey: key.apiKey, secret: key.secret, clock: v.clock, recvWindow: 5000, placement });
}

describe.each<Placement>(['body', 'query', 'split'])('the REST client against the simulated venue (parameters in the %s)', (placement) => {
  let v: TestVenue;
  let client: VenueRestClient;
  let taker: VenueRestClient;
  const state: State = {};

  beforeAll(async () => {
    v = await startTest(ACCOUNTS, new VirtualClock(T0));
    client = clientFor(v, { apiKey: KEY, secret: SECRET }, placement);
    taker = clientFor(v, TAKER, placement);
  });
  afterAll(async () => {
    await client.close();
    await taker.close();
    await v.close();
  });

  it('has a step for every catalogue method', () => {
    expect(STEPS.map((s) => s.name).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  for (const step of STEPS) it(step.name, () => step.run(client, state, v, taker));
});

describe('a fill seen on the user stream, with the REST part done by our client', () => {
  it('reports NEW, the fill with its fields and the balances, for orders our client placed', async () => {
    const v = await startTest(ACCOUNTS, new VirtualClock(T0));
    const client = clientFor(v, { apiKey: KEY, secret: SECRET }, 'body');
    const taker = clientFor(v, TAKER, 'body');
    try {
      const { listenKey } = await client.createListenKey();
      const s = await openWs(`${v.ws}/openapi/ws/${listenKey}`);
      const sell = await client.newSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.05', newClientOrderId: 'us-sell' });
      expect(await s.next((f) => f.e === 'executionReport' && f.X === 'NEW')).toMatchObject({ s: 'ETHBTC', c: 'us-sell', i: sell.orderId, S: 'SELL', q: '2', p: '0.05', z: '0' });
      await taker.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '2', price: '0.05' });
      const fill = await s.next((f) => f.e === 'executionReport' && f.X === 'FILLED');
      expect(fill).toMatchObject({ i: sell.orderId, c: 'us-sell', l: '2', z: '2', L: '0.05', Z: '0.1', n: '0.0001', N: 'BTC', m: true, w: false });
      expect((await client.spotMyTrades({ symbol: 'ETHBTC' }))[0]).toMatchObject({ orderId: sell.orderId, qty: fill.l, price: fill.L, commission: fill.n });
      const acct = await s.next((f) => f.e === 'outboundAccountInfo');
      const b = Object.fromEntries((acct.B as { a: string; f: string; l: string }[]).map((x) => [x.a, x.f]));
      const rest = Object.fromEntries((await client.spotAccount()).balances.map((x) => [x.asset, x.free]));
      expect(b['ETH']).toBe(rest['ETH']);
      expect(b['BTC']).toBe(rest['BTC']);
      s.ws.close();
    } finally {
      await client.close();
      await taker.close();
      await v.close();
    }
  });
});
