/** The simulated venue's accounts: the public surface the engine and the server use. */
export * from './amount.ts';
export { venueError, invalidParam, insufficient } from './errors.ts';
export * from './types.ts';
export { AccountDirectory, type DirectoryData } from './accounts.ts';
export { BalanceBook, type BalanceBookData, type BalanceBookOptions } from './balances.ts';
export { SystemPools, type PoolsData } from './pools.ts';
export { Ledger, ledgerIdStarts, type LedgerData } from './ledger.ts';
export { feeOn, parseFeeRates, settleSpotFill, settleSpotQuote, settleSpotWithFees, type FeeRateAmounts } from './spot.ts';
export { resolveTransfer, transfer, transferPending } from './transfers.ts';
export { WithdrawalDesk, WITHDRAWAL_PATHS } from './withdrawals.ts';
