/** The strategy plugin API's vocabulary: manifest, definition, the scoped context a strategy gets, its order requests and its handlers. */
import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Clock, TimerHandle } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type {
  BalanceUpdateEvent, ConnectionStateEvent, ContractOrderType, ContractSide, ContractTimeInForce, DepthSnapshotEvent,
  BookPnl, DepthUpdateEvent, EventKind, EventOf, FundingEvent, IndexEvent, Instrument, KlineEvent, OrderFill, OrderView, PositionSide,
  PositionUpdateEvent, PriceType, ReconnectedEvent, SpotNewOrderType, SpotSide, SpotTimeInForce, SymbolBook, SymbolEventKind, TickerEvent,
  TradeEvent,
} from '../model/index.ts';
import type { HistoryApi, StreamRequest } from './streams.ts';

/** What a plugin declares about itself; checked when it is loaded. */
export interface StrategyManifest<P extends z.ZodType = z.ZodType> {
  /** 1-32 letters, digits, `_` or `-`. */
  readonly name: string;
  /** The plugin API version it was written for, "MAJOR.MINOR"; the major must equal the host's, the minor be at most the host's. */
  readonly apiVersion: string;
  /** The schema of its `params` in the config; its output is what `ctx.params` holds. */
  readonly params: P;
  readonly description?: string;
  /** The market streams it wants (the config entry's `streams` override each field); default: book snapshots, trades, and a contract's index. */
  readonly streams?: StreamRequest;
}

/** A new spot order; decimals are strings exactly as they will be sent. */
export interface SpotOrderRequest {
  readonly symbol: string;
  readonly side: SpotSide;
  /** Default LIMIT. */
  readonly type?: SpotNewOrderType;
  /** Required for LIMIT and LIMIT_MAKER. */
  readonly price?: string;
  /** Base quantity (for a MARKET BUY, the quote amount to spend, as on the wire). */
  readonly quantity: string;
  readonly timeInForce?: SpotTimeInForce;
}

/** A new contract order. */
export interface ContractOrderRequest {
  readonly symbol: string;
  readonly side: ContractSide;
  /** Default LIMIT. */
  readonly orderType?: ContractOrderType;
  /** Default INPUT when a price is given, MARKET otherwise. */
  readonly priceType?: PriceType;
  readonly price?: string;
  readonly triggerPrice?: string;
  /** Number of contracts. */
  readonly quantity: string;
  /** Required to open (BUY_OPEN, SELL_OPEN). */
  readonly leverage?: string;
  readonly timeInForce?: ContractTimeInForce;
}

/** A new order of either family; the side tells which (BUY/SELL spot, *_OPEN/*_CLOSE contract). */
export type OrderRequest = SpotOrderRequest | ContractOrderRequest;

/** Closes (part of) a position: spot holdings are LONG. */
export interface CloseRequest {
  readonly symbol: string;
  readonly side: PositionSide;
  /** Default: the whole position. */
  readonly quantity?: string;
  /** Default: at market. */
  readonly price?: string;
}

/**
 * What a strategy's order API hands to the app: the same shapes as the risk gate's intents (the app
 * checks the two agree at compile time), stamped with the strategy id and a fresh clientOrderId.
 */
export type StrategyIntent =
  | ({ readonly kind: 'placeSpot'; readonly strategyId: string; readonly clientOrderId: string; readonly type: SpotNewOrderType } & Omit<SpotOrderRequest, 'type'>)
  | ({ readonly kind: 'placeContract'; readonly strategyId: string; readonly clientOrderId: string; readonly orderType: ContractOrderType; readonly priceType: PriceType } & Omit<ContractOrderRequest, 'orderType' | 'priceType'>)
  | { readonly kind: 'cancel'; readonly strategyId: string; readonly symbol: string; readonly clientOrderId: string }
  | { readonly kind: 'cancelAll'; readonly strategyId: string; readonly symbol?: string }
  | { readonly kind: 'replace'; readonly strategyId: string; readonly symbol: string; readonly replaces: string; readonly order: PlaceOf<StrategyIntent> }
  | ({ readonly kind: 'closePosition'; readonly strategyId: string; readonly clientOrderId: string } & CloseRequest);

