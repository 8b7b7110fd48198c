/** The venue's REST client: one typed method per endpoint of venue-api.md, each going through the catalogue entry of the same name. */
import { ConfigError, ParseError } from '../core/errors.ts';
import type * as m from '../model/index.ts';
import { ENDPOINTS } from './catalogue.ts';
import type * as p from './params.ts';
import { RestCore } from './rest-core.ts';

export type { RestClientOptions } from './rest-core.ts';

function requireOneOf(params: object, keys: readonly string[], endpoint: string): void {
  const rec = params as Record<string, unknown>;
  if (!keys.some((k) => rec[k] !== undefined && rec[k] !== '')) {
    throw new ConfigError(`${endpoint}.params`, `one of ${keys.join(', ')} must be given`);
  }
}

function oneOrList<T>(v: T | readonly T[], one: boolean, endpoint: string): T | readonly T[] {
  if (Array.isArray(v) === one) throw new ParseError(endpoint, one ? 'must be one ticker when a symbol is given, got an array' : 'must be an array when no symbol is given');
  return v;
}

/**
 * Signed calls carry the key header, a timestamp on the venue's clock (see syncTime) and the signature;
 * every call waits for rate budget first. Writes whose outcome is lost throw UnknownOutcomeError and are never resent.
 */
export class VenueRestClient extends RestCore {
  /** GET /openapi/v1/ping: returns empty object. */
  ping(): Promise<m.WireObject> {
    return this.call(ENDPOINTS.ping, {});
  }

  /** GET /openapi/v1/time: returns {serverTime}. */
  time(): Promise<m.ServerTime> {
    return this.call(ENDPOINTS.time, {});
  }

  /** GET /openapi/v1/pairs: returns array of pairs (actively trading). */
  pairs(): Promise<readonly m.Pair[]> {
    return this.call(ENDPOINTS.pairs, {});
  }

  /** GET /openapi/v1/brokerInfo: returns broker info: timezone, serverTime, rateLimits, symbols and/or contracts. */
  brokerInfo(params: p.BrokerInfoParams = {}): Promise<m.BrokerInfo> {
    return this.call(ENDPOINTS.brokerInfo, params);
  }

  /** GET /openapi/quote/v1/depth: returns depth (bids, asks). */
  depth(params: p.DepthParams): Promise<m.Depth> {
    return this.call(ENDPOINTS.depth, params);
  }

  /** GET /openapi/quote/v1/depth/merged: returns depth (not full depth). */
  depthMerged(params: p.DepthParams): Promise<m.Depth> {
    return this.call(ENDPOINTS.depthMerged, params);
  }

  /** GET /openapi/quote/v1/trades: returns array of public trades. */
  trades(params: p.TradesParams): Promise<readonly m.PublicTrade[]> {
    return this.call(ENDPOINTS.trades, params);
  }

  /** GET /openapi/quote/v1/klines: returns array of klines (spot and contract symbols). */
  klines(params: p.KlinesParams): Promise<readonly m.Kline[]> {
    return this.call(ENDPOINTS.klines, params);
  }

  /** GET /openapi/quote/v1/ticker/24hr: returns the ticker of `symbol`, or every symbol's ticker when no symbol is given. */
  ticker24hr(params: { symbol: string }): Promise<m.SpotTicker24h>;
  ticker24hr(params?: { symbol?: undefined }): Promise<readonly m.SpotTicker24h[]>;
  async ticker24hr(params: p.OptionalSymbolParam = {}): Promise<m.SpotTicker24h | readonly m.SpotTicker24h[]> {
    return oneOrList(await this.call(ENDPOINTS.ticker24hr, params), params.symbol !== undefined, 'ticker24hr');
  }

  /** GET /openapi/quote/v1/ticker/price: returns the ticker of `symbol`, or every symbol's ticker when no symbol is given. */
  tickerPrice(params: { symbol: string }): Promise<m.PriceTicker>;
  tickerPrice(params?: { symbol?: undefined }): Promise<readonly m.PriceTicker[]>;
  async tickerPrice(params: p.OptionalSymbolParam = {}): Promise<m.PriceTicker | readonly m.PriceTicker[]> {
    return oneOrList(await this.call(ENDPOINTS.tickerPrice, params), params.symbol !== undefined, 'tickerPrice');
  }

  /** GET /openapi/quote/v1/ticker/bookTicker: returns the ticker of `symbol`, or every symbol's ticker when no symbol is given. */
  bookTicker(params: { symbol: string }): Promise<m.BookTicker>;
  bookTicker(params?: { symbol?: undefined }): Promise<readonly m.BookTicker[]>;
  async bookTicker(params: p.OptionalSymbolParam = {}): Promise<m.BookTicker | readonly m.BookTicker[]> {
    return oneOrList(await this.call(ENDPOINTS.bookTicker, params), params.symbol !== undefined, 'bookTicker');
  }

