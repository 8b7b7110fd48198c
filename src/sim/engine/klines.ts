/** Klines of every interval and the rolling 24h ticker of one symbol, built incrementally from its trades on integer ticks and lots. */
import { KLINE_INTERVALS, klineIntervalMs, type KlineInterval } from '../../model/enums.ts';

const MAX_SAFE = 9007199254740991;
const DAY = 86_400_000;
/** 1970-01-05 was the first Monday: weeks open on Monday 00:00 UTC. */
const MONDAY = 4 * DAY;

/** One candle in integer units: prices in ticks, volumes in lots, quote volume in tick×lot units. */
export interface Bar {
  openTime: number;
  closeTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** Quote volume while it fits a safe integer; the overflow goes to quoteBig. */
  quote: number;
  quoteBig: bigint;
  trades: number;
  takerBuyVolume: number;
  takerBuyQuote: number;
  takerBuyQuoteBig: bigint;
}

/** Returns the total quote volume of a bar (or its taker-buy part) as a bigint of tick×lot units. */
export function barQuote(b: Bar, takerBuy = false): bigint {
  return takerBuy ? b.takerBuyQuoteBig + BigInt(b.takerBuyQuote) : b.quoteBig + BigInt(b.quote);
}

/** Returns [start, end) of the interval bucket holding time `t` (UTC; weeks from Monday; calendar months). */
export function bucketOf(interval: KlineInterval, t: number): [number, number] {
  const ms = klineIntervalMs(interval);
  if (ms !== undefined) {
    const off = interval === '1w' ? MONDAY : 0;
    const start = t - off - mod(t - off, ms) + off;
    return [start, start + ms];
  }
  const days = Math.floor(t / DAY);
  const [y, m] = civilFromDays(days);
  const start = daysFromCivil(y, m, 1) * DAY;
  const end = (m === 12 ? daysFromCivil(y + 1, 1, 1) : daysFromCivil(y, m + 1, 1)) * DAY;
  return [start, end];
}

function mod(a: number, b: number): number {
  const r = a % b;
  return r < 0 ? r + b : r;
}

/** Returns [year, month 1..12] of a day count since the epoch (H. Hinnant's civil_from_days). */
function civilFromDays(z0: number): [number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m];
}

/** Returns the day count since the epoch of a civil date (H. Hinnant's days_from_civil). */
function daysFromCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function newBar(openTime: number, closeTime: number, price: number): Bar {
  return {
    openTime, closeTime, open: price, high: price, low: price, close: price,
    volume: 0, quote: 0, quoteBig: 0n, trades: 0, takerBuyVolume: 0, takerBuyQuote: 0, takerBuyQuoteBig: 0n,
  };
}

function addTrade(b: Bar, price: number, lots: number, takerBuy: boolean, q: number, qBig: bigint): void {
  if (price > b.high) b.high = price;
  if (price < b.low) b.low = price;
  b.close = price;
  b.volume += lots;
  b.trades += 1;
  if (qBig === 0n && b.quote + q <= MAX_SAFE) b.quote += q;
  else b.quoteBig += qBig + BigInt(q);
  if (takerBuy) {
    b.takerBuyVolume += lots;
    if (qBig === 0n && b.takerBuyQuote + q <= MAX_SAFE) b.takerBuyQuote += q;
    else b.takerBuyQuoteBig += qBig + BigInt(q);
  }
}

/** One interval's candles: closed bars in time order (capped) and the open one. */
export class Series {
  readonly bars: Bar[] = [];
  /** How many bars were dropped from the front so far (absolute index = offset + local index). */
  offset = 0;
  /** End (exclusive) of the open bar's bucket. */
  end = -Infinity;

  constructor(readonly interval: KlineInterval, private readonly cap: number) {}

  add(time: number, price: number, lots: number, takerBuy: boolean, q: number, qBig: bigint): Bar {
    let cur = this.bars[this.bars.length - 1];
    if (!cur || time >= this.end || time < cur.openTime) {
      const [start, end] = bucketOf(this.interval, time);
      this.end = end;
      cur = newBar(start, end - 1, price);
      this.bars.push(cur);
      if (this.bars.length > this.cap) {
        const n = this.bars.length - this.cap;
        this.bars.splice(0, n);
        this.offset += n;
      }
    }
    addTrade(cur, price, lots, takerBuy, q, qBig);
    return cur;
  }
}