/** The placing intents. */
export type PlaceOf<I> = Extract<I, { kind: 'placeSpot' | 'placeContract' }>;

/** The app's answer to one intent: accepted for sending, or denied locally (`text` is the `CODE: key=value` line). */
export type SubmitResult = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly text: string };

/** Where a strategy's intents go: risk gate, then executor. Injected by the app; never the venue. */
export type SubmitIntent = (intent: StrategyIntent) => SubmitResult;

/** A local refusal of one of the strategy's intents, delivered to `onDenied`. */
export interface DenialNotice {
  readonly intent: StrategyIntent;
  /** The refusal's code, e.g. `ORDER_RATE`, `NOT_OWNER`, `UNKNOWN_ORDER`, `ORDER_FINISHED`. */
  readonly code: string;
  /** The `CODE: key=value …` line. */
  readonly text: string;
  /**
   * The clientOrderId the refused call is about: the one `place`, `replace` or `closePosition` returned
   * (no order was sent under it), or for `cancel` the id it asked to cancel; absent for `cancelAll`.
   */
  readonly clientOrderId?: string;
}

/** An order of the strategy as it stands (the same shape `onOrder` receives). */
export type OpenOrderView = OrderView;

/** A position (contract, or spot holdings as LONG). */
export interface PositionView {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly quantity: string;
  readonly avgPrice: string;
}

/** Balances of one asset. */
export interface BalanceView {
  readonly free: string;
  readonly locked: string;
}

/**
 * A read-only view of the strategy's own book (kept from its own fills only, so two strategies on one
 * symbol each see their own) and of the account's balances. Every decimal is a string, rounded to the
 * instrument's precision.
 */
export interface PortfolioView {
  /** Returns the account's balance of `asset` in the spot or contract account (zero when none; a margin token at its margin precision, rounded down, as the venue shows it); shared by every strategy. */
  balance(asset: string, account?: 'spot' | 'contract'): BalanceView;
  /** Returns this strategy's position in `symbol` from its own fills: contract sides held, or spot holdings as LONG (empty when flat). */
  positions(symbol: string): readonly PositionView[];
  /** Returns this strategy's book of `symbol`: net position, sides, realized PnL before fees, fees, funding, unrealized at the mark. */
  book(symbol: string): SymbolBook;
  /** Returns this strategy's working orders (acknowledged by the venue, not finished), on one symbol or all. */
  openOrders(symbol?: string): readonly OpenOrderView[];
  /** Returns this strategy's PnL over its symbols in its accounting asset, other assets converted at the current price. */
  pnl(): BookPnl;
}

/** Where the host reads a strategy's orders and fills: the executor's order feed, the one writer of them. */
export interface OrderSource {
  /** Delivers changes of the bot's orders and their fills; the host keeps those of each strategy for it. */
  follow(l: { order(v: OrderView): void; fill(f: OrderFill): void }): () => void;
  /** Returns an order (working, or finished and still in the bounded history). */
  get(clientOrderId: string): OrderView | undefined;
  /** Returns a strategy's orders not finished; with `pending`, those not acknowledged yet or of unknown outcome too. */
  open(strategyId: string, symbol?: string, pending?: boolean): readonly OrderView[];
}

/** A venue's fee rates, as fractions of the traded value. */
export interface FeeRates {
  readonly maker: string;
  readonly taker: string;
}

/** The bus, as a strategy may read it: streams only, never publish. */
export interface BusReader {
  on<K extends EventKind>(kind: K): Observable<EventOf<K>>;
  forSymbol<K extends SymbolEventKind>(kind: K, symbol: string): Observable<EventOf<K>>;
}

