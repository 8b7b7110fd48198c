/** The risk section of a config file: one zod schema that is also the RiskConfig type's validator, with its defaults, and a parser that names the bad key. */
import { z } from 'zod';
import { configErrorFromZod } from '../core/config.ts';
import { isDecimalString } from '../core/fixed.ts';
import { dec } from './num.ts';
import { TRADING_STATES, type RiskConfig, type TradingState } from './types.ts';

const positiveDecimal = z
  .string()
  .refine((s) => isDecimalString(s) && dec(s).gt(0), 'must be a positive decimal written as a string, e.g. "0.5"');
const nonNegativeDecimal = z
  .string()
  .refine((s) => isDecimalString(s) && dec(s).gte(0), 'must be a decimal of at least 0 written as a string, e.g. "0.001"');
const count = z.number().int('must be a whole number').positive('must be at least 1');

const symbolLimits = z.strictObject({
  maxPosition: positiveDecimal.optional(),
  maxNotional: positiveDecimal.optional(),
  maxOpenOrders: count.optional(),
  priceBandPct: z.union([z.literal('off'), positiveDecimal.refine((s) => dec(s).lt(100), 'must be below 100')]).optional(),
  priceBandRef: z.enum(['last', 'mark']).optional(),
});

/** The fat-finger band every symbol gets unless its limits say otherwise: a stray order far from the market must not become a trade. */
export const DEFAULT_PRICE_BAND_PCT = '10';

const strategyLimits = z.strictObject({
  orderRate: z.strictObject({ perSecond: count.optional(), perMinute: count.optional() }).optional(),
  dailyLossLimit: positiveDecimal.optional(),
});

/** The schema of RiskConfig. Defaults: active, rounding on, and the embedded venue's taker fees (config/venue.yaml). */
export const riskConfigSchema = z.strictObject({
  tradingState: z.enum(TRADING_STATES as [TradingState, ...TradingState[]]).default('active'),
  rounding: z.enum(['round', 'deny']).default('round'),
  fees: z.strictObject({ spot: nonNegativeDecimal, contract: nonNegativeDecimal }).default({ spot: '0.001', contract: '0.0006' }),
  defaults: symbolLimits.optional(),
  symbols: z.record(z.string(), symbolLimits).optional(),
  strategy: strategyLimits.optional(),
  strategies: z.record(z.string(), strategyLimits).optional(),
  closeDistancePct: positiveDecimal.refine((s) => dec(s).lt(100), 'must be below 100').optional()
    .describe('a spot closePosition without a price sells LIMIT IOC this percent below the last price (default 1)'),
});

/**
 * The schema of a run config's risk section: RiskConfig with the fat-finger band on for every symbol
 * (DEFAULT_PRICE_BAND_PCT) unless `priceBandPct` says otherwise; `off` turns it off. The gate itself
 * bands nothing it is not told to, so a library user's gate checks only what they configure.
 */
export const runRiskConfigSchema = riskConfigSchema.transform((c) => ({ ...c, defaults: { priceBandPct: DEFAULT_PRICE_BAND_PCT, ...c.defaults } }));

// A compile-time check that the schema's output is a RiskConfig.
const _fits: (c: z.output<typeof riskConfigSchema>) => RiskConfig = (c) => c;

/** Returns the validated RiskConfig of `raw`; throws ConfigError naming the path of the bad key (under `path`) and the rule. */
export function parseRiskConfig(raw: unknown, path = 'risk'): RiskConfig {
  const r = riskConfigSchema.safeParse(raw ?? {});
  if (r.success) return r.data;
  throw configErrorFromZod(r.error, path);
}
