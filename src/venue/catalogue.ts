/** The endpoint catalogue: one entry per endpoint of venue-api.md, with method, path, security, weight, ORDERS count and answer parser. */
import * as m from '../model/index.ts';
import type { Endpoint, Security, WeightSource } from './endpoint.ts';
import type * as p from './params.ts';

type Spec<T> = Omit<Endpoint<unknown, T>, 'name' | 'effect' | 'weightSource' | 'countsOrders' | '_params'> & {
  weightSource?: WeightSource;
  countsOrders?: boolean;
  /** Overrides the default (GET reads, anything else writes) for POST endpoints that only read. */
  effect?: 'read' | 'write';
};

function ep<P, T>(name: string, spec: Spec<T>): Endpoint<P, T> {
  return {
    ...spec,
    name,
    effect: spec.effect ?? (spec.method === 'GET' ? 'read' : 'write'),
    weightSource: spec.weightSource ?? 'venue-api',
    countsOrders: spec.countsOrders ?? false,
  };
}

/** Accepts the single object (symbol given) or the array (no symbol) that ticker endpoints answer. */
function oneOrMany<T>(one: (raw: unknown) => T, many: (raw: unknown) => readonly T[]): (raw: unknown) => T | readonly T[] {
  return (raw) => (Array.isArray(raw) ? many(raw) : one(raw));
}

const PUBLIC_CONTRACT = 'Public, contract';
const MARKET_CONTRACT = 'Market, contract';
const TRADE_CONTRACT = 'Trade, contract (SIGNED)';
const ACCOUNT_CONTRACT = 'Account, contract (SIGNED)';
const MARKET_SPOT = 'Public and market, spot';
const TRADE_SPOT = 'Trade, spot (SIGNED)';
const ACCOUNT_SPOT = 'Account, spot and wallet (SIGNED)';
const USER_STREAM = 'User data stream';
const NONE: Security = 'NONE';

/** Weight 1 where neither venue-api.md nor venue-notes.md states one. */
const DEFAULT_WEIGHT = { weight: 1, weightSource: 'default' } as const;

