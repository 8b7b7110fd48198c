/** Public market routes under /openapi/quote/v1 (with and without `contract/`), the index and the contract-info list; times are numbers here. */
import type { SimVenue } from '../engine/venue.ts';
import { fmtAmount } from '../ledger/amount.ts';
import type { Ticker24 } from '../engine/market.ts';
import { ApiError } from './errors.ts';
import type { VenueConfig } from './config.ts';
import type { Params } from './params.ts';
import type { Route } from './route.ts';

/** The quote server's own missing-parameter answer (HTTP 400, -100012). */
function quoteMissing(name: string): ApiError {
  return new ApiError(-100012, `Parameter ${name} [String] missing!`);
}

function symbolOf(p: Params): string {
  const s = p.opt('symbol');
  if (s === undefined) throw quoteMissing('symbol');
  return s;
}

function spotTicker(t: Ticker24, withBook: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { time: t.time, symbol: t.symbol };
  if (withBook) {
    out['bestBidPrice'] = t.bestBidPrice;
    out['bestAskPrice'] = t.bestAskPrice;
  }
  return { ...out, lastPrice: t.lastPrice, openPrice: t.openPrice, highPrice: t.highPrice, lowPrice: t.lowPrice, volume: t.volume, quoteVolume: t.quoteVolume };
}

function contractTicker(t: Ticker24, openInterest: string): Record<string, unknown> {
  return {
    time: t.time, symbol: t.symbol, bestBidPrice: t.bestBidPrice, bestAskPrice: t.bestAskPrice, volume: t.volume, quoteVolume: t.quoteVolume,
    openInterest, lastPrice: t.lastPrice, highPrice: t.highPrice, lowPrice: t.lowPrice, openPrice: t.openPrice,
  };
}

/** Returns the market-data routes. */
export function marketRoutes(venue: SimVenue, c: VenueConfig): Route[] {
  const isContract = (s: string): boolean => c.instruments.contracts.some((k) => k.symbol === s);
  const openInterest = (symbol: string): string => fmtAmount(venue.market.openInterest(symbol));
  const tickers = (path: string, p: Params): unknown => {
    const symbol = p.opt('symbol');
    const contract = path.includes('/contract/') || (symbol !== undefined && isContract(symbol));
    const t = venue.ticker24h(symbol, contract ? 'contract' : 'spot');
    if (Array.isArray(t)) return t.map((x) => (contract ? contractTicker(x, openInterest(x.symbol)) : spotTicker(x, false)));
    return contract ? contractTicker(t, openInterest(t.symbol)) : spotTicker(t, true);
  };
  return [
    { method: 'GET', path: 'quote:depth', security: 'NONE', weight: 1, handle: (x) => venue.depth(symbolOf(x.p), x.p.limit(100, 100)) },
    { method: 'GET', path: 'quote:depth/merged', security: 'NONE', weight: 1, handle: (x) => venue.depth(symbolOf(x.p), x.p.limit(40, 40)) },
    { method: 'GET', path: 'quote:trades', security: 'NONE', weight: 1, handle: (x) => venue.trades(symbolOf(x.p), x.p.limit(500, 1000)) },
    {
      method: 'GET', path: 'quote:klines', security: 'NONE', weight: 1,
      handle: (x) => {
        const symbol = symbolOf(x.p);
        const interval = x.p.opt('interval');
        if (interval === undefined) throw quoteMissing('interval');
        return venue.klines(symbol, interval, { startTime: x.p.optInt('startTime'), endTime: x.p.optInt('endTime'), limit: x.p.limit(1000, 1000) });
      },
    },
    { method: 'GET', path: 'quote:ticker/24hr', security: 'NONE', weight: 1, handle: (x) => tickers(x.path, x.p) },
    { method: 'GET', path: 'quote:ticker/price', security: 'NONE', weight: 1, handle: (x) => venue.priceTicker(x.p.opt('symbol')) },
    { method: 'GET', path: 'quote:ticker/bookTicker', security: 'NONE', weight: 1, handle: (x) => venue.bookTicker(x.p.opt('symbol')) },
    { method: 'GET', path: 'quote:index', security: 'NONE', weight: 1, handle: (x) => venue.indexPrices(x.p.opt('symbols')) },
    { method: 'GET', path: 'main:contracts', security: 'NONE', weight: 1, handle: () => venue.contracts() },
  ];
}
