/** Market data views derived from the books and the trades: depth, recent trades, klines, 24h tickers, book and price tickers. */
import { isKlineInterval, type KlineInterval } from '../../model/enums.ts';
import { ASK, BID } from '../book/order-book.ts';
import { bigQuoteText } from './core.ts';
import type { SimInstrument } from './instruments.ts';
import { barQuote } from './klines.ts';
import { invalidParam, reject } from './reject.ts';

/** Depth: best first on both sides, [price, qty] texts. */
export interface DepthView {
  time: number;
  bids: [string, string][];
  asks: [string, string][];
}

/** A public trade as the trades endpoint answers it. */
export interface TradeView {
  price: string;
  qty: string;
  time: number;
  isBuyerMaker: boolean;
}

/** A kline: open time, open, high, low, close, volume, close time, quote volume, trades, taker buy base, taker buy quote. */
export type KlineView = [number, string, string, string, string, string, number, string, number, string, string];

/** The 24h statistics of a symbol in texts. */
export interface Ticker24 {
  time: number;
  symbol: string;
  bestBidPrice: string;
  bestAskPrice: string;
  lastPrice: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  volume: string;
  quoteVolume: string;
}

/** A book ticker. */
export interface BookTickerView {
  symbol: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
}

/** Returns `limit` clamped into [1, max] (real servers clamp rather than reject), `dflt` when absent. */
export function clampLimit(limit: number | undefined, dflt: number, max: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return dflt;
  return Math.min(max, Math.max(1, Math.floor(limit)));
}

/** Returns the book's depth, best first. */
export function depthOf(inst: SimInstrument, limit: number, time: number): DepthView {
  const side = (s: 0 | 1): [string, string][] => inst.book.levels(s, limit).map(([p, q]) => [inst.priceText(p), inst.qtyText(q)]);
  return { time, bids: side(BID), asks: side(ASK) };
}

/** Returns the last `limit` public trades, oldest first. */
export function tradesOf(inst: SimInstrument, limit: number): TradeView[] {
  const list = inst.trades;
  return list.slice(Math.max(0, list.length - limit)).map((t) => ({ price: inst.priceText(t.price), qty: inst.qtyText(t.lots), time: t.time, isBuyerMaker: t.isBuyerMaker }));
}

/** Returns klines of `interval`; throws -1120 for an interval outside venue-api.md's list. */
export function klinesOf(inst: SimInstrument, interval: string, limit: number, startTime?: number, endTime?: number): KlineView[] {
  if (!isKlineInterval(interval)) throw reject(-1120, [], { interval });
  return inst.klines.klines(interval as KlineInterval, limit, startTime, endTime).map((b) => [
    b.openTime, inst.priceText(b.open), inst.priceText(b.high), inst.priceText(b.low), inst.priceText(b.close), inst.qtyText(b.volume),
    b.closeTime, bigQuoteText(inst, barQuote(b)), b.trades, inst.qtyText(b.takerBuyVolume), bigQuoteText(inst, barQuote(b, true)),
  ]);
}

/** Returns the 24h statistics of a symbol as of `now` ("0" fields before any trade). */
export function ticker24Of(inst: SimInstrument, now: number): Ticker24 {
  const t = inst.klines.ticker(now);
  const bid = inst.book.bestBid();
  const ask = inst.book.bestAsk();
  return {
    time: now,
    symbol: inst.symbol,
    bestBidPrice: bid === undefined ? '0' : inst.priceText(bid),
    bestAskPrice: ask === undefined ? '0' : inst.priceText(ask),
    lastPrice: t ? inst.priceText(t.close) : '0',
    openPrice: t ? inst.priceText(t.open) : '0',
    highPrice: t ? inst.priceText(t.high) : '0',
    lowPrice: t ? inst.priceText(t.low) : '0',
    volume: t ? inst.qtyText(t.volume) : '0',
    quoteVolume: t ? bigQuoteText(inst, t.quote) : '0',
  };
}

/** Returns the book ticker of a symbol ("0" for an empty side). */
export function bookTickerOf(inst: SimInstrument): BookTickerView {
  const b = inst.book.bestLevel(BID);
  const a = inst.book.bestLevel(ASK);
  return {
    symbol: inst.symbol,
    bidPrice: b ? inst.priceText(b.price) : '0',
    bidQty: b ? inst.qtyText(b.qty) : '0',
    askPrice: a ? inst.priceText(a.price) : '0',
    askQty: a ? inst.qtyText(a.qty) : '0',
  };
}

/** Returns the instrument of `symbol` of the wanted kind, or throws -1130 for 'symbol'. */
export function needInstrument(map: ReadonlyMap<string, SimInstrument>, symbol: string, kind?: 'spot' | 'contract'): SimInstrument {
  const inst = map.get(symbol);
  if (!inst || (kind === 'spot' && inst.kind !== 'spot') || (kind === 'contract' && inst.kind === 'spot')) throw invalidParam('symbol', 'unknown symbol');
  return inst;
}