/** The order API: each call returns the clientOrderId at once; outcomes arrive as `order` events (or `onDenied`). */
export interface OrderApi {
  place(req: OrderRequest): string;
  cancel(symbol: string, clientOrderId: string): void;
  /** Cancels `clientOrderId` and places `req` instead; returns the new clientOrderId. */
  replace(clientOrderId: string, req: OrderRequest): string;
  /** Cancels every open order of this strategy, on one symbol or on all. */
  cancelAll(symbol?: string): void;
  /** Closes (part of) this strategy's own position: spot sells only what its fills hold, with a price bound. */
  closePosition(req: CloseRequest): string;
  /** Returns one of this strategy's orders by clientOrderId, finished ones included (bounded history); undefined for another strategy's. */
  get(clientOrderId: string): OrderView | undefined;
  /** Returns this strategy's orders not finished, on one symbol or all, including those sent and not answered yet (outcome `pending` or `unknown`). */
  open(symbol?: string): readonly OrderView[];
}

/** Everything a strategy can see and do; it never gets the engine, the executor or the venue. */
export interface StrategyContext<P = unknown> {
  /** The id the config gave this strategy instance (order ids, logs and risk limits are kept under it). */
  readonly id: string;
  readonly params: P;
  /** The symbols the config assigned to it. */
  readonly symbols: readonly string[];
  readonly bus: BusReader;
  /** Returns the trading rules of a symbol; throws for an unknown one. */
  instrument(symbol: string): Instrument;
  readonly portfolio: PortfolioView;
  readonly clock: Clock;
  readonly log: Logger;
  readonly orders: OrderApi;
  /** Returns the venue's fee rates for `symbol` (fractions, e.g. maker "0.001"), as the config it runs on gives them; undefined when unknown. */
  fees(symbol: string): FeeRates | undefined;
  /** Recent klines and trades through the REST client, for warming up indicators. */
  readonly history: HistoryApi;
  /** Runs `fn` every `ms` on the clock until the strategy stops; a throw stops the strategy like a handler's would. */
  every(ms: number, fn: () => void | Promise<void>): TimerHandle;
}

/** The handlers a strategy may have; each gets only events of its own symbols and its own orders. */
export interface StrategyHandlers {
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  onDepthSnapshot?(ev: DepthSnapshotEvent): void | Promise<void>;
  onDepthUpdate?(ev: DepthUpdateEvent): void | Promise<void>;
  onTrade?(ev: TradeEvent): void | Promise<void>;
  onKline?(ev: KlineEvent): void | Promise<void>;
  onTicker?(ev: TickerEvent): void | Promise<void>;
  onIndex?(ev: IndexEvent): void | Promise<void>;
  onFunding?(ev: FundingEvent): void | Promise<void>;
  /** Each change of this strategy's own orders, once and in order (NEW once, one per fill, one terminal). */
  onOrder?(ev: OrderView): void | Promise<void>;
  /** Each fill of this strategy's own orders, once, just before the order change it causes; the book already holds it. */
  onFill?(fill: OrderFill): void | Promise<void>;
  onPosition?(ev: PositionUpdateEvent): void | Promise<void>;
  onBalance?(ev: BalanceUpdateEvent): void | Promise<void>;
  onConnection?(ev: ConnectionStateEvent): void | Promise<void>;
  onReconnected?(ev: ReconnectedEvent): void | Promise<void>;
  /** One of this strategy's intents was refused by the risk gate (nothing was sent). */
  onDenied?(notice: DenialNotice): void | Promise<void>;
}

/** A plugin: its manifest and the factory that builds one instance from a context. */
export interface StrategyDefinition<P extends z.ZodType = z.ZodType> {
  readonly manifest: StrategyManifest<P>;
  create(ctx: StrategyContext<z.output<P>>): StrategyHandlers;
}