  /** GET /openapi/v1/contracts: returns array of contract info. */
  contracts(): Promise<readonly m.ContractInfo[]> {
    return this.call(ENDPOINTS.contracts, {});
  }

  /** GET /openapi/contract/v1/insurance: returns insurance records keyed by asset. */
  insurance(params: p.InsuranceParams = {}): Promise<m.InsuranceRecords> {
    return this.call(ENDPOINTS.insurance, params);
  }

  /** GET /openapi/contract/v1/fundingRate: returns array of funding rate entries. */
  fundingRate(params: p.FundingRateParams = {}): Promise<readonly m.FundingRate[]> {
    return this.call(ENDPOINTS.fundingRate, params);
  }

  /** GET /openapi/quote/v1/contract/index: returns index object {index, edp}. */
  contractIndex(params: p.IndexParams = {}): Promise<m.IndexPrices> {
    return this.call(ENDPOINTS.contractIndex, params);
  }

  /** GET /openapi/quote/v1/contract/depth: returns depth; updated every 3 s. */
  contractDepth(params: p.DepthParams): Promise<m.Depth> {
    return this.call(ENDPOINTS.contractDepth, params);
  }

  /** GET /openapi/quote/v1/contract/depth/merged: returns depth; updated every 0.5 s. */
  contractDepthMerged(params: p.DepthParams): Promise<m.Depth> {
    return this.call(ENDPOINTS.contractDepthMerged, params);
  }

  /** GET /openapi/quote/v1/contract/trades: returns array of public trades. */
  contractTrades(params: p.TradesParams): Promise<readonly m.PublicTrade[]> {
    return this.call(ENDPOINTS.contractTrades, params);
  }

  /** GET /openapi/quote/v1/contract/ticker/24hr: returns the ticker of `symbol`, or every symbol's ticker when no symbol is given. */
  contractTicker24hr(params: { symbol: string }): Promise<m.ContractTicker24h>;
  contractTicker24hr(params?: { symbol?: undefined }): Promise<readonly m.ContractTicker24h[]>;
  async contractTicker24hr(params: p.OptionalSymbolParam = {}): Promise<m.ContractTicker24h | readonly m.ContractTicker24h[]> {
    return oneOrList(await this.call(ENDPOINTS.contractTicker24hr, params), params.symbol !== undefined, 'contractTicker24hr');
  }

  /** POST /openapi/v1/order: returns spot order placement response. */
  newSpotOrder(params: p.NewSpotOrderParams): Promise<m.SpotOrderAck> {
    return this.call(ENDPOINTS.newSpotOrder, params);
  }

  /** POST /openapi/v1/order/test: returns empty object (validated, not sent to matching). */
  testSpotOrder(params: p.NewSpotOrderParams): Promise<m.WireObject> {
    return this.call(ENDPOINTS.testSpotOrder, params);
  }

  /** GET /openapi/v1/order: returns spot order. */
  async getSpotOrder(params: p.SpotOrderRef): Promise<m.SpotOrder> {
    requireOneOf(params, ['orderId', 'clientOrderId', 'origClientOrderId'], 'getSpotOrder');
    return this.call(ENDPOINTS.getSpotOrder, params);
  }

  /** DELETE /openapi/v1/order: returns spot cancel result. */
  async cancelSpotOrder(params: p.OrderRef): Promise<m.SpotCancel> {
    requireOneOf(params, ['orderId', 'clientOrderId'], 'cancelSpotOrder');
    return this.call(ENDPOINTS.cancelSpotOrder, params);
  }

  /** GET /openapi/v1/openOrders: returns array of spot orders. */
  openSpotOrders(params: p.SpotOpenOrdersParams = {}): Promise<readonly m.SpotOrder[]> {
    return this.call(ENDPOINTS.openSpotOrders, params);
  }

  /** GET /openapi/v1/historyOrders: returns array of spot orders. */
  spotHistoryOrders(params: p.SpotHistoryOrdersParams = {}): Promise<readonly m.SpotOrder[]> {
    return this.call(ENDPOINTS.spotHistoryOrders, params);
  }

  /** GET /openapi/v1/myTrades: returns array of spot trades. */
  spotMyTrades(params: p.SpotMyTradesParams = {}): Promise<readonly m.SpotTrade[]> {
    return this.call(ENDPOINTS.spotMyTrades, params);
  }

  /** POST /openapi/contract/v1/order: returns contract order. */
  newContractOrder(params: p.NewContractOrderParams): Promise<m.ContractOrder> {
    return this.call(ENDPOINTS.newContractOrder, params);
  }

  /** GET /openapi/contract/v1/getOrder: returns contract order (any state). */
  async getContractOrder(params: p.ContractOrderRef): Promise<m.ContractOrder> {
    requireOneOf(params, ['orderId', 'clientOrderId'], 'getContractOrder');
    return this.call(ENDPOINTS.getContractOrder, params);
  }

