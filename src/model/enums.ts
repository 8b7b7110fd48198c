/** Every enumeration of venue-api.md, as constant lists, union types and type guards. */

function guard<T extends string>(values: readonly T[]): (v: unknown) => v is T {
  return (v: unknown): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);
}

export const SYMBOL_STATUSES = ['TRADING', 'HALT', 'BREAK'] as const;
export type SymbolStatus = (typeof SYMBOL_STATUSES)[number];
/** Returns true for a spot symbol status. */
export const isSymbolStatus = guard(SYMBOL_STATUSES);

export const SPOT_ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PENDING_CANCEL', 'REJECTED'] as const;
export type SpotOrderStatus = (typeof SPOT_ORDER_STATUSES)[number];
/** Returns true for a spot order status. */
export const isSpotOrderStatus = guard(SPOT_ORDER_STATUSES);

/** Order type as reported on spot orders and reports. */
export const SPOT_ORDER_TYPES = ['LIMIT', 'MARKET'] as const;
export type SpotOrderType = (typeof SPOT_ORDER_TYPES)[number];
/** Returns true for a reported spot order type. */
export const isSpotOrderType = guard(SPOT_ORDER_TYPES);

/** Order type accepted by the spot new-order endpoint. */
export const SPOT_NEW_ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'] as const;
export type SpotNewOrderType = (typeof SPOT_NEW_ORDER_TYPES)[number];
/** Returns true for a spot new-order type. */
export const isSpotNewOrderType = guard(SPOT_NEW_ORDER_TYPES);

export const SPOT_SIDES = ['BUY', 'SELL'] as const;
export type SpotSide = (typeof SPOT_SIDES)[number];
/** Returns true for BUY or SELL. */
export const isSpotSide = guard(SPOT_SIDES);

export const SPOT_TIME_IN_FORCES = ['GTC', 'IOC', 'FOK'] as const;
export type SpotTimeInForce = (typeof SPOT_TIME_IN_FORCES)[number];
/** Returns true for a spot time in force. */
export const isSpotTimeInForce = guard(SPOT_TIME_IN_FORCES);

/** Kline intervals of the spot list (m minutes, h hours, d days, w weeks, M months). */
export const KLINE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];
/** Returns true for an interval of the spot kline list. */
export const isKlineInterval = guard(KLINE_INTERVALS);

/** Kline intervals the klines endpoint accepts as a parameter (a subset of KLINE_INTERVALS). */
export const KLINE_ENDPOINT_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '1d', '1w', '1M'] as const satisfies readonly KlineInterval[];
export type KlineEndpointInterval = (typeof KLINE_ENDPOINT_INTERVALS)[number];
/** Returns true for an interval the klines endpoint accepts. */
export const isKlineEndpointInterval = guard(KLINE_ENDPOINT_INTERVALS);

const INTERVAL_MS: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = {
  '1m': 60_000, '3m': 180_000, '5m': 300_000, '15m': 900_000, '30m': 1_800_000,
  '1h': 3_600_000, '2h': 7_200_000, '4h': 14_400_000, '6h': 21_600_000, '8h': 28_800_000, '12h': 43_200_000,
  '1d': 86_400_000, '3d': 259_200_000, '1w': 604_800_000,
};

/** Returns the length of a kline interval in ms, or undefined for `1M` (calendar months differ in length). */
export function klineIntervalMs(interval: KlineInterval): number | undefined {
  return interval === '1M' ? undefined : INTERVAL_MS[interval];
}

export const CONTRACT_SIDES = ['BUY_OPEN', 'SELL_CLOSE', 'SELL_OPEN', 'BUY_CLOSE'] as const;
export type ContractSide = (typeof CONTRACT_SIDES)[number];
/** Returns true for a contract order side. */
export const isContractSide = guard(CONTRACT_SIDES);

export const CONTRACT_ORDER_TYPES = ['LIMIT', 'STOP'] as const;
export type ContractOrderType = (typeof CONTRACT_ORDER_TYPES)[number];
/** Returns true for a contract orderType. */
export const isContractOrderType = guard(CONTRACT_ORDER_TYPES);

export const PRICE_TYPES = ['INPUT', 'OPPONENT', 'QUEUE', 'OVER', 'MARKET'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];
/** Returns true for a contract priceType. */
export const isPriceType = guard(PRICE_TYPES);

export const CONTRACT_TIME_IN_FORCES = ['GTC', 'IOC', 'FOK', 'LIMIT_MAKER'] as const;
export type ContractTimeInForce = (typeof CONTRACT_TIME_IN_FORCES)[number];
/** Returns true for a contract time in force. */
export const isContractTimeInForce = guard(CONTRACT_TIME_IN_FORCES);

