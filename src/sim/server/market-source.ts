/** What the market WebSocket reads from the engine: books, trades, klines, tickers, index prices, and the events that move them. */

/** A `[price, quantity]` level as decimal strings. */
export type WsLevel = [string, string];

/** A market event the stream reacts to. */
export type MarketSourceEvent =
  | { readonly type: 'trade'; readonly symbol: string; readonly id: string; readonly time: number; readonly price: string; readonly qty: string; readonly isBuyerMaker: boolean }
  | { readonly type: 'book'; readonly symbol: string; readonly side: 'BID' | 'ASK'; readonly price: string; readonly qty: string };

/** Read access to the engine's market data. */
export interface MarketSource {
  /** Returns true for a spot symbol or contract the venue trades. */
  hasSymbol(symbol: string): boolean;
  /** Returns true for a contract (its depth cadences differ). */
  isContract(symbol: string): boolean;
  /** Returns the best `limit` levels of each side, best first. */
  depth(symbol: string, limit: number): { bids: WsLevel[]; asks: WsLevel[] };
  /** Returns the symbol's fixed number on the venue (from 1), the second part of its book versions. */
  bookId(symbol: string): number;
  /** Returns the last `limit` public trades, oldest first. */
  recentTrades(symbol: string, limit: number): { id: string; time: number; price: string; qty: string; isBuyerMaker: boolean }[];
  /** Returns the kline of `interval` that holds `now`, or undefined before any trade. */
  kline(symbol: string, interval: string, now: number): { t: number; o: string; h: string; l: string; c: string; v: string } | undefined;
  /** Returns the rolling 24-hour ticker. */
  ticker(symbol: string, now: number): { o: string; h: string; l: string; c: string; v: string; qv: string; m: string };
  /** Returns the index price and estimated delivery price of an index symbol, or undefined when the venue has none. */
  index(symbol: string): { index: string; edp: string } | undefined;
  /** Brings an outside market up to the clock before a push reads it (absent: the engine is always current). */
  sync?(): void;
  /** Calls `fn` with every trade and book change; returns an unsubscribe function. */
  subscribe(fn: (ev: MarketSourceEvent) => void): () => void;
}
