/** A perpetual contract's terms as the contracts need them: inverse or linear, multiplier, tick, margin token and risk-limit tiers, parsed from brokerInfo-style strings. */
import { scaleOf } from '../../core/fixed.ts';
import { ONE, toAmount, type Amount } from '../ledger/amount.ts';
import { invalidParam } from '../ledger/errors.ts';

/** One risk-limit tier: positions up to `quantity` contracts use these margin rates. */
export interface RiskLimit {
  readonly riskLimitId: string;
  readonly quantity: Amount;
  readonly initialMargin: Amount;
  readonly maintMargin: Amount;
}

/** A contract's terms with every number an Amount. */
export interface ContractSpec {
  readonly symbol: string;
  readonly inverse: boolean;
  readonly multiplier: Amount;
  readonly tickSize: Amount;
  /** Decimals of the tick (price precision). */
  readonly priceDecimals: number;
  readonly marginToken: string;
  /** Decimals of marginPrecision (e.g. 8 for "0.00000001"). */
  readonly marginDecimals: number;
  /** Index symbol whose price funds and EDP refer to. */
  readonly index: string;
  /** Tiers ordered by quantity, smallest first. */
  readonly riskLimits: readonly RiskLimit[];
  readonly makerFee: Amount;
  readonly takerFee: Amount;
}

/** A contract's terms as brokerInfo sends them (decimal strings), plus fee rates. */
export interface ContractSpecInput {
  readonly symbol: string;
  readonly inverse: boolean;
  readonly contractMultiplier: string;
  readonly tickSize: string;
  readonly marginToken: string;
  readonly marginPrecision: string;
  readonly index: string;
  readonly riskLimits: readonly { riskLimitId: string; quantity: string; initialMargin: string; maintMargin: string }[];
  /** Maker fee rate (default "0.0002"). */
  readonly makerFee?: string;
  /** Taker fee rate (default "0.00075"). */
  readonly takerFee?: string;
}

/** Returns the parsed terms; throws -1130 naming the field when a number is out of range or the tiers are not increasing. */
export function contractSpec(input: ContractSpecInput): ContractSpec {
  const multiplier = toAmount(input.contractMultiplier, 'contractMultiplier');
  const tickSize = toAmount(input.tickSize, 'tickSize');
  if (multiplier <= 0n) throw invalidParam('contractMultiplier', 'must be positive');
  if (tickSize <= 0n) throw invalidParam('tickSize', 'must be positive');
  if (input.riskLimits.length === 0) throw invalidParam('riskLimits', 'needs at least one tier');
  const riskLimits = input.riskLimits.map((r, i) => {
    const t: RiskLimit = {
      riskLimitId: r.riskLimitId,
      quantity: toAmount(r.quantity, `riskLimits[${i}].quantity`),
      initialMargin: toAmount(r.initialMargin, `riskLimits[${i}].initialMargin`),
      maintMargin: toAmount(r.maintMargin, `riskLimits[${i}].maintMargin`),
    };
    if (t.initialMargin <= 0n || t.initialMargin > ONE) throw invalidParam(`riskLimits[${i}].initialMargin`, 'must be in (0, 1]');
    if (t.maintMargin <= 0n || t.maintMargin > t.initialMargin) throw invalidParam(`riskLimits[${i}].maintMargin`, 'must be in (0, initialMargin]');
    return t;
  });
  for (let i = 1; i < riskLimits.length; i++) {
    if (riskLimits[i]!.quantity <= riskLimits[i - 1]!.quantity) throw invalidParam(`riskLimits[${i}].quantity`, 'tiers must increase in quantity');
  }
  const makerFee = toAmount(input.makerFee ?? '0.0002', 'makerFee');
  const takerFee = toAmount(input.takerFee ?? '0.00075', 'takerFee');
  for (const [f, v] of [['makerFee', makerFee], ['takerFee', takerFee]] as const) if (v < 0n || v >= ONE) throw invalidParam(f, 'must be in [0, 1)');
  return {
    symbol: input.symbol,
    inverse: input.inverse,
    multiplier,
    tickSize,
    priceDecimals: scaleOf(input.tickSize, 'tickSize'),
    marginToken: input.marginToken,
    marginDecimals: scaleOf(input.marginPrecision, 'marginPrecision'),
    index: input.index,
    riskLimits,
    makerFee,
    takerFee,
  };
}
