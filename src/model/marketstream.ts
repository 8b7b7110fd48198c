/** Market WebSocket messages (venue-notes §3): subscription requests, push envelopes and their elements, errors and heartbeats. */
import { ParseError } from '../core/errors.ts';
import { KLINE_INTERVALS, type KlineInterval } from './enums.ts';
import type { Level } from './market.ts';
import {
  asObject,
  at,
  levelOf,
  listOf,
  optDecimal,
  optId,
  optInt,
  optString,
  reqBool,
  reqDecimal,
  reqId,
  reqString,
  reqTime,
  type WireObject,
} from './wire.ts';

/** A trade element: `v` an increasing id, `m` true when the buyer was the taker. */
export interface TradeTick {
  readonly id: string;
  readonly time: number;
  readonly price: string;
  readonly qty: string;
  readonly buyerIsTaker: boolean;
}

/** A depth, diffDepth or mergedDepth element; in diffDepth a quantity "0" removes the level. */
export interface DepthTick {
  readonly symbol?: string;
  readonly time: number;
  readonly version: string;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

export interface KlineTick {
  readonly time: number;
  readonly symbol: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

/** A realtimes (24h ticker) element; `t` arrives as a string here. */
export interface RealtimeTick extends KlineTick {
  readonly quoteVolume: string;
  /** Change ratio `m`, where sent. */
  readonly change?: string;
}

export interface IndexTick {
  readonly symbol: string;
  readonly index: string;
  readonly edp: string;
  readonly formula?: string;
}

interface PushBase {
  readonly symbol: string;
  readonly params: WireObject;
  /** True on the first message after subscribing (a snapshot). */
  readonly first: boolean;
}

export type MarketPush =
  | (PushBase & { readonly kind: 'trade'; readonly data: readonly TradeTick[] })
  | (PushBase & { readonly kind: 'depth' | 'diffDepth' | 'mergedDepth'; readonly data: readonly DepthTick[] })
  | (PushBase & { readonly kind: 'kline'; readonly interval: KlineInterval; readonly data: readonly KlineTick[] })
  | (PushBase & { readonly kind: 'realtimes'; readonly data: readonly RealtimeTick[] })
  | (PushBase & { readonly kind: 'index'; readonly data: readonly IndexTick[] })
  /** The element shape of bookTicker is not published: elements are kept as sent. */
  | (PushBase & { readonly kind: 'bookTicker'; readonly data: readonly WireObject[] })
  | (PushBase & { readonly kind: 'unknown'; readonly topic: string; readonly data: readonly unknown[] });

/** An error frame; `code` is a string on this socket (e.g. "-10002"). */
export interface MarketError {
  readonly kind: 'error';
  readonly code: string;
  readonly desc: string;
}

export interface MarketHeartbeat {
  readonly kind: 'ping' | 'pong';
  readonly at: number;
}

export type MarketMessage = MarketPush | MarketError | MarketHeartbeat;

export const MARKET_EVENTS = ['sub', 'cancel', 'cancel_all'] as const;
export type MarketEvent = (typeof MARKET_EVENTS)[number];

/** A client request on the market socket: a subscription change or a ping. */
export type MarketRequest =
  | {
    readonly kind: 'subscription';
    readonly event: MarketEvent;
    readonly symbols: readonly string[];
    readonly topic: string;
    readonly params: WireObject;
    readonly id?: string;
  }
  | { readonly kind: 'ping'; readonly at: number };

/** Returns a trade element. */
export function parseTradeTick(raw: unknown, path = 'trade'): TradeTick {
  const o = asObject(raw, path);
  return { id: reqId(o, 'v', path), time: reqTime(o, 't', path), price: reqDecimal(o, 'p', path), qty: reqDecimal(o, 'q', path), buyerIsTaker: reqBool(o, 'm', path) };
}

/** Returns a depth element (depth, diffDepth, mergedDepth). */
export function parseDepthTick(raw: unknown, path = 'depth'): DepthTick {
  const o = asObject(raw, path);
  return {
    symbol: optString(o, 's', path),
    time: reqTime(o, 't', path),
    version: reqId(o, 'v', path),
    bids: o['b'] === undefined ? [] : listOf(o['b'], at(path, 'b'), levelOf),
    asks: o['a'] === undefined ? [] : listOf(o['a'], at(path, 'a'), levelOf),
  };
}

/** Returns a kline element. */
export function parseKlineTick(raw: unknown, path = 'kline'): KlineTick {
  const o = asObject(raw, path);
  return {
    time: reqTime(o, 't', path),
    symbol: reqString(o, 's', path),
    open: reqDecimal(o, 'o', path),
    high: reqDecimal(o, 'h', path),
    low: reqDecimal(o, 'l', path),
    close: reqDecimal(o, 'c', path),
    volume: reqDecimal(o, 'v', path),
  };
}

/** Returns a realtimes (24h ticker) element. */
export function parseRealtimeTick(raw: unknown, path = 'realtimes'): RealtimeTick {
  const o = asObject(raw, path);
  // Same t/s/o/h/l/c/v fields as a kline element.
  return Object.assign(parseKlineTick(o, path), { quoteVolume: reqDecimal(o, 'qv', path), change: optDecimal(o, 'm', path) });
}

/** Returns an index element. */
export function parseIndexTick(raw: unknown, path = 'index'): IndexTick {
  const o = asObject(raw, path);
  return { symbol: reqString(o, 'symbol', path), index: reqDecimal(o, 'index', path), edp: reqDecimal(o, 'edp', path), formula: optString(o, 'formula', path) };
}

/** Returns a diffDepth level `[price, qty]` (a quantity of "0" removes the level). */
export function parseLevel(raw: unknown, path = 'level'): Level {
  return levelOf(raw, path);
}

function klineInterval(topic: string, params: WireObject, path: string): KlineInterval {
  // Topics are `kline_<interval>`; the official sample instead sends topic `kline` with params.klineType.
  const fromTopic = topic.startsWith('kline_') ? topic.slice('kline_'.length) : undefined;
  const raw = fromTopic ?? params['klineType'];
  if (typeof raw === 'string' && (KLINE_INTERVALS as readonly string[]).includes(raw)) return raw as KlineInterval;
  throw new ParseError(fromTopic !== undefined ? at(path, 'topic') : at(path, 'params.klineType'), `must name a kline interval (${KLINE_INTERVALS.join(', ')}), got ${JSON.stringify(raw)}`);
}

/** Returns a push envelope `{symbol, topic, params, data[], f}` with its elements parsed by topic. */
export function parseMarketPush(raw: unknown, path = 'message'): MarketPush {
  const o = asObject(raw, path);
  const topic = reqString(o, 'topic', path);
  const params = o['params'] === undefined || o['params'] === null ? {} : asObject(o['params'], at(path, 'params'));
  const symbol = reqString(o, 'symbol', path);
  const first = o['f'] === undefined ? false : reqBool(o, 'f', path);
  const dataPath = at(path, 'data');
  const data = o['data'];
  // Each push is written out whole: on Node 20, an object literal that starts with a spread and adds keys gets a hidden class of its own, every time.
  if (topic === 'kline' || topic.startsWith('kline_')) {
    return { symbol, params, first, kind: 'kline', interval: klineInterval(topic, params, path), data: listOf(data, dataPath, parseKlineTick) };
  }
  switch (topic) {
    case 'trade':
      return { symbol, params, first, kind: 'trade', data: listOf(data, dataPath, parseTradeTick) };
    case 'depth':
    case 'diffDepth':
    case 'mergedDepth':
      return { symbol, params, first, kind: topic, data: listOf(data, dataPath, parseDepthTick) };
    case 'realtimes':
      return { symbol, params, first, kind: 'realtimes', data: listOf(data, dataPath, parseRealtimeTick) };
    case 'index':
      return { symbol, params, first, kind: 'index', data: listOf(data, dataPath, parseIndexTick) };
    case 'bookTicker':
      return { symbol, params, first, kind: 'bookTicker', data: listOf(data, dataPath, asObject) };
    default:
      return { symbol, params, first, kind: 'unknown', topic, data: listOf(data, dataPath, (el) => el) };
  }
}

/** Returns any server message of the market socket: a push, an error frame, or a heartbeat. */
export function parseMarketMessage(raw: unknown, path = 'message'): MarketMessage {
  const o = asObject(raw, path);
  if (o['pong'] !== undefined) return { kind: 'pong', at: reqTime(o, 'pong', path) };
  if (o['ping'] !== undefined) return { kind: 'ping', at: reqTime(o, 'ping', path) };
  if (o['code'] !== undefined && o['topic'] === undefined) {
    return { kind: 'error', code: reqId(o, 'code', path), desc: optString(o, 'desc', path) ?? optString(o, 'msg', path) ?? '' };
  }
  return parseMarketPush(o, path);
}

/** Returns a client request of the market socket (what the simulated venue receives). */
export function parseMarketRequest(raw: unknown, path = 'request'): MarketRequest {
  const o = asObject(raw, path);
  if (o['ping'] !== undefined && o['event'] === undefined) return { kind: 'ping', at: reqTime(o, 'ping', path) };
  const event = reqString(o, 'event', path);
  if (!(MARKET_EVENTS as readonly string[]).includes(event)) {
    throw new ParseError(at(path, 'event'), `must be one of ${MARKET_EVENTS.join(', ')}, got ${JSON.stringify(event)}`);
  }
  const symbolText = optString(o, 'symbol', path) ?? '';
  return {
    kind: 'subscription',
    event: event as MarketEvent,
    symbols: symbolText.split(',').map((s) => s.trim()).filter((s) => s.length > 0),
    topic: event === 'cancel_all' ? (optString(o, 'topic', path) ?? '') : reqString(o, 'topic', path),
    params: o['params'] === undefined || o['params'] === null ? {} : asObject(o['params'], at(path, 'params')),
    id: optId(o, 'id', path),
  };
}

/** Returns the kline limit of a subscription's params, where given (sent as a number or a string). */
export function subscriptionLimit(params: WireObject, path = 'params'): number | undefined {
  return optInt(params, 'limit', path);
}

/** Returns true when a parsed diffDepth level removes its price (quantity "0"; levels are normalised, so "0.000" is "0" too). */
export function isRemoval(level: Level): boolean {
  return level[1] === '0';
}
