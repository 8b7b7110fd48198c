/**
 * Klines made from the replayed trades, for a symbol whose catalog range holds none: the venue builds
 * its kline stream from its trades, so a strategy asking for klines gets them in an L2 backtest as it
 * would live (each change of the current candle, then the candle once more as closed when a trade
 * opens the next one).
 */
import type { KlineInterval } from '../../model/enums.ts';
import type { KlineEvent, TradeEvent } from '../../model/index.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { bucketOf } from '../../sim/engine/klines.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
import { KlineTracker } from '../../venue/market-normalise.ts';

/** The current candle of one symbol and interval, in ticks and lots. */
interface Candle {
  openTime: number;
  closeTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  lots: number;
}

/** Candles of the asked symbols and intervals, fed by trades in time order. */
export class TradeKlines {
  private readonly candles = new Map<string, Candle>();
  private readonly tracker: KlineTracker;

  constructor(
    /** The intervals to build, by symbol, with each symbol's instrument. */
    private readonly wanted: ReadonlyMap<string, { readonly inst: SimInstrument; readonly intervals: readonly KlineInterval[] }>,
    publish: (ev: KlineEvent) => void,
  ) {
    this.tracker = new KlineTracker((ev) => publish(ev as KlineEvent));
  }

  /** Adds a trade to the current candle of each interval of its symbol and publishes what changed. */
  onTrade(t: TradeEvent): void {
    const w = this.wanted.get(t.symbol);
    if (w === undefined) return;
    const price = decimalUnits(t.price, w.inst.tick);
    const lots = decimalUnits(t.qty, w.inst.step);
    // Off the instrument's grid (never in a converted catalog): no candle could show it exactly.
    if (price < 0 || lots < 0) return;
    for (const interval of w.intervals) {
      const key = `${t.symbol}|${interval}`;
      let c = this.candles.get(key);
      if (c === undefined || t.ts >= c.closeTime) {
        const [openTime, closeTime] = bucketOf(interval, t.ts);
        c = { openTime, closeTime, open: price, high: price, low: price, close: price, lots: 0 };
        this.candles.set(key, c);
      }
      if (price > c.high) c.high = price;
      if (price < c.low) c.low = price;
      c.close = price;
      c.lots += lots;
      this.tracker.update(t.symbol, interval, {
        openTime: c.openTime, open: w.inst.priceText(c.open), high: w.inst.priceText(c.high), low: w.inst.priceText(c.low),
        close: w.inst.priceText(c.close), volume: w.inst.qtyText(c.lots),
      }, t.ts, t.recvTs);
    }
  }
}