  /** DELETE /openapi/contract/v1/order/cancel: returns contract order with status CANCELED. */
  async cancelContractOrder(params: p.ContractOrderRef): Promise<m.ContractOrder> {
    requireOneOf(params, ['orderId', 'clientOrderId'], 'cancelContractOrder');
    return this.call(ENDPOINTS.cancelContractOrder, params);
  }

  /** DELETE /openapi/contract/v1/order/batchCancel: returns {message, timestamp}. */
  batchCancelContractOrders(params: p.BatchCancelParams = {}): Promise<m.BatchCancelResult> {
    return this.call(ENDPOINTS.batchCancelContractOrders, params);
  }

  /** GET /openapi/contract/v1/openOrders: returns array of contract orders. */
  openContractOrders(params: p.ContractOpenOrdersParams = {}): Promise<readonly m.ContractOrder[]> {
    return this.call(ENDPOINTS.openContractOrders, params);
  }

  /** GET /openapi/contract/v1/historyOrders: returns array of contract orders. */
  contractHistoryOrders(params: p.ContractHistoryOrdersParams = {}): Promise<readonly m.ContractOrder[]> {
    return this.call(ENDPOINTS.contractHistoryOrders, params);
  }

  /** GET /openapi/contract/v1/myTrades: returns array of contract trades. */
  contractMyTrades(params: p.ContractMyTradesParams = {}): Promise<readonly m.ContractTrade[]> {
    return this.call(ENDPOINTS.contractMyTrades, params);
  }

  /** GET /openapi/contract/v1/positions: returns array of positions. */
  contractPositions(params: p.PositionsParams = {}): Promise<readonly m.Position[]> {
    return this.call(ENDPOINTS.contractPositions, params);
  }

  /** POST /openapi/contract/v1/modifyMargin: returns {symbol, margin, timestamp}. */
  modifyMargin(params: p.ModifyMarginParams): Promise<m.ModifyMarginResult> {
    return this.call(ENDPOINTS.modifyMargin, params);
  }

  /** GET /openapi/contract/v1/account: returns contract account keyed by margin token. */
  contractAccount(): Promise<m.ContractAccount> {
    return this.call(ENDPOINTS.contractAccount, {});
  }

  /** POST /openapi/v1/transfer: returns {message, timestamp}. */
  transferPending(params: p.TransferPendingParams): Promise<m.TransferResult> {
    return this.call(ENDPOINTS.transferPending, params);
  }

  /** GET /openapi/v1/account: returns {balances}. */
  spotAccount(): Promise<m.SpotAccount> {
    return this.call(ENDPOINTS.spotAccount, {});
  }

  /** GET /openapi/v1/depositOrders: returns array of deposit orders. */
  depositOrders(params: p.DepositOrdersParams = {}): Promise<readonly m.Deposit[]> {
    return this.call(ENDPOINTS.depositOrders, params);
  }

  /** GET /openapi/v1/withdrawalOrders: returns array of withdrawal orders. */
  withdrawalOrders(params: p.WithdrawalOrdersParams = {}): Promise<readonly m.Withdrawal[]> {
    return this.call(ENDPOINTS.withdrawalOrders, params);
  }

  /** GET /openapi/v1/withdraw/detail: returns one withdrawal order. */
  async withdrawDetail(params: p.WithdrawDetailParams): Promise<m.Withdrawal> {
    requireOneOf(params, ['orderId', 'clientOrderId'], 'withdrawDetail');
    return this.call(ENDPOINTS.withdrawDetail, params);
  }

  /** POST /openapi/v1/subAccount/query: returns array of sub-account entries (main account included). */
  subAccounts(): Promise<readonly m.SubAccount[]> {
    return this.call(ENDPOINTS.subAccounts, {});
  }

  /** POST /openapi/v1/transfer: returns {success}. */
  transferInternal(params: p.TransferInternalParams): Promise<m.TransferResult> {
    return this.call(ENDPOINTS.transferInternal, params);
  }

  /** POST /openapi/v1/withdraw: returns withdraw request result. */
  withdraw(params: p.WithdrawParams): Promise<m.WithdrawResult> {
    return this.call(ENDPOINTS.withdraw, params);
  }

  /** GET /openapi/v1/balance_flow: returns array of balance flow entries. */
  balanceFlow(params: p.BalanceFlowParams = {}): Promise<readonly m.BalanceFlow[]> {
    return this.call(ENDPOINTS.balanceFlow, params);
  }

  /** POST /openapi/v1/userDataStream: returns {listenKey}. */
  createListenKey(): Promise<m.ListenKey> {
    return this.call(ENDPOINTS.createListenKey, {});
  }

  /** PUT /openapi/v1/userDataStream: returns empty object. */
  keepaliveListenKey(params: p.ListenKeyParams): Promise<m.WireObject> {
    return this.call(ENDPOINTS.keepaliveListenKey, params);
  }

  /** DELETE /openapi/v1/userDataStream: returns empty object. */
  closeListenKey(params: p.ListenKeyParams): Promise<m.WireObject> {
    return this.call(ENDPOINTS.closeListenKey, params);
  }
}