/** The 24h rolling window as a running sum over 1m bars; high and low are rescanned only when a bar holding them leaves. */
class Rolling {
  volume = 0;
  /** Quote volume as a safe-integer part and a bigint part (bigint work only when the number would leave the safe range). */
  quoteNum = 0;
  quoteBig = 0n;
  high = -Infinity;
  low = Infinity;
  /** Absolute index in the 1m series of the oldest bar in the window. */
  firstAbs = 0;
  counted: Bar | undefined;
  countedVolume = 0;
  countedNum = 0;
  countedBig = 0n;

  /** Returns the quote volume of the window. */
  get quote(): bigint {
    return this.quoteBig + BigInt(this.quoteNum);
  }

  private addQuote(num: number, big: bigint): void {
    if (big !== 0n) this.quoteBig += big;
    const n = this.quoteNum + num;
    if (n > MAX_SAFE || n < -MAX_SAFE) {
      this.quoteBig += BigInt(this.quoteNum) + BigInt(num);
      this.quoteNum = 0;
    } else {
      this.quoteNum = n;
    }
  }

  /** Brings the window up to `now` over the 1m series. */
  update(series: Series, now: number): void {
    const bars = series.bars;
    let first = Math.max(0, this.firstAbs - series.offset);
    const cur = bars[bars.length - 1];
    if (!cur) return;
    if (this.counted !== cur) {
      this.counted = cur;
      this.countedVolume = 0;
      this.countedNum = 0;
      this.countedBig = 0n;
    }
    this.volume += cur.volume - this.countedVolume;
    this.addQuote(cur.quote - this.countedNum, cur.quoteBig === this.countedBig ? 0n : cur.quoteBig - this.countedBig);
    this.countedVolume = cur.volume;
    this.countedNum = cur.quote;
    this.countedBig = cur.quoteBig;
    if (cur.high > this.high) this.high = cur.high;
    if (cur.low < this.low) this.low = cur.low;
    let rescan = false;
    while (first < bars.length - 1 && bars[first]!.openTime <= now - DAY) {
      const old = bars[first]!;
      this.volume -= old.volume;
      this.addQuote(-old.quote, -old.quoteBig);
      if (old.high >= this.high || old.low <= this.low) rescan = true;
      first += 1;
    }
    this.firstAbs = first + series.offset;
    if (rescan) {
      this.high = -Infinity;
      this.low = Infinity;
      for (let i = first; i < bars.length; i++) {
        if (bars[i]!.high > this.high) this.high = bars[i]!.high;
        if (bars[i]!.low < this.low) this.low = bars[i]!.low;
      }
    }
  }
}

/** The 24h ticker of a symbol in integer units. */
export interface TickerUnits {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  quote: bigint;
  trades: boolean;
}

/** A number that may be ±Infinity, as JSON can hold it. */
type Num = number | 'inf' | '-inf';
const enc = (n: number): Num => (Number.isFinite(n) ? n : n > 0 ? 'inf' : '-inf');
const dec = (v: Num): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);

/** A bar as exported: its numbers in field order, bigints as strings. */
type BarData = [number, number, number, number, number, number, number, number, string, number, number, number, string];

/** A KlineBook's exported state. */
export interface KlineData {
  readonly series: [KlineInterval, number, Num, BarData[]][];
  readonly rolling: [number, string, Num, Num, number, boolean, number, string];
}

function barData(b: Bar): BarData {
  return [b.openTime, b.closeTime, b.open, b.high, b.low, b.close, b.volume, b.quote, b.quoteBig.toString(), b.trades, b.takerBuyVolume, b.takerBuyQuote, b.takerBuyQuoteBig.toString()];
}

function barOf(d: BarData): Bar {
  return {
    openTime: d[0], closeTime: d[1], open: d[2], high: d[3], low: d[4], close: d[5], volume: d[6], quote: d[7], quoteBig: BigInt(d[8]),
    trades: d[9], takerBuyVolume: d[10], takerBuyQuote: d[11], takerBuyQuoteBig: BigInt(d[12]),
  };
}

