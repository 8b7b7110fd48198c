/** A catalog's instruments as the venue describes them (exchangeInfo's spot symbols and contracts), for the backtest exchange's rules and the bot's instruments. */
import type { Instrument as CatalogInstrument } from '../../data/instruments.ts';
import type { Contract, RiskLimit, SpotSymbol } from '../../model/index.ts';
import { SimInstrument } from '../../sim/engine/instruments.ts';

/** Filters a backtest gives a symbol the catalog only knows the steps of: any price and size on the steps, no minimum notional. */
function filtersOf(c: CatalogInstrument): SpotSymbol['filters'] {
  return [
    { filterType: 'PRICE_FILTER', minPrice: c.tick, maxPrice: '100000000', tickSize: c.tick },
    { filterType: 'LOT_SIZE', minQty: c.lot, maxQty: '100000000', stepSize: c.lot },
    { filterType: 'MIN_NOTIONAL', minNotional: '0' },
  ];
}

/** The risk tiers a backtest contract gets (the catalog holds none): the simulated venue's default ladder, 1 % initial margin (leverage up to 100) and 0.5 % maintenance on the first tier. */
export const BACKTEST_RISK_LIMITS: readonly RiskLimit[] = [
  { riskLimitId: '1', quantity: '1000000', initialMargin: '0.01', maintMargin: '0.005' },
  { riskLimitId: '2', quantity: '2000000', initialMargin: '0.02', maintMargin: '0.01' },
  { riskLimitId: '3', quantity: '3000000', initialMargin: '0.03', maintMargin: '0.015' },
  { riskLimitId: '4', quantity: '4000000', initialMargin: '0.04', maintMargin: '0.02' },
];

/** Returns a catalog spot instrument as a spot symbol. */
export function spotSymbolOf(c: CatalogInstrument): SpotSymbol {
  return {
    symbol: c.symbol, status: 'TRADING', baseAsset: c.base, baseAssetPrecision: c.lot, quoteAsset: c.quote, quotePrecision: c.tick, icebergAllowed: false,
    filters: filtersOf(c),
  };
}

/** Returns a catalog contract as the venue's contract: its multiplier, margin token and inverse flag from the catalog; its index the one the catalog names (our recordings), else the symbol itself (a converted recording whose mark prices are stored under the contract). */
export function contractOf(c: CatalogInstrument): Contract {
  return {
    symbol: c.symbol, symbolName: c.symbol, status: 'TRADING', baseAsset: c.base, baseAssetPrecision: c.lot, quoteAsset: c.quote, quoteAssetPrecision: c.tick,
    icebergAllowed: false, inverse: c.kind === 'inverse', index: c.index ?? c.symbol, marginToken: c.margin, marginPrecision: '0.00000001', contractMultiplier: c.multiplier,
    filters: filtersOf(c), riskLimits: BACKTEST_RISK_LIMITS,
  };
}

/** Returns the simulated venue's instrument of a catalog symbol (spot or contract). */
export function simInstrumentOf(c: CatalogInstrument): SimInstrument {
  return c.kind === 'spot' ? new SimInstrument({ spot: spotSymbolOf(c) }) : new SimInstrument({ contract: contractOf(c) });
}
