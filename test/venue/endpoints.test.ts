// Every endpoint method over real HTTP against the fixture server: key header, signature, timestamp, and the published answer parsed into the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { ENDPOINTS, type EndpointName } from '../../src/venue/catalogue.ts';
import { endpointKey, isSigned } from '../../src/venue/endpoint.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { FixtureServer, type Received } from './fixture-server.ts';

const T0 = 1_700_000_000_000;

/** One call per endpoint, with what the answer must hold (values from the sample the server sends). */
const CASES: { [K in EndpointName]: { call: (c: VenueRestClient) => Promise<unknown>; check: (r: never) => void; sent?: Record<string, string> } } = {
  ping: { call: (c) => c.ping(), check: (r: object) => expect(r).toEqual({}) },
  time: { call: (c) => c.time(), check: (r: { serverTime: number }) => expect(r.serverTime).toBe(T0) },
  pairs: { call: (c) => c.pairs(), check: (r: { symbol: string }[]) => expect(r.map((x) => x.symbol)).toEqual(['LTCBTC', 'BTCUSDT']) },
  brokerInfo: {
    call: (c) => c.brokerInfo({ type: 'contracts' }),
    sent: { type: 'contracts' },
    check: (r: { contracts: { symbol: string; inverse: boolean }[]; rateLimits: unknown[] }) => {
      expect(r.contracts[0]).toMatchObject({ symbol: 'BTC-PERP-REV', inverse: true });
      expect(r.rateLimits).toHaveLength(3);
    },
  },
  depth: { call: (c) => c.depth({ symbol: 'ETHBTC', limit: 2 }), sent: { symbol: 'ETHBTC', limit: '2' }, check: (r: { bids: string[][] }) => expect(r.bids[0]).toEqual(['3.9', '431']) },
  depthMerged: { call: (c) => c.depthMerged({ symbol: 'BTCUSDT' }), check: (r: { time: number; asks: string[][] }) => expect([r.time, r.asks[0]]).toEqual([1713306685811, ['63766.74', '0.022275']]) },
  trades: { call: (c) => c.trades({ symbol: 'ETHBTC' }), check: (r: { price: string; isBuyerMaker: boolean }[]) => expect(r[0]).toMatchObject({ price: '4.000001', isBuyerMaker: true }) },
  klines: {
    call: (c) => c.klines({ symbol: 'ETHBTC', interval: '1m', limit: 1 }),
    sent: { interval: '1m' },
    check: (r: { openTime: number; close: string; trades: number }[]) => expect(r[0]).toMatchObject({ openTime: 1538728740000, close: '36', trades: 308 }),
  },
  ticker24hr: { call: (c) => c.ticker24hr({ symbol: 'ETHBTC' }), check: (r: { bestBidPrice: string }) => expect(r.bestBidPrice).toBe('4.000002') },
  tickerPrice: { call: (c) => c.tickerPrice(), check: (r: { symbol: string; price: string }[]) => expect(r[1]).toEqual({ symbol: 'ETHBTC', price: '0.079466' }) },
  bookTicker: { call: (c) => c.bookTicker({ symbol: 'LTCBTC' }), check: (r: { askQty: string }) => expect(r.askQty).toBe('9') },
  contracts: { call: (c) => c.contracts(), check: (r: { symbol: string; nextFundingRateTs: number }[]) => expect(r[1]).toMatchObject({ symbol: 'BTC-SWAP', nextFundingRateTs: 1598904000 }) },
  insurance: { call: (c) => c.insurance({ symbol: 'BTC-PERP-REV' }), check: (r: Record<string, { id: string; value: string }[]>) => expect(r['BTC']![0]).toMatchObject({ id: '1552272184833', value: '23.23' }) },
  fundingRate: { call: (c) => c.fundingRate({ symbol: 'BTC-PERP-REV', state: 'current' }), check: (r: { rate: string; intervalEnd: number }[]) => expect(r[0]).toMatchObject({ rate: '-0.000048567445464006', intervalEnd: 1570737600000 }) },
  contractIndex: { call: (c) => c.contractIndex({ symbols: 'BTCUSDT' }), check: (r: { index: Record<string, string> }) => expect(r.index['BTCUSDT']).toBe('8243.21666667') },
  contractDepth: { call: (c) => c.contractDepth({ symbol: 'BTC-PERP-REV' }), check: (r: { time: number; asks: string[][] }) => expect([r.time, r.asks[0]]).toEqual([1555049455783, ['122.96', '0.381']]) },
  contractDepthMerged: { call: (c) => c.contractDepthMerged({ symbol: 'BTC-PERP-REV' }), check: (r: { bids: string[][] }) => expect(r.bids[0]).toEqual(['63694.28', '0.047475']) },
  contractTrades: { call: (c) => c.contractTrades({ symbol: 'BTC-PERP-REV' }), check: (r: { qty: string; isBuyerMaker: boolean }[]) => expect(r[0]).toMatchObject({ qty: '0.725', isBuyerMaker: false }) },
  contractTicker24hr: { call: (c) => c.contractTicker24hr(), check: (r: { symbol: string; openInterest: string }[]) => expect(r[0]).toMatchObject({ symbol: 'BTC-PERP-REV', openInterest: '23797354' }) },
  newSpotOrder: {
    call: (c) => c.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1', newClientOrderId: '6k9M212T12092' }),
    sent: { symbol: 'ETHBTC', quantity: '1', price: '0.1', newClientOrderId: '6k9M212T12092' },
    check: (r: { orderId: string; clientOrderId: string }) => expect(r).toMatchObject({ orderId: '28', clientOrderId: '6k9M212T12092' }),
  },
  testSpotOrder: { call: (c) => c.testSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'MARKET', quantity: '0.5' }), sent: { type: 'MARKET' }, check: (r: object) => expect(r).toEqual({}) },
  getSpotOrder: { call: (c) => c.getSpotOrder({ orderId: '1' }), sent: { orderId: '1' }, check: (r: { orderId: string; status: string; origQty: string }) => expect(r).toMatchObject({ orderId: '1', status: 'NEW', origQty: '1' }) },
  cancelSpotOrder: { call: (c) => c.cancelSpotOrder({ clientOrderId: 'tU721112KM' }), sent: { clientOrderId: 'tU721112KM' }, check: (r: { status: string; orderId: string }) => expect(r).toMatchObject({ status: 'CANCELED', orderId: '1' }) },
  openSpotOrders: { call: (c) => c.openSpotOrders({ symbol: 'LTCBTC' }), check: (r: { clientOrderId: string }[]) => expect(r[0]!.clientOrderId).toBe('t7921223K12') },
  spotHistoryOrders: { call: (c) => c.spotHistoryOrders({ symbol: 'LTCBTC', limit: 10 }), check: (r: { clientOrderId: string }[]) => expect(r[0]!.clientOrderId).toBe('987yjj2Ym') },
  spotMyTrades: { call: (c) => c.spotMyTrades({ symbol: 'ETHBTC' }), check: (r: { id: string; commission: string }[]) => expect(r[0]).toMatchObject({ id: '28457', commission: '0.012' }) },
  newContractOrder: {
    call: (c) => c.newContractOrder({ clientOrderId: '6423344174', symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', orderType: 'LIMIT', quantity: '5', price: '8200', leverage: '12.08', priceType: 'INPUT' }),
    sent: { clientOrderId: '6423344174', side: 'BUY_OPEN', leverage: '12.08' },
    check: (r: { orderId: string; marginLocked: string; status: string }) => expect(r).toMatchObject({ orderId: '469961015902208000', marginLocked: '0.00005047', status: 'NEW' }),
  },
  getContractOrder: { call: (c) => c.getContractOrder({ orderId: '469965509788581888', orderType: 'LIMIT' }), check: (r: { price: string; leverage: string }) => expect(r).toMatchObject({ price: '8502.34', leverage: '20' }) },
  cancelContractOrder: { call: (c) => c.cancelContractOrder({ clientOrderId: '6423344174' }), check: (r: { status: string; marginLocked: string }) => expect(r).toMatchObject({ status: 'CANCELED', marginLocked: '0' }) },
  batchCancelContractOrders: { call: (c) => c.batchCancelContractOrders({ symbol: 'BTC-PERP-REV' }), check: (r: { message: string; timestamp: number }) => expect(r).toEqual({ message: 'success', timestamp: 1541161088303 }) },
  openContractOrders: { call: (c) => c.openContractOrders({ symbol: 'BTC-PERP-REV' }), check: (r: { origQty: string }[]) => expect(r[0]!.origQty).toBe('222') },
  contractHistoryOrders: { call: (c) => c.contractHistoryOrders({ orderType: 'LIMIT' }), check: (r: { status: string }[]) => expect(r[0]!.status).toBe('CANCELED') },
  contractMyTrades: { call: (c) => c.contractMyTrades({ symbol: 'BTC-PERP-REV' }), check: (r: { tradeId: string; fee: string }[]) => expect(r[0]).toMatchObject({ tradeId: '469968263995080704', fee: '0.00000586' }) },
  contractPositions: { call: (c) => c.contractPositions({ side: 'LONG' }), check: (r: { position: string; flp: string }[]) => expect(r[0]).toMatchObject({ position: '1100', flp: '7523.65' }) },
  modifyMargin: { call: (c) => c.modifyMargin({ symbol: 'BTC-PERP-REV', side: 'LONG', amount: '-0.5' }), sent: { amount: '-0.5' }, check: (r: { margin: string }) => expect(r.margin).toBe('15') },
  contractAccount: { call: (c) => c.contractAccount(), check: (r: Record<string, { availableMargin: string }>) => expect(r['TBTC']!.availableMargin).toBe('131.0545541') },
  transferPending: { call: (c) => c.transferPending({ from: 'wallet', to: 'contract', currency: 'BTC', amount: '0.1' }), sent: { from: 'wallet', amount: '0.1' }, check: (r: { kind: string }) => expect(r).toEqual({ kind: 'message', message: 'success', timestamp: 1541161088303 }) },
  spotAccount: { call: (c) => c.spotAccount(), check: (r: { balances: { asset: string; free: string }[] }) => expect(r.balances[0]).toMatchObject({ asset: 'BTC', free: '4723846.89208129' }) },
  depositOrders: { call: (c) => c.depositOrders({ limit: 5 }), check: (r: { orderId: string; quantity: string }[]) => expect(r[0]).toMatchObject({ orderId: '100234', quantity: '1.01' }) },
  withdrawalOrders: { call: (c) => c.withdrawalOrders({ token: 'BHC' }), check: (r: { orderId: string; fee: string }[]) => expect(r[0]).toMatchObject({ orderId: '90161227158286336', fee: '0.1' }) },
  withdrawDetail: { call: (c) => c.withdrawDetail({ orderId: '90161227158286336' }), check: (r: { orderId: string; address: string }) => expect(r).toMatchObject({ orderId: '90161227158286336', address: '0x815bF1c3cc0f49b8FC66B21A7e48fCb476051209' }) },
  subAccounts: { call: (c) => c.subAccounts(), check: (r: { accountId: string; accountType: number }[]) => expect(r.map((x) => x.accountType)).toEqual([1, 1, 3, 3]) },
  transferInternal: {
    call: (c) => c.transferInternal({ fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 1, tokenId: 'BTC', amount: '1' }),
    sent: { fromAccountType: '1', toAccountIndex: '1', tokenId: 'BTC' },
    check: (r: object) => expect(r).toEqual({ kind: 'success', success: true }),
  },
  withdraw: {
    call: (c) => c.withdraw({ tokenId: 'USDT', clientOrderId: 'w-1', address: '0xabc', withdrawQuantity: '10.5', chainType: 'ERC20' }),
    sent: { clientOrderId: 'w-1', withdrawQuantity: '10.5' },
    check: (r: { orderId: string; success: boolean }) => expect(r).toMatchObject({ orderId: '423885103582776064', success: true }),
  },
  balanceFlow: { call: (c) => c.balanceFlow({ tokenId: 'BTC' }), check: (r: { id: string; change: string }[]) => expect(r[0]).toMatchObject({ id: '539870570957903104', change: '-12.5' }) },
  createListenKey: { call: (c) => c.createListenKey(), check: (r: { listenKey: string }) => expect(r.listenKey).toHaveLength(64) },
  keepaliveListenKey: { call: (c) => c.keepaliveListenKey({ listenKey: 'k'.repeat(64) }), sent: { listenKey: 'k'.repeat(64) }, check: (r: object) => expect(r).toEqual({}) },
  closeListenKey: { call: (c) => c.closeListenKey({ listenKey: 'k'.repeat(64) }), check: (r: object) => expect(r).toEqual({}) },
};

describe('every endpoint over HTTP against the fixture server', () => {
  const clock = new VirtualClock(T0);
  let server: FixtureServer;
  let client: VenueRestClient;

  beforeAll(async () => {
    server = await FixtureServer.start({ now: () => clock.now() });
    client = new VenueRestClient({ baseUrl: server.url, apiKey: DEMO_API_KEY, secret: DEMO_SECRET, clock, recvWindow: 5000 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('has a case for every catalogue entry', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  for (const name of Object.keys(CASES) as EndpointName[]) {
    const ep = ENDPOINTS[name];
    it(`${name}: ${endpointKey(ep)}`, async () => {
      const before = server.received.length;
      const result = await CASES[name].call(client);
      expect(server.received).toHaveLength(before + 1);
      const req: Received = server.received[before]!;
      expect(req.key).toBe(endpointKey(ep));
      for (const [k, v] of Object.entries(CASES[name].sent ?? {})) expect(req.params[k]).toBe(v);
      if (isSigned(ep)) {
        expect(req.apiKey).toBe(DEMO_API_KEY);
        expect(req.signatureOk).toBe(true);
        expect(req.params['timestamp']).toBe(String(T0));
        expect(req.params['recvWindow']).toBe('5000');
        expect(req.refusedWith).toBeUndefined();
        if (ep.method === 'GET') expect(req.body).toBe('');
        else expect(req.query).toBe('');
      } else {
        expect(req.apiKey).toBeUndefined();
        expect(req.params['signature']).toBeUndefined();
      }
      (CASES[name].check as (r: unknown) => void)(result);
    });
  }
});
