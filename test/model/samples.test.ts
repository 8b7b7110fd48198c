// Every published sample that belongs to an endpoint or a stream parses into the model.
import { describe, expect, it } from 'vitest';
import * as m from '../../src/model/index.ts';
import { allSamples, type Sample } from '../fixtures/samples.ts';

type Parse = (raw: unknown, path?: string) => unknown;

/** One parser per endpoint; a pair means [single form, list form], chosen by the payload's shape. */
const PARSERS: Readonly<Record<string, Parse | readonly [Parse, Parse]>> = {
  'GET /openapi/v1/ping': m.parseEmpty,
  'GET /openapi/v1/time': m.parseServerTime,
  'GET /openapi/v1/brokerInfo': m.parseBrokerInfo,
  'GET /openapi/v1/pairs': m.parsePairList,
  'GET /openapi/v1/contracts': m.parseContractInfoList,
  'GET /openapi/quote/v1/depth': m.parseDepth,
  'GET /openapi/quote/v1/depth/merged': m.parseDepth,
  'GET /openapi/quote/v1/contract/depth': m.parseDepth,
  'GET /openapi/quote/v1/contract/depth/merged': m.parseDepth,
  'GET /openapi/quote/v1/trades': m.parsePublicTradeList,
  'GET /openapi/quote/v1/contract/trades': m.parsePublicTradeList,
  'GET /openapi/quote/v1/klines': m.parseKlineList,
  'GET /openapi/quote/v1/ticker/24hr': [m.parseSpotTicker24h, m.parseSpotTicker24hList],
  'GET /openapi/quote/v1/contract/ticker/24hr': [m.parseContractTicker24h, m.parseContractTicker24hList],
  'GET /openapi/quote/v1/ticker/price': [m.parsePriceTicker, m.parsePriceTickerList],
  'GET /openapi/quote/v1/ticker/bookTicker': [m.parseBookTicker, m.parseBookTickerList],
  'GET /openapi/quote/v1/contract/index': m.parseIndexPrices,
  'GET /openapi/contract/v1/insurance': m.parseInsuranceRecords,
  'GET /openapi/contract/v1/fundingRate': m.parseFundingRateList,
  'POST /openapi/v1/order': m.parseSpotOrderAck,
  'POST /openapi/v1/order/test': m.parseEmpty,
  'GET /openapi/v1/order': m.parseSpotOrder,
  'DELETE /openapi/v1/order': m.parseSpotCancel,
  'GET /openapi/v1/openOrders': m.parseSpotOrderList,
  'GET /openapi/v1/historyOrders': m.parseSpotOrderList,
  'GET /openapi/v1/myTrades': m.parseSpotTradeList,
  'GET /openapi/v1/account': m.parseSpotAccount,
  'GET /openapi/v1/depositOrders': m.parseDepositList,
  'GET /openapi/v1/withdrawalOrders': m.parseWithdrawalList,
  'POST /openapi/v1/withdraw': m.parseWithdrawResult,
  'POST /openapi/v1/subAccount/query': m.parseSubAccountList,
  'POST /openapi/v1/transfer': m.parseTransferResult,
  'GET /openapi/v1/balance_flow': m.parseBalanceFlowList,
  'POST /openapi/v1/userDataStream': m.parseListenKey,
  'PUT /openapi/v1/userDataStream': m.parseEmpty,
  'DELETE /openapi/v1/userDataStream': m.parseEmpty,
  'POST /openapi/contract/v1/order': m.parseContractOrder,
  'GET /openapi/contract/v1/getOrder': m.parseContractOrder,
  'DELETE /openapi/contract/v1/order/cancel': m.parseContractOrder,
  'DELETE /openapi/contract/v1/order/batchCancel': m.parseBatchCancelResult,
  'GET /openapi/contract/v1/openOrders': m.parseContractOrderList,
  'GET /openapi/contract/v1/historyOrders': m.parseContractOrderList,
  'GET /openapi/contract/v1/myTrades': m.parseContractTradeList,
  'GET /openapi/contract/v1/positions': m.parsePositionList,
  'GET /openapi/contract/v1/account': m.parseContractAccount,
  'POST /openapi/contract/v1/modifyMargin': m.parseModifyMarginResult,
  'WS user outboundAccountInfo': m.parseUserStreamFrame,
  'WS user executionReport': m.parseUserStreamFrame,
  'WS user contractExecutionReport': m.parseUserStreamFrame,
  'WS user outboundContractPositionInfo': m.parseUserStreamFrame,
  'WS market subscribe': m.parseMarketRequest,
  'WS market ping': m.parseMarketRequest,
  'WS market pong': m.parseMarketMessage,
  'WS market error': (raw) => m.parseMarketMessage(raw),
  'WS trade': m.parseMarketMessage,
  'WS realtimes': m.parseMarketMessage,
  'WS kline': m.parseMarketMessage,
  'WS depth': m.parseMarketMessage,
  'WS diffDepth': m.parseMarketMessage,
  'WS diffDepth level': m.parseLevel,
  'WS index': m.parseMarketMessage,
};

/** Samples that belong to no endpoint of venue-api.md, with the parser that still applies where one does. */
const NO_ENDPOINT: Readonly<Record<string, Parse | 'not-modelled'>> = {
  'option-account.capture-2020': 'not-modelled',
};

function parserOf(s: Sample): Parse | 'not-modelled' {
  if (s.endpoint === null) {
    if (s.name.startsWith('filter-')) return m.parseFilter;
    if (s.name.startsWith('error-')) return m.parseErrorPayload;
    const p = NO_ENDPOINT[s.name];
    if (p === undefined) throw new Error(`no parser for ${s.name}`);
    return p;
  }
  const p = PARSERS[s.endpoint];
  if (p === undefined) throw new Error(`no parser for endpoint ${s.endpoint} (${s.name})`);
  if (typeof p === 'function') return p;
  return Array.isArray(s.payload) ? p[1] : p[0];
}

const samples = allSamples();

describe('published samples parse into the model', () => {
  it('finds every fixture extracted from venue-samples.md', () => {
    expect(samples.length).toBe(112);
    for (const s of samples) expect(s.source).toMatch(/^venue-samples\.md § .+\(line \d+\)/);
  });

  for (const s of samples) {
    const parse = parserOf(s);
    if (parse === 'not-modelled') continue;
    it(`${s.name}.json`, () => {
      const parsed = s.name === 'ws-market-errors.official'
        ? (s.payload as unknown[]).map((f) => parse(f))
        : parse(s.payload);
      expect(typeof parsed).toBe('object');
      // A list answer keeps every entry (user-stream frames are lists of one event here).
      if (Array.isArray(s.payload)) expect((parsed as unknown[]).length).toBe(s.payload.length);
    });
  }

  it('maps every WS element and REST endpoint sample to a parser (none silently skipped)', () => {
    const skipped = samples.filter((s) => parserOf(s) === 'not-modelled').map((s) => s.name);
    expect(skipped).toEqual(['option-account.capture-2020']);
  });
});
