/** The simulated venue's configuration: instruments in brokerInfo shape, fees, funded accounts, agents, seed. */
import type { FeeRates, WithdrawalConfig } from '../ledger/types.ts';
import type { FundingConfig } from './derivatives.ts';

/** A user created at start, with deposits into its main token account. */
export interface SimAccountConfig {
  /** A name for the caller to find the user again (`SimVenue.user(name)`). */
  name: string;
  /** API key bound to the user's main account (optional). */
  apiKey?: string;
  subAccounts?: number;
  /** The name of each sub-account, index 1 first (default: the user's name), as the sub-account query answers it. */
  subAccountNames?: readonly string[];
  /** Deposits at start: asset → decimal amount. */
  deposits?: Readonly<Record<string, string>>;
}

/** Parameters of the seeded market agents (see src/sim/agents). */
export interface AgentsConfig {
  /** Symbols the agents trade (all spot symbols when absent). */
  symbols?: string[];
  /** Reference price per symbol as a decimal string (required for each traded symbol). */
  referencePrice: Readonly<Record<string, string>>;
  /** Quote refresh period of the liquidity provider in ms (default 1000). */
  quoteEveryMs?: number;
  /** Mean time between two noise taker orders in ms (default 700). */
  takerEveryMs?: number;
  /** Levels quoted on each side (default 5). */
  levels?: number;
  /** Spread from the reference to the first level, in ticks (default 2). */
  spreadTicks?: number;
  /** Distance between quoted levels in ticks (default 1). */
  levelGapTicks?: number;
  /** Quantity per quoted level, in lots (default 10 × the minimum). */
  levelLots?: number;
  /** Per-step volatility of the reference price as a fraction (default 0.0005). */
  volatility?: number;
  /** Pull toward the starting price per step, 0..1 (default 0.02). */
  meanReversion?: number;
  /** Funds deposited for each agent, asset → decimal amount. */
  funds: Readonly<Record<string, string>>;
  /**
   * Margin funds of each contract agent (asset → decimal amount), deposited and moved into its
   * contracts account. Contract agents run only when this is set.
   */
  contractFunds?: Readonly<Record<string, string>>;
  /** Contracts the contract agents trade (all contracts when absent). Their reference price is referencePrice[index] or referencePrice[symbol]. */
  contracts?: string[];
  /** Leverage of the contract agents' open orders (default "10"). */
  leverage?: string;
}

/** Everything a SimVenue is built from. */
export interface SimVenueConfig {
  /** Seed of every random choice (agents). */
  seed: number;
  /** exchangeId reported on spot orders (default "301"). */
  exchangeId?: string;
  /** Instruments as brokerInfo sends them: `symbols` (spot) and `contracts` entries. */
  instruments: { symbols?: readonly unknown[]; contracts?: readonly unknown[] };
  /** Spot maker and taker fee rates (default 0.001 each). */
  spotFees?: FeeRates;
  /** Contract fee rates (defaults of the contracts module). */
  contractFees?: FeeRates;
  accounts?: readonly SimAccountConfig[];
  agents?: AgentsConfig;
  /** Keep every event in memory for `events()` and `logHash()` (default true). */
  keepEventLog?: boolean;
  /** Finished orders (and own trades) kept per account for the query endpoints (default 100 000); older ones are forgotten. */
  keepFinishedOrders?: number;
  /** Funding rates and schedule (premium rates every 8 hours by default). */
  funding?: FundingConfig;
  /** How withdrawals move through their statuses. */
  withdrawal?: WithdrawalConfig;
}
