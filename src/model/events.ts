/** The normalised, immutable events every transport publishes on the bus, and the factories that build them. */
import { ParseError } from '../core/errors.ts';
import type {
  ContractOrderStatus, ContractOrderType, ContractSide, KlineInterval, PositionSide, SpotNewOrderType, SpotOrderStatus, SpotSide,
} from './enums.ts';
import type { Candle, Level } from './market.ts';

// Every event carries `ts` (the venue's time, epoch ms; the receive time when the venue sends none)
// and `recvTs` (the local clock's time when the payload arrived). Decimals stay the venue's strings:
// the bus neither parses nor rounds; hot consumers scale them with core/fixed once, where they need to.
// Factories copy each field into a fresh literal of one fixed shape (no spread: ~480 ns per event,
// DESIGN.md) so that every event of a kind shares one hidden class and a caller's object never leaks in.

/** Which link a connection event speaks of. */
export type ConnectionName = 'market' | 'user';

/** The states of one connection, in the order a healthy link passes through them. */
export type ConnectionStatus = 'connecting' | 'open' | 'ready' | 'reconnecting' | 'closed';

/** The account family of a balance or an order report. */
export type AccountKind = 'spot' | 'contract';

/** Order status as reports carry it (PENDING_CANCEL is spot only). */
export type ReportOrderStatus = SpotOrderStatus | ContractOrderStatus;

/** Order side as reports carry it: BUY/SELL for spot and for real contract reports, the four contract sides otherwise. */
export type ReportSide = SpotSide | ContractSide;

/** Order type as reports carry it. */
export type ReportOrderType = SpotNewOrderType | ContractOrderType;

interface Timed {
  /** Venue time (epoch ms); the receive time when the payload carries none. */
  readonly ts: number;
  /** Local clock time (epoch ms) when the payload arrived. */
  readonly recvTs: number;
}

interface DepthFields extends Timed {
  readonly symbol: string;
  /** The venue's book version (e.g. "112801745_18"), compared by the local book to detect gaps. */
  readonly version: string;
  /** Best to worst; [price, qty] decimal strings, and in an update a qty of "0" removes the level. */
  readonly bids: readonly Level[];
  /** Best to worst. */
  readonly asks: readonly Level[];
}

/** The whole visible book (or its top levels) at one version. */
export interface DepthSnapshotEvent extends DepthFields {
  readonly kind: 'depthSnapshot';
}

/** Level changes since the previous version; a quantity of "0" removes the level. */
export interface DepthUpdateEvent extends DepthFields {
  readonly kind: 'depthUpdate';
}

/**
 * One book message's level changes as typed arrays: what a replay of recorded data publishes instead of
 * depthSnapshot/depthUpdate when asked for batches (no live client sends it). Row i sets the level at
 * `price[i]` ticks on `side[i]` (1 bid, 2 ask; 0 a row that changed no level) to `qty[i]` lots, 0 removing it.
 * With `snapshot` the rows are the whole book, replacing every level. Ticks and lots are exact integers
 * (below 2^53) of the instrument's `tick` and `lot`: the decimal price is price[i] × tick. The arrays are
 * the receiver's to read and keep, never to write (they may be views into the replay's decoded columns).
 */
export interface DepthBatchEvent extends Timed {
  readonly kind: 'depthBatch';
  readonly symbol: string;
  /** The book version after the message, as in depthUpdate. */
  readonly version: string;
  readonly snapshot: boolean;
  readonly tick: string;
  readonly lot: string;
  readonly side: Int32Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
}

/** One public trade. */
export interface TradeEvent extends Timed {
  readonly kind: 'trade';
  readonly symbol: string;
  /** The venue's increasing trade id or version, as a string (64-bit). */
  readonly tradeId: string;
  readonly price: string;
  readonly qty: string;
  /** The side of the taker (the aggressor). */
  readonly takerSide: SpotSide;
}

/** One candle; `closed` is false while the interval is still open. */
export interface KlineEvent extends Timed, Candle {
  readonly kind: 'kline';
  readonly symbol: string;
  readonly interval: KlineInterval;
  readonly closed: boolean;
}

/** A rolling 24-hour ticker. */
export interface TickerEvent extends Timed {
  readonly kind: 'ticker';
  readonly symbol: string;
  readonly last: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly volume: string;
  readonly quoteVolume: string | undefined;
}

/** An index price and, for contracts, the estimated delivery price. */
export interface IndexEvent extends Timed {
  readonly kind: 'index';
  readonly symbol: string;
  readonly index: string;
  readonly edp: string | undefined;
}

