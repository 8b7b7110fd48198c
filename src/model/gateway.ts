/** The one boundary between the bot and a venue: place, cancel, query, open orders, trades, positions, balances and exchange info, in model types. */
import type { SpotBalance, ContractAccount } from './balance.ts';
import type { ContractOrderType, ContractSide, ContractTimeInForce, PriceType, SpotNewOrderType, SpotSide, SpotTimeInForce } from './enums.ts';
import type { AccountKind, ReportOrderStatus, ReportSide } from './events.ts';
import type { BrokerInfo } from './instrument.ts';
import type { Position } from './position.ts';

/** A new spot order, decimals exactly as they will be sent. */
export interface SpotOrderRequest {
  readonly account: 'spot';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly side: SpotSide;
  readonly type: SpotNewOrderType;
  /** Base quantity; for a MARKET BUY the quote amount. */
  readonly quantity: string;
  readonly price?: string;
  readonly timeInForce?: SpotTimeInForce;
}

/** A new contract order. */
export interface ContractOrderRequest {
  readonly account: 'contract';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly side: ContractSide;
  readonly orderType: ContractOrderType;
  readonly priceType: PriceType;
  readonly quantity: string;
  readonly price?: string;
  readonly triggerPrice?: string;
  readonly leverage?: string;
  readonly timeInForce?: ContractTimeInForce;
}

export type OrderRequest = SpotOrderRequest | ContractOrderRequest;

/** Names one order: by clientOrderId (preferred: it is known before the venue answers) or by orderId. */
export interface OrderLocator {
  readonly account: AccountKind;
  readonly symbol: string;
  readonly clientOrderId?: string;
  readonly orderId?: string;
}

/** One order as the venue reports it (placement answer, query, open orders, cancel), in one shape for spot and contracts. */
export interface OrderReport {
  readonly account: AccountKind;
  readonly symbol: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly status: ReportOrderStatus;
  readonly side: ReportSide;
  /** LIMIT, MARKET, LIMIT_MAKER or STOP. */
  readonly type: string;
  readonly price: string;
  readonly origQty: string;
  /** Cumulative filled quantity; never decreases over an order's life. */
  readonly executedQty: string;
  readonly avgPrice: string;
  /** Venue time of the report (updateTime, else creation time), epoch ms. */
  readonly time: number;
}

/** One of the user's fills, identified by the venue's trade id. */
export interface FillReport {
  readonly account: AccountKind;
  readonly symbol: string;
  readonly tradeId: string;
  readonly orderId: string;
  /** BUY/SELL for spot; the contract side (BUY_OPEN, SELL_CLOSE, …) for contracts. */
  readonly side: ReportSide;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  /** The asset the fee was charged in (spot commissionAsset, contract fee token). */
  readonly feeAsset: string;
  /** Undefined where the venue does not say (contract trades). */
  readonly maker: boolean | undefined;
  readonly time: number;
  /** Contract fills: the PnL the venue says the fill realized, where it sends it. */
  readonly realizedPnl?: string;
}

/** Both accounts' balances at one instant. */
export interface Balances {
  readonly spot: readonly SpotBalance[];
  readonly contract: ContractAccount;
}

/**
 * What the bot needs from a venue. Implemented by the live REST client (RestGateway) and by the
 * in-process simulated venue. Errors are the typed errors of core/errors.ts: a VenueError with
 * retry 'definite' is a rejection (nothing happened); an error with retry 'unknown' means the write
 * may have happened and is settled by `getOrder` on the clientOrderId, never by sending again.
 */
export interface Gateway {
  /** Places an order; returns the venue's report of it (status NEW at least). */
  place(req: OrderRequest): Promise<OrderReport>;
  /** Cancels an order; returns the venue's report of it. */
  cancel(ref: OrderLocator): Promise<OrderReport>;
  /** Returns the order in whatever state; a VenueError with venueCode -2013 when the venue does not know it. */
  getOrder(ref: OrderLocator): Promise<OrderReport>;
  /** Returns the account's open orders (all symbols when none is given). */
  openOrders(account: AccountKind, symbol?: string): Promise<readonly OrderReport[]>;
  /** Returns the account's fills with a trade id above `afterTradeId` (the most recent ones when absent), oldest first. */
  tradesSince(account: AccountKind, afterTradeId?: string): Promise<readonly FillReport[]>;
  /** Returns the open contract positions. */
  positions(): Promise<readonly Position[]>;
  /** Returns the spot and contract balances. */
  balances(): Promise<Balances>;
  /** Returns instruments, rate limits and server time. */
  exchangeInfo(): Promise<BrokerInfo>;
}