export const CONTRACT_ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED'] as const;
export type ContractOrderStatus = (typeof CONTRACT_ORDER_STATUSES)[number];
/** Returns true for a contract order status. */
export const isContractOrderStatus = guard(CONTRACT_ORDER_STATUSES);

export const POSITION_SIDES = ['LONG', 'SHORT'] as const;
export type PositionSide = (typeof POSITION_SIDES)[number];
/** Returns true for LONG or SHORT. */
export const isPositionSide = guard(POSITION_SIDES);

export const EXECUTION_TYPES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED'] as const;
export type ExecutionType = (typeof EXECUTION_TYPES)[number];
/** Returns true for an execution type of a stream report. */
export const isExecutionType = guard(EXECUTION_TYPES);

/** rateLimitType after normalisation: servers send REQUEST_WEIGHT, one enum table spells it REQUESTS_WEIGHT. */
export const RATE_LIMIT_TYPES = ['REQUEST_WEIGHT', 'ORDERS'] as const;
export type RateLimitType = (typeof RATE_LIMIT_TYPES)[number];
/** Every spelling of rateLimitType seen on the wire. */
export const RATE_LIMIT_TYPE_SPELLINGS = ['REQUEST_WEIGHT', 'REQUESTS_WEIGHT', 'ORDERS'] as const;
/** Returns true for a normalised rateLimitType. */
export const isRateLimitType = guard(RATE_LIMIT_TYPES);

/** Returns the normalised rateLimitType of a wire spelling, or undefined when it is not one. */
export function normalizeRateLimitType(v: string): RateLimitType | undefined {
  if (v === 'REQUESTS_WEIGHT' || v === 'REQUEST_WEIGHT') return 'REQUEST_WEIGHT';
  if (v === 'ORDERS') return 'ORDERS';
  return undefined;
}

export const RATE_LIMIT_INTERVALS = ['SECOND', 'MINUTE', 'DAY'] as const;
export type RateLimitInterval = (typeof RATE_LIMIT_INTERVALS)[number];
/** Returns true for a rate-limit interval. */
export const isRateLimitInterval = guard(RATE_LIMIT_INTERVALS);

const RATE_LIMIT_INTERVAL_MS: Readonly<Record<RateLimitInterval, number>> = { SECOND: 1_000, MINUTE: 60_000, DAY: 86_400_000 };

/** Returns the length of a rate-limit interval in ms. */
export function rateLimitIntervalMs(interval: RateLimitInterval): number {
  return RATE_LIMIT_INTERVAL_MS[interval];
}

/** Account types (integers): 1 token trading, 2 options, 3 contracts. */
export const ACCOUNT_TYPES = [1, 2, 3] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const ACCOUNT_TYPE_NAMES: Readonly<Record<AccountType, string>> = { 1: 'token trading', 2: 'options', 3: 'contracts' };
/** Returns true for an account type integer. */
export function isAccountType(v: unknown): v is AccountType {
  return v === 1 || v === 2 || v === 3;
}

/** Withdrawal status codes 1..8 and their names. */
export const WITHDRAWAL_STATUSES = [
  { code: 1, name: 'BROKER_AUDITING_STATUS', meaning: 'processing by broker' },
  { code: 2, name: 'BROKER_REJECT_STATUS', meaning: 'rejected by broker' },
  { code: 3, name: 'AUDITING_STATUS', meaning: 'processing by platform' },
  { code: 4, name: 'AUDIT_REJECT_STATUS', meaning: 'rejected by platform' },
  { code: 5, name: 'PROCESSING_STATUS', meaning: 'processing by wallet' },
  { code: 6, name: 'WITHDRAWAL_SUCCESS_STATUS', meaning: 'success' },
  { code: 7, name: 'WITHDRAWAL_FAILURE_STATUS', meaning: 'failed' },
  { code: 8, name: 'BLOCK_MINING_STATUS', meaning: 'blockchain mining' },
] as const;
export type WithdrawalStatusCode = (typeof WITHDRAWAL_STATUSES)[number]['code'];
export type WithdrawalStatusName = (typeof WITHDRAWAL_STATUSES)[number]['name'];
export const WITHDRAWAL_STATUS_NAMES: readonly WithdrawalStatusName[] = WITHDRAWAL_STATUSES.map((s) => s.name);
/** Returns true for a withdrawal status name. */
export const isWithdrawalStatusName = guard(WITHDRAWAL_STATUS_NAMES);