/** A funding rate for one 8-hour interval (predicted while the interval is open). */
export interface FundingEvent extends Timed {
  readonly kind: 'funding';
  readonly symbol: string;
  readonly rate: string;
  readonly intervalStart: number;
  readonly intervalEnd: number;
}

/** One order report of the user stream (executionReport or contractExecutionReport); `ts` is its `E`. */
export interface OrderUpdateEvent extends Timed {
  readonly kind: 'order';
  readonly account: AccountKind;
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly status: ReportOrderStatus;
  readonly side: ReportSide;
  readonly type: ReportOrderType;
  readonly timeInForce: string;
  readonly price: string;
  readonly origQty: string;
  readonly executedQty: string;
  /** Cumulative quote transacted (`Z`); average price is this divided by executedQty. */
  readonly cumQuote: string;
  readonly lastQty: string;
  readonly lastPrice: string;
  /** The trade id of the fill this report carries (`t`), when the venue sends one. */
  readonly tradeId: string | undefined;
  readonly fee: string;
  /** Undefined when the venue sends none (a report without a fill). */
  readonly feeAsset: string | undefined;
  readonly maker: boolean;
  /** Order creation time (`O`). */
  readonly createdTs: number;
  /** Contract reports only: whether the order closes a position (`C`). */
  readonly closeOrder: boolean | undefined;
  /** Contract reports only: the order's leverage (`v`). */
  readonly leverage: string | undefined;
}

/** A contract position as the user stream reports it. */
export interface PositionUpdateEvent extends Timed {
  readonly kind: 'position';
  readonly symbol: string;
  readonly accountId: string;
  readonly side: PositionSide;
  readonly avgPrice: string;
  readonly position: string;
  readonly available: string;
  readonly liquidationPrice: string;
  readonly margin: string;
  readonly realizedPnl: string;
}

/** One asset's balance after a change (one event per entry of the venue's `B` array). */
export interface BalanceUpdateEvent extends Timed {
  readonly kind: 'balance';
  readonly account: AccountKind;
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
}

/** A connection moved to a new state. */
export interface ConnectionStateEvent extends Timed {
  readonly kind: 'connection';
  readonly connection: ConnectionName;
  readonly state: ConnectionStatus;
  /** Why it moved (close code, error message), empty when it simply progressed. */
  readonly reason: string;
}

/** A connection is back after a loss: books re-snapshot and the executor reconciles orders from `downSince`. */
export interface ReconnectedEvent extends Timed {
  readonly kind: 'reconnected';
  readonly connection: ConnectionName;
  /** Local clock time when the link was lost; events between this and `recvTs` may be missing. */
  readonly downSince: number;
  /** Which reconnect this is on this connection (1 for the first). */
  readonly attempt: number;
}

/** Every event the bus carries. */
export type BusEvent =
  | DepthSnapshotEvent
  | DepthUpdateEvent
  | DepthBatchEvent
  | TradeEvent
  | KlineEvent
  | TickerEvent
  | IndexEvent
  | FundingEvent
  | OrderUpdateEvent
  | PositionUpdateEvent
  | BalanceUpdateEvent
  | ConnectionStateEvent
  | ReconnectedEvent;

/** The discriminant of BusEvent. */
export type EventKind = BusEvent['kind'];

/** The event type of one kind. */
export type EventOf<K extends EventKind> = Extract<BusEvent, { readonly kind: K }>;

/** The kinds whose events name a symbol, and so can be routed per symbol. */
export type SymbolEventKind = Extract<BusEvent, { readonly symbol: string }>['kind'];

/** Every kind, in a fixed order (for tables keyed by kind). */
export const EVENT_KINDS: readonly EventKind[] = [
  'depthSnapshot', 'depthUpdate', 'depthBatch', 'trade', 'kline', 'ticker', 'index', 'funding',
  'order', 'position', 'balance', 'connection', 'reconnected',
];

/** The fields a factory takes: the event without its `kind`. */
export type EventInit<E extends BusEvent> = Omit<E, 'kind'>;

/** Returns a depth snapshot event. */
export function depthSnapshotEvent(f: EventInit<DepthSnapshotEvent>): DepthSnapshotEvent {
  return { kind: 'depthSnapshot', symbol: f.symbol, version: f.version, bids: f.bids, asks: f.asks, ts: f.ts, recvTs: f.recvTs };
}

/** Returns a depth update (diff) event. */
export function depthUpdateEvent(f: EventInit<DepthUpdateEvent>): DepthUpdateEvent {
  return { kind: 'depthUpdate', symbol: f.symbol, version: f.version, bids: f.bids, asks: f.asks, ts: f.ts, recvTs: f.recvTs };
}

