/** The MarketSource of the market WebSocket over a SimVenue: books, trades, klines, tickers, index prices and their events. */
import { Decimal } from '../../core/fixed.ts';
import type { SimVenue } from '../engine/venue.ts';
import type { VenueConfig } from './config.ts';
import type { MarketSource, MarketSourceEvent } from './market-source.ts';

/** Returns the change ratio (close − open) / open cut to 4 decimals, "0" when there is no open. */
export function changeRatio(open: string, close: string): string {
  const o = new Decimal(open);
  if (o.isZero()) return '0';
  return new Decimal(close).minus(o).div(o).toDecimalPlaces(4, Decimal.ROUND_DOWN).toString();
}

/** Returns the market source of `venue`. */
export function engineMarketSource(venue: SimVenue, c: VenueConfig): MarketSource {
  const contracts = new Set(c.instruments.contracts.map((k) => k.symbol));
  // In config order, spot then contracts: stable across restarts of the same config.
  const bookIds = new Map([...c.instruments.spot, ...c.instruments.contracts].map((x, i) => [x.symbol, i + 1]));
  return {
    hasSymbol: (s) => venue.instrument(s) !== undefined,
    isContract: (s) => contracts.has(s),
    depth: (s, limit) => {
      const d = venue.depth(s, limit);
      return { bids: d.bids, asks: d.asks };
    },
    bookId: (s) => bookIds.get(s) ?? 0,
    recentTrades: (s, limit) => {
      const inst = venue.instrument(s);
      if (!inst) return [];
      return inst.trades.slice(-limit).map((t) => ({ id: t.id, time: t.time, price: inst.priceText(t.price), qty: inst.qtyText(t.lots), isBuyerMaker: t.isBuyerMaker }));
    },
    kline: (s, interval) => {
      const k = venue.klines(s, interval, { limit: 1 })[0];
      return k ? { t: k[0], o: k[1], h: k[2], l: k[3], c: k[4], v: k[5] } : undefined;
    },
    ticker: (s) => {
      const t = venue.ticker24h(s, contracts.has(s) ? 'contract' : 'spot');
      const one = Array.isArray(t) ? t[0]! : t;
      return { o: one.openPrice, h: one.highPrice, l: one.lowPrice, c: one.lastPrice, v: one.volume, qv: one.quoteVolume, m: changeRatio(one.openPrice, one.lastPrice) };
    },
    index: (s) => {
      const v = venue.indexPrices(s);
      const index = v.index[s];
      return index === undefined ? undefined : { index, edp: v.edp[s] ?? index };
    },
    subscribe: (fn: (ev: MarketSourceEvent) => void) => venue.subscribe((ev) => {
      const b = ev.body;
      if (b.type === 'trade') fn({ type: 'trade', symbol: b.symbol, id: b.id, time: ev.time, price: b.price, qty: b.qty, isBuyerMaker: b.isBuyerMaker });
      else if (b.type === 'book') fn({ type: 'book', symbol: b.symbol, side: b.side, price: b.price, qty: b.qty });
    }),
  };
}
