/** Request parameters of every endpoint of venue-api.md. Prices, quantities and amounts are decimal strings, sent exactly as given. */
import type {
  AccountType,
  BrokerInfoType,
  ChainType,
  ContractOrderType,
  ContractSide,
  ContractTimeInForce,
  FundingState,
  KlineEndpointInterval,
  PositionSide,
  PriceType,
  SpotNewOrderType,
  SpotSide,
  SpotTimeInForce,
  TransferWallet,
} from '../model/index.ts';

/** An endpoint that takes no parameters of its own. */
export type NoParams = Record<string, never>;

/** A decimal as a string ("0.1", "8200"): never a JS number, so nothing is lost on the way. */
export type DecimalString = string;

/** Time in epoch ms. */
export type EpochMs = number;

export interface BrokerInfoParams { type?: BrokerInfoType }
export interface SymbolParam { symbol: string }
export interface OptionalSymbolParam { symbol?: string }
export interface DepthParams { symbol: string; limit?: number }
export interface TradesParams { symbol: string; limit?: number }
export interface KlinesParams { symbol: string; interval: KlineEndpointInterval; startTime?: EpochMs; endTime?: EpochMs; limit?: number }
export interface IndexParams { symbols?: string }
export interface InsuranceParams { symbol?: string; fromId?: string; toId?: string; limit?: number }
export interface FundingRateParams { symbol?: string; state?: FundingState; from?: EpochMs; endTime?: EpochMs; limit?: number }

export interface NewSpotOrderParams {
  symbol: string;
  side: SpotSide;
  type: SpotNewOrderType;
  /** For MARKET BUY orders: the quote amount. */
  quantity: DecimalString;
  /** Required for LIMIT orders. */
  price?: DecimalString;
  timeInForce?: SpotTimeInForce;
  newClientOrderId?: string;
}

/** One of orderId or clientOrderId (venue-notes.md §5: GET also takes origClientOrderId). */
export type OrderRef = { orderId: string; clientOrderId?: string } | { orderId?: string; clientOrderId: string };
export type SpotOrderRef = OrderRef | { origClientOrderId: string };

export interface SpotOpenOrdersParams { symbol?: string; orderId?: string; limit?: number }
export interface SpotHistoryOrdersParams { symbol?: string; orderId?: string; startTime?: EpochMs; endTime?: EpochMs; limit?: number }
export interface SpotMyTradesParams { symbol?: string; startTime?: EpochMs; endTime?: EpochMs; fromId?: string; toId?: string; limit?: number }

export interface NewContractOrderParams {
  /** Required by real servers (venue-notes.md §5). */
  clientOrderId: string;
  symbol: string;
  side: ContractSide;
  orderType?: ContractOrderType;
  quantity: DecimalString;
  /** Not required for close orders. */
  leverage?: DecimalString;
  /** Required for LIMIT orders with priceType INPUT. */
  price?: DecimalString;
  priceType?: PriceType;
  /** For priceType OVER. */
  overPrice?: DecimalString;
  triggerPrice?: DecimalString;
  timeInForce?: ContractTimeInForce;
}

export type ContractOrderRef = OrderRef & { orderType?: ContractOrderType };
export interface BatchCancelParams { symbol?: string }
export interface ContractOpenOrdersParams { orderType?: ContractOrderType; symbol?: string; orderId?: string; limit?: number }
export interface ContractHistoryOrdersParams { orderType?: ContractOrderType; symbol?: string; orderId?: string; limit?: number }
export interface ContractMyTradesParams { symbol?: string; fromId?: string; toId?: string; limit?: number }
export interface PositionsParams { symbol?: string; side?: PositionSide }
export interface ModifyMarginParams { symbol: string; side: PositionSide; amount: DecimalString }

/** The pending transfer variant between wallet, option and contract accounts. */
export interface TransferPendingParams { from: TransferWallet; to: TransferWallet; currency: string; amount: DecimalString }

/** The internal account transfer between main and sub-accounts (a sub-account key leaves the four account fields out). */
export interface TransferInternalParams {
  fromAccountType?: AccountType;
  fromAccountIndex?: number;
  toAccountType?: AccountType;
  toAccountIndex?: number;
  tokenId: string;
  amount: DecimalString;
}

export interface DepositOrdersParams { startTime?: EpochMs; endTime?: EpochMs; fromId?: string; limit?: number }
export interface WithdrawalOrdersParams { token?: string; startTime?: EpochMs; endTime?: EpochMs; fromId?: string; limit?: number }
export type WithdrawDetailParams = { orderId: string } | { clientOrderId: string };
export interface WithdrawParams {
  tokenId: string;
  /** Made by the caller so that a repeated request cannot withdraw twice. */
  clientOrderId: string;
  address: string;
  addressExt?: string;
  withdrawQuantity: DecimalString;
  chainType?: ChainType;
}
export interface BalanceFlowParams {
  accountType?: AccountType;
  accountIndex?: number;
  tokenId?: string;
  fromFlowId?: string;
  endFlowId?: string;
  startTime?: EpochMs;
  endTime?: EpochMs;
  limit?: number;
}
export interface ListenKeyParams { listenKey: string }
