/**
 * Klines made from the replayed trades, for a symbol whose catalog range holds none: the venue builds
 * its kline stream from its trades, so a strategy asking for klines gets them in an L2 backtest as it
 * would live (each change of the current candle, then the candle once more as closed when a trade
 * opens the next one).
 */
import type { KlineInterval } from '../../model/enums.ts';
import type { KlineEvent, TradeEvent } from '../../model/index.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { Series } from '../../sim/engine/klines.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
import { KlineTracker } from '../../venue/market-normalise.ts';

/** Candles of the asked symbols and intervals, fed by trades in time order, built by the venue's own kline series. */
export class TradeKlines {
  /** The current candle of each symbol and interval (a series keeping one bar). */
  private readonly series = new Map<string, Series>();
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
    const q = price * lots;
    const safe = Number.isSafeInteger(q);
    for (const interval of w.intervals) {
      const key = `${t.symbol}|${interval}`;
      let s = this.series.get(key);
      if (s === undefined) this.series.set(key, (s = new Series(interval, 1)));
      const c = s.add(t.ts, price, lots, t.takerSide === 'BUY', safe ? q : 0, safe ? 0n : BigInt(price) * BigInt(lots));
      this.tracker.update(t.symbol, interval, {
        openTime: c.openTime, open: w.inst.priceText(c.open), high: w.inst.priceText(c.high), low: w.inst.priceText(c.low),
        close: w.inst.priceText(c.close), volume: w.inst.qtyText(c.volume),
      }, t.ts, t.recvTs);
    }
  }
}