/** Klines of every interval of venue-api.md for one symbol, and its rolling 24h statistics. */
export class KlineBook {
  private readonly series = new Map<KlineInterval, Series>();
  private readonly list: Series[] = [];
  private readonly minute: Series;
  private readonly rolling = new Rolling();

  constructor(cap = 5000) {
    for (const iv of KLINE_INTERVALS) {
      // The 24h ticker walks 1m bars, so that series keeps at least a day plus slack.
      const s = new Series(iv, iv === '1m' ? Math.max(cap, 1500) : cap);
      this.series.set(iv, s);
      this.list.push(s);
    }
    this.minute = this.series.get('1m')!;
  }

  /** Adds one trade (price in ticks, lots, taker side) at `time`; returns the updated 1m bar. */
  addTrade(time: number, price: number, lots: number, takerBuy: boolean): Bar {
    let q = price * lots;
    let qBig = 0n;
    if (q > MAX_SAFE) {
      qBig = BigInt(price) * BigInt(lots);
      q = 0;
    }
    const list = this.list;
    for (let i = 1; i < list.length; i++) list[i]!.add(time, price, lots, takerBuy, q, qBig);
    const bar = this.minute.add(time, price, lots, takerBuy, q, qBig);
    this.rolling.update(this.minute, time);
    return bar;
  }

  /** Returns the 24h ticker as of `now`, or undefined before any trade. */
  ticker(now: number): TickerUnits | undefined {
    const bars = this.minute.bars;
    const last = bars[bars.length - 1];
    if (!last) return undefined;
    const r = this.rolling;
    const inWindow = last.openTime > now - DAY;
    if (!inWindow) return { open: last.close, high: last.close, low: last.close, close: last.close, volume: 0, quote: 0n, trades: false };
    let first = Math.max(0, r.firstAbs - this.minute.offset);
    while (first < bars.length - 1 && bars[first]!.openTime <= now - DAY) first++;
    return { open: bars[first]!.open, high: r.high, low: r.low, close: last.close, volume: r.volume, quote: r.quote, trades: true };
  }

  /**
   * Returns the bars of `interval` whose open time lies in [startTime, endTime], the last `limit` of
   * them (or the first `limit` from startTime when only startTime is given).
   */
  klines(interval: KlineInterval, limit: number, startTime?: number, endTime?: number): Bar[] {
    const bars = this.series.get(interval)!.bars;
    let lo = 0;
    let hi = bars.length;
    if (startTime !== undefined) while (lo < hi && bars[lo]!.openTime < startTime) lo++;
    if (endTime !== undefined) while (hi > lo && bars[hi - 1]!.openTime > endTime) hi--;
    if (startTime !== undefined && endTime === undefined) return bars.slice(lo, Math.min(hi, lo + limit));
    return bars.slice(Math.max(lo, hi - limit), hi);
  }

  /** Returns every series and the 24h window as plain data (exportState). */
  exportData(): KlineData {
    const r = this.rolling;
    const bars = this.minute.bars;
    return {
      series: this.list.map((x) => [x.interval, x.offset, enc(x.end), x.bars.map(barData)]),
      rolling: [r.volume, r.quote.toString(), enc(r.high), enc(r.low), r.firstAbs, r.counted !== undefined && r.counted === bars[bars.length - 1], r.countedVolume, (r.countedBig + BigInt(r.countedNum)).toString()],
    };
  }

  /** Loads what exportData wrote into this empty book. */
  importData(d: KlineData): void {
    for (const [iv, offset, end, bars] of d.series) {
      const x = this.series.get(iv)!;
      x.offset = offset;
      x.end = dec(end);
      x.bars.push(...bars.map(barOf));
    }
    const [volume, quote, high, low, firstAbs, countedLast, countedVolume, countedQuote] = d.rolling;
    const r = this.rolling;
    Object.assign(r, { volume, quoteNum: 0, quoteBig: BigInt(quote), high: dec(high), low: dec(low), firstAbs, countedVolume, countedNum: 0, countedBig: BigInt(countedQuote) });
    r.counted = countedLast ? this.minute.bars[this.minute.bars.length - 1] : undefined;
  }

  /** Returns the last trade price in ticks, or undefined before any trade. */
  lastPrice(): number | undefined {
    const b = this.minute.bars;
    return b[b.length - 1]?.close;
  }
}
