/**
 * The package's public entry, `import … from 'bhtrade'`: what a strategy in any folder or package
 * needs (defineStrategy, the context and handler types, events and instruments, exact units, zod
 * and Decimal), so it never reaches into the package's source tree.
 */
export { z } from 'zod';
export { Decimal } from '../core/fixed.ts';
export type { Clock, TimerHandle } from '../core/clock.ts';
export type { Logger } from '../core/logger.ts';
export type {
  BalanceUpdateEvent, BusEvent, ConnectionStateEvent, DepthSnapshotEvent, DepthUpdateEvent, EventKind, EventOf, FundingEvent,
  IndexEvent, Instrument, Kline, KlineEndpointInterval, KlineEvent, KlineInterval, Level, OrderUpdateEvent, PositionSide,
  PositionUpdateEvent, PublicTrade, ReconnectedEvent, SymbolEventKind, TickerEvent, TradeEvent,
  BookPnl, BookSide, OrderFill, OrderOutcome, OrderView, OrderViewStatus, SymbolBook,
} from '../model/index.ts';
export type {
  BalanceView, BusReader, CloseRequest, ContractOrderRequest, DenialNotice, FeeRates, OpenOrderView, OrderApi, OrderRequest, PortfolioView,
  PositionView, SpotOrderRequest, StrategyContext, StrategyDefinition, StrategyHandlers, StrategyManifest,
} from './types.ts';
export type { HistoryApi, StreamRequest } from './streams.ts';
export { defineStrategy, STRATEGY_API_VERSION } from './define.ts';
export { toTicks, fromTicks, toSteps, fromSteps } from './units.ts';
export { SlidingWindow } from '../core/sliding-window.ts';
export { isFinalStatus } from '../model/order-view.ts';
