/** The simulated venue: engine (books, matching, events, market data), agents, and the accounts and contracts it settles through. */
export { SimVenue, type ContractAccountView, type OrderQuery, type TradeQuery } from './engine/venue.ts';
export type { ContractInfoView, FundingConfig, FundingRateView, InsuranceView } from './engine/derivatives.ts';
export { STATE_VERSION, type VenueStateData } from './engine/state.ts';
export type { SimVenueConfig, SimAccountConfig, AgentsConfig } from './engine/config.ts';
export type { SimEvent, SimEventBody, SimEventListener } from './engine/events.ts';
export type { SpotOrderParams } from './engine/spot.ts';
export type { ContractOrderParams } from './engine/contract.ts';
export type * from './engine/views.ts';
export type { DepthView, TradeView, KlineView, Ticker24, BookTickerView } from './engine/market.ts';
export { OrderBook, BID, ASK, type BookEntry, type BookSide } from './book/order-book.ts';
export { ContractAgents, MarketAgents, ReferencePrice } from './agents/index.ts';
