// Venue configurations for the engine tests, built from the published brokerInfo samples (venue-samples.md).
import { VirtualClock } from '../../../src/core/clock.ts';
import { SimVenue } from '../../../src/sim/engine/venue.ts';
import type { SimVenueConfig } from '../../../src/sim/engine/config.ts';

/** The ETHBTC entry of the published spot brokerInfo sample (venue-samples.md, "Broker information"). */
export const ETHBTC = {
  symbol: 'ETHBTC',
  status: 'TRADING',
  baseAsset: 'ETH',
  baseAssetPrecision: '0.001',
  quoteAsset: 'BTC',
  quotePrecision: '0.01',
  icebergAllowed: false,
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.00000100', maxPrice: '100000.00000000', tickSize: '0.00000100' },
    { filterType: 'LOT_SIZE', minQty: '0.00100000', maxQty: '100000.00000000', stepSize: '0.00100000' },
    { filterType: 'MIN_NOTIONAL', minNotional: '0.00100000' },
  ],
};

/** The BTC-PERP-REV entry of the published contract brokerInfo sample (venue-samples.md, Contract API). */
export const BTC_PERP_REV = {
  filters: [
    { minPrice: '0.01', maxPrice: '100000.00000000', tickSize: '0.01', filterType: 'PRICE_FILTER' },
    { minQty: '1', maxQty: '100000.00000000', stepSize: '1', filterType: 'LOT_SIZE' },
    { minNotional: '0.000001', filterType: 'MIN_NOTIONAL' },
  ],
  exchangeId: '301',
  symbol: 'BTC-PERP-REV',
  symbolName: 'BTC-PERP-REV',
  status: 'TRADING',
  baseAsset: 'BTC-PERP-REV',
  baseAssetPrecision: '1',
  quoteAsset: 'USDT',
  quoteAssetPrecision: '0.01',
  icebergAllowed: false,
  inverse: true,
  index: 'BTCUSDT',
  marginToken: 'TBTC',
  marginPrecision: '0.00000001',
  contractMultiplier: '1.0',
  riskLimits: [
    { riskLimitId: '200000001', quantity: '1000000.0', initialMargin: '0.01', maintMargin: '0.005' },
    { riskLimitId: '200000002', quantity: '2000000.0', initialMargin: '0.02', maintMargin: '0.01' },
    { riskLimitId: '200000003', quantity: '3000000.0', initialMargin: '0.03', maintMargin: '0.015' },
    { riskLimitId: '200000004', quantity: '4000000.0', initialMargin: '0.04', maintMargin: '0.02' },
  ],
};

/** Returns a config with ETHBTC, BTC-PERP-REV and users alice, bob and carol funded with ETH and BTC. */
export function baseConfig(over: Partial<SimVenueConfig> = {}): SimVenueConfig {
  const deposits = { ETH: '1000', BTC: '100', TBTC: '10' };
  return {
    seed: 7,
    instruments: { symbols: [ETHBTC], contracts: [BTC_PERP_REV] },
    accounts: [
      { name: 'alice', deposits },
      { name: 'bob', deposits },
      { name: 'carol', deposits },
    ],
    ...over,
  };
}

/** A venue with a virtual clock at 2020-09-27 and the spot accounts of alice, bob and carol. */
export function makeVenue(over: Partial<SimVenueConfig> = {}): { venue: SimVenue; clock: VirtualClock; alice: string; bob: string; carol: string } {
  const clock = new VirtualClock(1_601_215_914_010);
  const venue = new SimVenue(baseConfig(over), clock);
  const acc = (n: string): string => venue.accountOf(venue.user(n), 1);
  return { venue, clock, alice: acc('alice'), bob: acc('bob'), carol: acc('carol') };
}

/** Moves `amount` of TBTC from each named user's token account into its contracts account; returns the contracts account ids. */
export function fundContracts(venue: SimVenue, names: string[], amount = '5'): string[] {
  return names.map((n) => {
    const userId = venue.user(n);
    venue.ledger.transfer({ userId, accountIndex: 0 }, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'TBTC', amount: BigInt(amount) * 10n ** 18n });
    return venue.accountOf(userId, 3);
  });
}