/** Every endpoint. Keys are the client method names. */
export const ENDPOINTS = {
  // Public and market, spot (and the rows the contract tables share with it)
  ping: ep<p.NoParams, m.WireObject>('ping', { method: 'GET', path: '/openapi/v1/ping', security: NONE, weight: 0, serverWeight: 1, section: MARKET_SPOT, parser: 'parseEmpty', parse: (r) => m.parseEmpty(r), response: 'Empty object' }),
  time: ep<p.NoParams, m.ServerTime>('time', { method: 'GET', path: '/openapi/v1/time', security: NONE, weight: 0, serverWeight: 1, section: MARKET_SPOT, parser: 'parseServerTime', parse: (r) => m.parseServerTime(r), response: '{serverTime}' }),
  pairs: ep<p.NoParams, readonly m.Pair[]>('pairs', { method: 'GET', path: '/openapi/v1/pairs', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parsePairList', parse: (r) => m.parsePairList(r), response: 'Array of pairs (actively trading)' }),
  brokerInfo: ep<p.BrokerInfoParams, m.BrokerInfo>('brokerInfo', { method: 'GET', path: '/openapi/v1/brokerInfo', security: NONE, weight: 0, serverWeight: 1, section: MARKET_SPOT, alsoIn: PUBLIC_CONTRACT, parser: 'parseBrokerInfo', parse: (r) => m.parseBrokerInfo(r), response: 'Broker info: timezone, serverTime, rateLimits, symbols and/or contracts' }),
  depth: ep<p.DepthParams, m.Depth>('depth', { method: 'GET', path: '/openapi/quote/v1/depth', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parseDepth', parse: (r) => m.parseDepth(r), response: 'Depth (bids, asks)' }),
  depthMerged: ep<p.DepthParams, m.Depth>('depthMerged', { method: 'GET', path: '/openapi/quote/v1/depth/merged', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parseDepth', parse: (r) => m.parseDepth(r), response: 'Depth (not full depth)' }),
  trades: ep<p.TradesParams, readonly m.PublicTrade[]>('trades', { method: 'GET', path: '/openapi/quote/v1/trades', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parsePublicTradeList', parse: (r) => m.parsePublicTradeList(r), response: 'Array of public trades' }),
  klines: ep<p.KlinesParams, readonly m.Kline[]>('klines', { method: 'GET', path: '/openapi/quote/v1/klines', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, alsoIn: MARKET_CONTRACT, parser: 'parseKlineList', parse: (r) => m.parseKlineList(r), response: 'Array of klines (spot and contract symbols)' }),
  ticker24hr: ep<p.OptionalSymbolParam, m.SpotTicker24h | readonly m.SpotTicker24h[]>('ticker24hr', { method: 'GET', path: '/openapi/quote/v1/ticker/24hr', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parseSpotTicker24h / parseSpotTicker24hList', parse: oneOrMany(m.parseSpotTicker24h, m.parseSpotTicker24hList), response: 'Ticker, or array when no symbol' }),
  tickerPrice: ep<p.OptionalSymbolParam, m.PriceTicker | readonly m.PriceTicker[]>('tickerPrice', { method: 'GET', path: '/openapi/quote/v1/ticker/price', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parsePriceTicker / parsePriceTickerList', parse: oneOrMany(m.parsePriceTicker, m.parsePriceTickerList), response: 'Price ticker, or array when no symbol' }),
  bookTicker: ep<p.OptionalSymbolParam, m.BookTicker | readonly m.BookTicker[]>('bookTicker', { method: 'GET', path: '/openapi/quote/v1/ticker/bookTicker', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_SPOT, parser: 'parseBookTicker / parseBookTickerList', parse: oneOrMany(m.parseBookTicker, m.parseBookTickerList), response: 'Book ticker, or array when no symbol' }),

  // Public, contract
  contracts: ep<p.NoParams, readonly m.ContractInfo[]>('contracts', { method: 'GET', path: '/openapi/v1/contracts', security: NONE, ...DEFAULT_WEIGHT, section: PUBLIC_CONTRACT, parser: 'parseContractInfoList', parse: (r) => m.parseContractInfoList(r), response: 'Array of contract info' }),
  insurance: ep<p.InsuranceParams, m.InsuranceRecords>('insurance', { method: 'GET', path: '/openapi/contract/v1/insurance', security: NONE, weight: 0, section: PUBLIC_CONTRACT, parser: 'parseInsuranceRecords', parse: (r) => m.parseInsuranceRecords(r), response: 'Insurance records keyed by asset', pending: true }),
  fundingRate: ep<p.FundingRateParams, readonly m.FundingRate[]>('fundingRate', { method: 'GET', path: '/openapi/contract/v1/fundingRate', security: NONE, weight: 0, section: PUBLIC_CONTRACT, parser: 'parseFundingRateList', parse: (r) => m.parseFundingRateList(r), response: 'Array of funding rate entries', pending: true }),

  // Market, contract
  contractIndex: ep<p.IndexParams, m.IndexPrices>('contractIndex', { method: 'GET', path: '/openapi/quote/v1/contract/index', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_CONTRACT, parser: 'parseIndexPrices', parse: (r) => m.parseIndexPrices(r), response: 'Index object {index, edp}' }),
  contractDepth: ep<p.DepthParams, m.Depth>('contractDepth', { method: 'GET', path: '/openapi/quote/v1/contract/depth', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_CONTRACT, parser: 'parseDepth', parse: (r) => m.parseDepth(r), response: 'Depth; updated every 3 s' }),
  contractDepthMerged: ep<p.DepthParams, m.Depth>('contractDepthMerged', { method: 'GET', path: '/openapi/quote/v1/contract/depth/merged', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_CONTRACT, parser: 'parseDepth', parse: (r) => m.parseDepth(r), response: 'Depth; updated every 0.5 s' }),
  contractTrades: ep<p.TradesParams, readonly m.PublicTrade[]>('contractTrades', { method: 'GET', path: '/openapi/quote/v1/contract/trades', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_CONTRACT, parser: 'parsePublicTradeList', parse: (r) => m.parsePublicTradeList(r), response: 'Array of public trades' }),
  contractTicker24hr: ep<p.OptionalSymbolParam, m.ContractTicker24h | readonly m.ContractTicker24h[]>('contractTicker24hr', { method: 'GET', path: '/openapi/quote/v1/contract/ticker/24hr', security: NONE, ...DEFAULT_WEIGHT, section: MARKET_CONTRACT, parser: 'parseContractTicker24h / parseContractTicker24hList', parse: oneOrMany(m.parseContractTicker24h, m.parseContractTicker24hList), response: 'Contract ticker, or array when no symbol' }),

  // Trade, spot
  newSpotOrder: ep<p.NewSpotOrderParams, m.SpotOrderAck>('newSpotOrder', { method: 'POST', path: '/openapi/v1/order', security: 'TRADE', weight: 1, countsOrders: true, section: TRADE_SPOT, parser: 'parseSpotOrderAck', parse: (r) => m.parseSpotOrderAck(r), response: 'Spot order placement response' }),
  testSpotOrder: ep<p.NewSpotOrderParams, m.WireObject>('testSpotOrder', { method: 'POST', path: '/openapi/v1/order/test', security: 'TRADE', weight: 1, effect: 'read', section: TRADE_SPOT, parser: 'parseEmpty', parse: (r) => m.parseEmpty(r), response: 'Empty object (validated, not sent to matching)' }),
  getSpotOrder: ep<p.SpotOrderRef, m.SpotOrder>('getSpotOrder', { method: 'GET', path: '/openapi/v1/order', security: 'USER_DATA', weight: 1, section: TRADE_SPOT, parser: 'parseSpotOrder', parse: (r) => m.parseSpotOrder(r), response: 'Spot order' }),
  cancelSpotOrder: ep<p.OrderRef, m.SpotCancel>('cancelSpotOrder', { method: 'DELETE', path: '/openapi/v1/order', security: 'TRADE', weight: 1, section: TRADE_SPOT, parser: 'parseSpotCancel', parse: (r) => m.parseSpotCancel(r), response: 'Spot cancel result' }),
  openSpotOrders: ep<p.SpotOpenOrdersParams, readonly m.SpotOrder[]>('openSpotOrders', { method: 'GET', path: '/openapi/v1/openOrders', security: 'USER_DATA', weight: 1, section: TRADE_SPOT, parser: 'parseSpotOrderList', parse: (r) => m.parseSpotOrderList(r), response: 'Array of spot orders' }),
  spotHistoryOrders: ep<p.SpotHistoryOrdersParams, readonly m.SpotOrder[]>('spotHistoryOrders', { method: 'GET', path: '/openapi/v1/historyOrders', security: 'USER_DATA', weight: 5, section: TRADE_SPOT, parser: 'parseSpotOrderList', parse: (r) => m.parseSpotOrderList(r), response: 'Array of spot orders' }),
  spotMyTrades: ep<p.SpotMyTradesParams, readonly m.SpotTrade[]>('spotMyTrades', { method: 'GET', path: '/openapi/v1/myTrades', security: 'USER_DATA', weight: 5, section: TRADE_SPOT, parser: 'parseSpotTradeList', parse: (r) => m.parseSpotTradeList(r), response: 'Array of spot trades' }),

  // Trade, contract
  newContractOrder: ep<p.NewContractOrderParams, m.ContractOrder>('newContractOrder', { method: 'POST', path: '/openapi/contract/v1/order', security: 'TRADE', weight: 1, countsOrders: true, section: TRADE_CONTRACT, parser: 'parseContractOrder', parse: (r) => m.parseContractOrder(r), response: 'Contract order' }),
  getContractOrder: ep<p.ContractOrderRef, m.ContractOrder>('getContractOrder', { method: 'GET', path: '/openapi/contract/v1/getOrder', security: 'USER_DATA', weight: 1, section: TRADE_CONTRACT, parser: 'parseContractOrder', parse: (r) => m.parseContractOrder(r), response: 'Contract order (any state)' }),
  cancelContractOrder: ep<p.ContractOrderRef, m.ContractOrder>('cancelContractOrder', { method: 'DELETE', path: '/openapi/contract/v1/order/cancel', security: 'TRADE', weight: 1, section: TRADE_CONTRACT, parser: 'parseContractOrder', parse: (r) => m.parseContractOrder(r), response: 'Contract order with status CANCELED' }),
  batchCancelContractOrders: ep<p.BatchCancelParams, m.BatchCancelResult>('batchCancelContractOrders', { method: 'DELETE', path: '/openapi/contract/v1/order/batchCancel', security: 'TRADE', weight: 5, weightSource: 'venue-notes', section: TRADE_CONTRACT, parser: 'parseBatchCancelResult', parse: (r) => m.parseBatchCancelResult(r), response: '{message, timestamp}' }),
  openContractOrders: ep<p.ContractOpenOrdersParams, readonly m.ContractOrder[]>('openContractOrders', { method: 'GET', path: '/openapi/contract/v1/openOrders', security: 'USER_DATA', weight: 1, section: TRADE_CONTRACT, parser: 'parseContractOrderList', parse: (r) => m.parseContractOrderList(r), response: 'Array of contract orders' }),
  contractHistoryOrders: ep<p.ContractHistoryOrdersParams, readonly m.ContractOrder[]>('contractHistoryOrders', { method: 'GET', path: '/openapi/contract/v1/historyOrders', security: 'USER_DATA', weight: 5, section: TRADE_CONTRACT, parser: 'parseContractOrderList', parse: (r) => m.parseContractOrderList(r), response: 'Array of contract orders' }),
  contractMyTrades: ep<p.ContractMyTradesParams, readonly m.ContractTrade[]>('contractMyTrades', { method: 'GET', path: '/openapi/contract/v1/myTrades', security: 'USER_DATA', weight: 5, section: TRADE_CONTRACT, parser: 'parseContractTradeList', parse: (r) => m.parseContractTradeList(r), response: 'Array of contract trades' }),
  contractPositions: ep<p.PositionsParams, readonly m.Position[]>('contractPositions', { method: 'GET', path: '/openapi/contract/v1/positions', security: 'USER_DATA', weight: 1, serverWeight: 5, section: TRADE_CONTRACT, parser: 'parsePositionList', parse: (r) => m.parsePositionList(r), response: 'Array of positions' }),
  modifyMargin: ep<p.ModifyMarginParams, m.ModifyMarginResult>('modifyMargin', { method: 'POST', path: '/openapi/contract/v1/modifyMargin', security: 'TRADE', weight: 1, section: TRADE_CONTRACT, parser: 'parseModifyMarginResult', parse: (r) => m.parseModifyMarginResult(r), response: '{symbol, margin, timestamp}' }),

  // Account, contract
  contractAccount: ep<p.NoParams, m.ContractAccount>('contractAccount', { method: 'GET', path: '/openapi/contract/v1/account', security: 'USER_DATA', weight: 5, section: ACCOUNT_CONTRACT, parser: 'parseContractAccount', parse: (r) => m.parseContractAccount(r), response: 'Contract account keyed by margin token' }),
  transferPending: ep<p.TransferPendingParams, m.TransferResult>('transferPending', { method: 'POST', path: '/openapi/v1/transfer', security: 'USER_DATA', weight: 1, section: ACCOUNT_CONTRACT, parser: 'parseTransferResult', parse: (r) => m.parseTransferResult(r), response: '{message, timestamp}', pending: true }),

  // Account, spot and wallet
  spotAccount: ep<p.NoParams, m.SpotAccount>('spotAccount', { method: 'GET', path: '/openapi/v1/account', security: 'USER_DATA', weight: 5, section: ACCOUNT_SPOT, parser: 'parseSpotAccount', parse: (r) => m.parseSpotAccount(r), response: '{balances}' }),
  depositOrders: ep<p.DepositOrdersParams, readonly m.Deposit[]>('depositOrders', { method: 'GET', path: '/openapi/v1/depositOrders', security: 'USER_DATA', weight: 5, section: ACCOUNT_SPOT, parser: 'parseDepositList', parse: (r) => m.parseDepositList(r), response: 'Array of deposit orders' }),
  withdrawalOrders: ep<p.WithdrawalOrdersParams, readonly m.Withdrawal[]>('withdrawalOrders', { method: 'GET', path: '/openapi/v1/withdrawalOrders', security: 'USER_DATA', ...DEFAULT_WEIGHT, section: ACCOUNT_SPOT, parser: 'parseWithdrawalList', parse: (r) => m.parseWithdrawalList(r), response: 'Array of withdrawal orders' }),
  withdrawDetail: ep<p.WithdrawDetailParams, m.Withdrawal>('withdrawDetail', { method: 'GET', path: '/openapi/v1/withdraw/detail', security: 'USER_DATA', ...DEFAULT_WEIGHT, section: ACCOUNT_SPOT, parser: 'parseWithdrawal', parse: (r) => m.parseWithdrawal(r), response: 'One withdrawal order' }),
  subAccounts: ep<p.NoParams, readonly m.SubAccount[]>('subAccounts', { method: 'POST', path: '/openapi/v1/subAccount/query', security: 'USER_DATA', weight: 5, effect: 'read', section: ACCOUNT_SPOT, parser: 'parseSubAccountList', parse: (r) => m.parseSubAccountList(r), response: 'Array of sub-account entries (main account included)' }),
  transferInternal: ep<p.TransferInternalParams, m.TransferResult>('transferInternal', { method: 'POST', path: '/openapi/v1/transfer', security: 'USER_DATA', weight: 1, section: ACCOUNT_SPOT, parser: 'parseTransferResult', parse: (r) => m.parseTransferResult(r), response: '{success}' }),
  withdraw: ep<p.WithdrawParams, m.WithdrawResult>('withdraw', { method: 'POST', path: '/openapi/v1/withdraw', security: 'USER_DATA', ...DEFAULT_WEIGHT, section: ACCOUNT_SPOT, parser: 'parseWithdrawResult', parse: (r) => m.parseWithdrawResult(r), response: 'Withdraw request result' }),
  balanceFlow: ep<p.BalanceFlowParams, readonly m.BalanceFlow[]>('balanceFlow', { method: 'GET', path: '/openapi/v1/balance_flow', security: 'USER_DATA', weight: 5, section: ACCOUNT_SPOT, parser: 'parseBalanceFlowList', parse: (r) => m.parseBalanceFlowList(r), response: 'Array of balance flow entries' }),

  // User data stream
  createListenKey: ep<p.NoParams, m.ListenKey>('createListenKey', { method: 'POST', path: '/openapi/v1/userDataStream', security: 'USER_STREAM', weight: 1, section: USER_STREAM, parser: 'parseListenKey', parse: (r) => m.parseListenKey(r), response: '{listenKey}' }),
  keepaliveListenKey: ep<p.ListenKeyParams, m.WireObject>('keepaliveListenKey', { method: 'PUT', path: '/openapi/v1/userDataStream', security: 'USER_STREAM', weight: 1, section: USER_STREAM, parser: 'parseEmpty', parse: (r) => m.parseEmpty(r), response: 'Empty object' }),
  closeListenKey: ep<p.ListenKeyParams, m.WireObject>('closeListenKey', { method: 'DELETE', path: '/openapi/v1/userDataStream', security: 'USER_STREAM', weight: 1, section: USER_STREAM, parser: 'parseEmpty', parse: (r) => m.parseEmpty(r), response: 'Empty object' }),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** Returns every catalogue entry, in catalogue order. */
export function allEndpoints(): readonly Endpoint<unknown, unknown>[] {
  return Object.values(ENDPOINTS) as readonly Endpoint<unknown, unknown>[];
}