/** Returns a depth batch event. */
export function depthBatchEvent(f: EventInit<DepthBatchEvent>): DepthBatchEvent {
  return {
    kind: 'depthBatch', symbol: f.symbol, version: f.version, snapshot: f.snapshot, tick: f.tick, lot: f.lot,
    side: f.side, price: f.price, qty: f.qty, ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns a public trade event. */
export function tradeEvent(f: EventInit<TradeEvent>): TradeEvent {
  return { kind: 'trade', symbol: f.symbol, tradeId: f.tradeId, price: f.price, qty: f.qty, takerSide: f.takerSide, ts: f.ts, recvTs: f.recvTs };
}

/** Returns a kline event. */
export function klineEvent(f: EventInit<KlineEvent>): KlineEvent {
  return {
    kind: 'kline', symbol: f.symbol, interval: f.interval, openTime: f.openTime, open: f.open, high: f.high,
    low: f.low, close: f.close, volume: f.volume, closed: f.closed, ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns a 24-hour ticker event. */
export function tickerEvent(f: EventInit<TickerEvent>): TickerEvent {
  return {
    kind: 'ticker', symbol: f.symbol, last: f.last, open: f.open, high: f.high, low: f.low, volume: f.volume,
    quoteVolume: f.quoteVolume, ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns an index price event. */
export function indexEvent(f: EventInit<IndexEvent>): IndexEvent {
  return { kind: 'index', symbol: f.symbol, index: f.index, edp: f.edp, ts: f.ts, recvTs: f.recvTs };
}

/** Returns a funding rate event. */
export function fundingEvent(f: EventInit<FundingEvent>): FundingEvent {
  return {
    kind: 'funding', symbol: f.symbol, rate: f.rate, intervalStart: f.intervalStart, intervalEnd: f.intervalEnd,
    ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns an order update event (spot or contract report). */
export function orderUpdateEvent(f: EventInit<OrderUpdateEvent>): OrderUpdateEvent {
  return {
    kind: 'order', account: f.account, symbol: f.symbol, clientOrderId: f.clientOrderId, orderId: f.orderId,
    status: f.status, side: f.side, type: f.type, timeInForce: f.timeInForce, price: f.price, origQty: f.origQty,
    executedQty: f.executedQty, cumQuote: f.cumQuote, lastQty: f.lastQty, lastPrice: f.lastPrice, tradeId: f.tradeId, fee: f.fee,
    feeAsset: f.feeAsset, maker: f.maker, createdTs: f.createdTs, closeOrder: f.closeOrder, leverage: f.leverage,
    ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns a position update event. */
export function positionUpdateEvent(f: EventInit<PositionUpdateEvent>): PositionUpdateEvent {
  return {
    kind: 'position', symbol: f.symbol, accountId: f.accountId, side: f.side, avgPrice: f.avgPrice,
    position: f.position, available: f.available, liquidationPrice: f.liquidationPrice, margin: f.margin,
    realizedPnl: f.realizedPnl, ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns a balance update event. */
export function balanceUpdateEvent(f: EventInit<BalanceUpdateEvent>): BalanceUpdateEvent {
  return { kind: 'balance', account: f.account, asset: f.asset, free: f.free, locked: f.locked, ts: f.ts, recvTs: f.recvTs };
}

/** Returns a connection state event. */
export function connectionStateEvent(f: EventInit<ConnectionStateEvent>): ConnectionStateEvent {
  return { kind: 'connection', connection: f.connection, state: f.state, reason: f.reason, ts: f.ts, recvTs: f.recvTs };
}

/** Returns a reconnected event. */
export function reconnectedEvent(f: EventInit<ReconnectedEvent>): ReconnectedEvent {
  return {
    kind: 'reconnected', connection: f.connection, downSince: f.downSince, attempt: f.attempt,
    ts: f.ts, recvTs: f.recvTs,
  };
}

/** Returns the symbol an event is about, or undefined for account-wide and connection events. */
export function symbolOf(ev: BusEvent): string | undefined {
  switch (ev.kind) {
    case 'depthSnapshot':
    case 'depthUpdate':
    case 'depthBatch':
    case 'trade':
    case 'kline':
    case 'ticker':
    case 'index':
    case 'funding':
    case 'order':
    case 'position':
      return ev.symbol;
    case 'balance':
    case 'connection':
    case 'reconnected':
      return undefined;
    default:
      return assertNeverEvent(ev);
  }
}

function assertNeverEvent(ev: never): never {
  throw new ParseError('kind', `is not a known event kind: ${JSON.stringify((ev as { kind?: unknown }).kind)}`);
}
