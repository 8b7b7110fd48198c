/** Public routes served from the configuration alone: ping, time, brokerInfo and pairs. */
import type { Clock } from '../../core/clock.ts';
import { apiError } from './errors.ts';
import type { ContractConfig, SpotSymbolConfig, VenueConfig } from './config.ts';
import type { Route } from './route.ts';

/** Returns a spot symbol entry shaped as brokerInfo's published samples. */
export function spotSymbolEntry(s: SpotSymbolConfig, exchangeId: string): Record<string, unknown> {
  return {
    filters: s.filters,
    exchangeId,
    symbol: s.symbol,
    symbolName: s.symbol,
    status: s.status,
    baseAsset: s.baseAsset,
    baseAssetName: s.baseAsset,
    baseAssetPrecision: s.baseAssetPrecision,
    quoteAsset: s.quoteAsset,
    quoteAssetName: s.quoteAsset,
    quotePrecision: s.quotePrecision,
    icebergAllowed: s.icebergAllowed,
  };
}

/** Returns a contract entry shaped as brokerInfo's published samples. */
export function contractEntry(k: ContractConfig, exchangeId: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    filters: k.filters,
    exchangeId,
    symbol: k.symbol,
    symbolName: k.symbolName ?? k.symbol,
    status: k.status,
    baseAsset: k.symbol,
    baseAssetPrecision: k.baseAssetPrecision,
    quoteAsset: k.quoteAsset,
    quoteAssetPrecision: k.quoteAssetPrecision,
    icebergAllowed: k.icebergAllowed,
    inverse: k.inverse,
    index: k.index,
    marginToken: k.marginToken,
    marginPrecision: k.marginPrecision,
    contractMultiplier: k.contractMultiplier,
    riskLimits: k.riskLimits,
  };
  if (k.underlying !== undefined) out['underlying'] = k.underlying;
  return out;
}

/** Returns the routes that need no engine. */
export function publicRoutes(c: VenueConfig, clock: Clock): Route[] {
  const ex = c.venue.exchangeId;
  const symbols = c.instruments.spot.map((s) => spotSymbolEntry(s, ex));
  const contracts = c.instruments.contracts.map((k) => contractEntry(k, ex));
  const rateLimits = c.rateLimits.map((r) => ({ rateLimitType: r.rateLimitType, interval: r.interval, limit: r.limit }));
  // The published pairs sample names base and quote the other way round (quoteToken "BTC" for BTCUSDT); real servers did so.
  const pairs = c.instruments.spot.map((s) => ({ symbol: s.symbol, quoteToken: s.baseAsset, baseToken: s.quoteAsset }));
  return [
    { method: 'GET', path: 'main:ping', security: 'NONE', weight: 1, handle: () => ({}) },
    { method: 'GET', path: 'main:time', security: 'NONE', weight: 1, handle: () => ({ serverTime: clock.now() }) },
    { method: 'GET', path: 'main:pairs', security: 'NONE', weight: 1, handle: () => pairs },
    {
      method: 'GET', path: 'main:brokerInfo', security: 'NONE', weight: 1,
      handle: (ctx) => {
        const type = ctx.p.opt('type');
        if (type !== undefined && type !== 'token' && type !== 'options' && type !== 'contracts') throw apiError(-1130, 'type');
        const out: Record<string, unknown> = {
          timezone: c.venue.timezone,
          serverTime: String(clock.now()),
          brokerFilters: [],
          rateLimits,
        };
        if (type === undefined || type === 'token') out['symbols'] = symbols;
        if (type === undefined || type === 'options') out['options'] = [];
        if (type === undefined || type === 'contracts') out['contracts'] = contracts;
        return out;
      },
    },
  ];
}
