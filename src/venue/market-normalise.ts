/** Turns market pushes and polled answers into bus events: trades past the last id, klines as open then closed, tickers and index prices. */
import {
  indexEvent,
  klineEvent,
  tickerEvent,
  tradeEvent,
  type KlineEvent,
} from '../model/events.ts';
import type { KlineInterval } from '../model/enums.ts';
import type { Candle } from '../model/market.ts';
import type { IndexTick, RealtimeTick, TradeTick } from '../model/marketstream.ts';
import type { EventSink } from './ws-connection.ts';

/** Returns -1, 0 or 1 comparing two decimal id strings (64-bit, so never through a JS number). */
export function compareIds(a: string, b: string): -1 | 0 | 1 {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** The values of one candle as either transport gives them. */
export type CandleValues = Candle;

interface OpenCandle {
  values: CandleValues;
}

/**
 * Klines of every symbol and interval: each update of the current candle is published open
 * (`closed: false`) when it changed, and a candle is published once more as closed when a later one starts.
 */
export class KlineTracker {
  private readonly open = new Map<string, OpenCandle>();

  constructor(private readonly sink: EventSink) {}

  /** Takes the current candle of `symbol`/`interval`; older candles than the current one are ignored. */
  update(symbol: string, interval: KlineInterval, k: CandleValues, ts: number, recvTs: number): void {
    const key = `${symbol}|${interval}`;
    const cur = this.open.get(key);
    if (cur && k.openTime < cur.values.openTime) return;
    if (cur && k.openTime > cur.values.openTime) {
      this.sink(this.event(symbol, interval, cur.values, true, ts, recvTs));
    }
    if (cur && k.openTime === cur.values.openTime && sameCandle(cur.values, k)) return;
    this.open.set(key, { values: k });
    this.sink(this.event(symbol, interval, k, false, ts, recvTs));
  }

  /** Publishes a candle known to be finished (a polled one older than the current), unless it was already closed. */
  close(symbol: string, interval: KlineInterval, k: CandleValues, ts: number, recvTs: number): void {
    const key = `${symbol}|${interval}`;
    const cur = this.open.get(key);
    if (!cur || k.openTime !== cur.values.openTime) return;
    this.open.delete(key);
    this.sink(this.event(symbol, interval, k, true, ts, recvTs));
  }

  /** Returns the open time of the current candle, if one was seen. */
  currentOpenTime(symbol: string, interval: KlineInterval): number | undefined {
    return this.open.get(`${symbol}|${interval}`)?.values.openTime;
  }

  private event(symbol: string, interval: KlineInterval, k: CandleValues, closed: boolean, ts: number, recvTs: number): KlineEvent {
    return klineEvent({
      symbol, interval, openTime: k.openTime, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume, closed, ts, recvTs,
    });
  }
}

function sameCandle(a: CandleValues, b: CandleValues): boolean {
  return a.open === b.open && a.high === b.high && a.low === b.low && a.close === b.close && a.volume === b.volume;
}

/**
 * Public trades of the socket, published once each: a trade whose id is not above the last one
 * published for its symbol is dropped (a snapshot after a reconnect repeats recent trades).
 */
export class TradeGate {
  private readonly last = new Map<string, string>();

  constructor(private readonly sink: EventSink, private readonly initialHistory: boolean) {}

  /** Publishes the trades of one push; a first snapshot only sets the cursor unless history was asked for. */
  push(symbol: string, data: readonly TradeTick[], snapshot: boolean, recvTs: number): void {
    let last = this.last.get(symbol);
    if (snapshot && last === undefined && !this.initialHistory) {
      for (const t of data) if (last === undefined || compareIds(t.id, last) > 0) last = t.id;
      if (last !== undefined) this.last.set(symbol, last);
      return;
    }
    for (let i = 0; i < data.length; i++) {
      const t = data[i]!;
      if (last !== undefined && compareIds(t.id, last) <= 0) continue;
      last = t.id;
      this.sink(tradeEvent({ symbol, tradeId: t.id, price: t.price, qty: t.qty, takerSide: t.buyerIsTaker ? 'BUY' : 'SELL', ts: t.time, recvTs }));
    }
    if (last !== undefined) this.last.set(symbol, last);
  }
}

/** Publishes realtimes elements as 24-hour tickers. */
export function publishTickers(sink: EventSink, data: readonly RealtimeTick[], recvTs: number): void {
  for (const r of data) {
    sink(tickerEvent({
      symbol: r.symbol, last: r.close, open: r.open, high: r.high, low: r.low, volume: r.volume, quoteVolume: r.quoteVolume, ts: r.time, recvTs,
    }));
  }
}

/** Publishes index elements; they carry no time, so `ts` is the receive time. */
export function publishIndex(sink: EventSink, data: readonly IndexTick[], recvTs: number): void {
  for (const x of data) sink(indexEvent({ symbol: x.symbol, index: x.index, edp: x.edp, ts: recvTs, recvTs }));
}