/** Returns the name of a withdrawal status code, or undefined for a code outside 1..8. */
export function withdrawalStatusName(code: number): WithdrawalStatusName | undefined {
  return WITHDRAWAL_STATUSES.find((s) => s.code === code)?.name;
}

/** Returns the code of a withdrawal status name. */
export function withdrawalStatusCode(name: WithdrawalStatusName): WithdrawalStatusCode {
  const s = WITHDRAWAL_STATUSES.find((x) => x.name === name);
  if (!s) throw new RangeError(`unknown withdrawal status ${name}`);
  return s.code;
}

/** Balance-flow types: name, id and meaning, as venue-api.md lists them. */
export const BALANCE_FLOW_TYPES = [
  { name: 'TRADE', id: 1, meaning: 'trades' },
  { name: 'FEE', id: 2, meaning: 'trading fees' },
  { name: 'TRANSFER', id: 3, meaning: 'transfer' },
  { name: 'DEPOSIT', id: 4, meaning: 'deposit' },
  { name: 'MAKER_REWARD', id: 27, meaning: 'maker reward' },
  { name: 'PNL', id: 28, meaning: 'profit and loss from contracts' },
  { name: 'SETTLEMENT', id: 30, meaning: 'settlement' },
  { name: 'LIQUIDATION', id: 31, meaning: 'liquidation' },
  { name: 'FUNDING_SETTLEMENT', id: 32, meaning: 'funding fee settlement' },
  { name: 'USER_ACCOUNT_TRANSFER', id: 51, meaning: 'internal transfer' },
  { name: 'OTC_BUY_COIN', id: 65, meaning: 'OTC buy' },
  { name: 'OTC_SELL_COIN', id: 66, meaning: 'OTC sell' },
  { name: 'OTC_FEE', id: 73, meaning: 'OTC fee' },
  { name: 'OTC_TRADE', id: 200, meaning: 'old OTC flow' },
  { name: 'ACTIVITY_AWARD', id: 67, meaning: 'campaign reward' },
  { name: 'INVITATION_REFERRAL_BONUS', id: 68, meaning: 'user rebates' },
  { name: 'REGISTER_BONUS', id: 69, meaning: 'registration reward' },
  { name: 'AIRDROP', id: 70, meaning: 'airdrop' },
  { name: 'MINE_REWARD', id: 71, meaning: 'mining reward' },
] as const;
export type BalanceFlowTypeName = (typeof BALANCE_FLOW_TYPES)[number]['name'];
export type BalanceFlowTypeId = (typeof BALANCE_FLOW_TYPES)[number]['id'];
export const BALANCE_FLOW_TYPE_NAMES: readonly BalanceFlowTypeName[] = BALANCE_FLOW_TYPES.map((t) => t.name);
/** Returns true for a balance-flow type name of the table. */
export const isBalanceFlowTypeName = guard(BALANCE_FLOW_TYPE_NAMES);

/** Returns the id of a balance-flow type name. */
export function balanceFlowTypeId(name: BalanceFlowTypeName): BalanceFlowTypeId {
  const t = BALANCE_FLOW_TYPES.find((x) => x.name === name);
  if (!t) throw new RangeError(`unknown balance flow type ${name}`);
  return t.id;
}

/** Returns the name of a balance-flow type id, or undefined for an id outside the table. */
export function balanceFlowTypeName(id: number): BalanceFlowTypeName | undefined {
  return BALANCE_FLOW_TYPES.find((t) => t.id === id)?.name;
}

/** Withdrawal chain types for the USDT token (OMNI is the default). */
export const CHAIN_TYPES = ['OMNI', 'ERC20', 'TRC20'] as const;
export type ChainType = (typeof CHAIN_TYPES)[number];
/** Returns true for a withdrawal chainType. */
export const isChainType = guard(CHAIN_TYPES);

/** brokerInfo `type` parameter values. */
export const BROKER_INFO_TYPES = ['token', 'options', 'contracts'] as const;
export type BrokerInfoType = (typeof BROKER_INFO_TYPES)[number];
/** Returns true for a brokerInfo type parameter. */
export const isBrokerInfoType = guard(BROKER_INFO_TYPES);

/** Funding-rate `state` parameter values. */
export const FUNDING_STATES = ['current', 'past'] as const;
export type FundingState = (typeof FUNDING_STATES)[number];

/** Pending-transfer wallet names (`from`, `to` of the pending transfer variant). */
export const TRANSFER_WALLETS = ['wallet', 'option', 'contract'] as const;
export type TransferWallet = (typeof TRANSFER_WALLETS)[number];
