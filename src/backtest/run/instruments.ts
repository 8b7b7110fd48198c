/** A catalog's instruments as the venue describes them (exchangeInfo's spot symbols), for the backtest exchange's rules and the bot's instruments. */
import { ConfigError } from '../../core/errors.ts';
import type { Instrument as CatalogInstrument } from '../../data/instruments.ts';
import type { SpotSymbol } from '../../model/index.ts';
import { SimInstrument } from '../../sim/engine/instruments.ts';

/** Filters a backtest gives a symbol the catalog only knows the steps of: any price and size on the steps, no minimum notional. */
export function spotSymbolOf(c: CatalogInstrument): SpotSymbol {
  if (c.kind !== 'spot') throw new ConfigError('backtest.symbols', `${c.symbol} is a ${c.kind} contract: the backtest runner trades spot symbols so far`);
  return {
    symbol: c.symbol, status: 'TRADING', baseAsset: c.base, baseAssetPrecision: c.lot, quoteAsset: c.quote, quotePrecision: c.tick, icebergAllowed: false,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: c.tick, maxPrice: '100000000', tickSize: c.tick },
      { filterType: 'LOT_SIZE', minQty: c.lot, maxQty: '100000000', stepSize: c.lot },
      { filterType: 'MIN_NOTIONAL', minNotional: '0' },
    ],
  };
}

/** Returns the simulated venue's instrument of a catalog spot symbol. */
export function simInstrumentOf(c: CatalogInstrument): SimInstrument {
  return new SimInstrument({ spot: spotSymbolOf(c) });
}
