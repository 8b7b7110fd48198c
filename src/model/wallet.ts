/** Wallet records: deposits, withdrawals and the answer to a withdraw request. */
import { WITHDRAWAL_STATUS_NAMES, type WithdrawalStatusName } from './enums.ts';
import { asObject, listOf, optBool, optDecimal, optInt, optString, optTime, reqBool, reqDecimal, reqId, reqInt, reqString, reqTime } from './wire.ts';

export interface Deposit {
  readonly time: number;
  readonly orderId: string;
  readonly token: string;
  /** May be empty. */
  readonly address: string;
  readonly addressTag: string;
  readonly fromAddress: string;
  readonly fromAddressTag: string;
  readonly quantity: string;
}

export interface Withdrawal {
  readonly time: number;
  readonly orderId: string;
  readonly accountId: string;
  readonly tokenId: string;
  readonly tokenName: string;
  readonly address: string;
  readonly addressExt: string;
  /** Undefined when the venue sent an empty quantity. */
  readonly quantity?: string;
  readonly arriveQuantity?: string;
  /** Status name as sent; a known name of the table or another string. */
  readonly statusCode: WithdrawalStatusName | string;
  /** Status number as sent (the published sample pairs 3 with PROCESSING_STATUS, so the two are not cross-checked). */
  readonly status: number;
  readonly txid: string;
  readonly txidUrl: string;
  readonly walletHandleTime?: number;
  readonly feeTokenId: string;
  readonly feeTokenName: string;
  readonly fee?: string;
  readonly requiredConfirmNum: number;
  readonly confirmNum: number;
  readonly kernelId?: string;
  readonly isInternalTransfer?: boolean;
}

export interface WithdrawResult {
  readonly status: number;
  readonly success: boolean;
  readonly needBrokerAudit: boolean;
  readonly orderId: string;
}

/** Returns a deposit order. */
export function parseDeposit(raw: unknown, path = 'deposit'): Deposit {
  const o = asObject(raw, path);
  return {
    time: reqTime(o, 'time', path),
    orderId: reqId(o, 'orderId', path),
    token: reqString(o, 'token', path),
    address: optString(o, 'address', path) ?? '',
    addressTag: optString(o, 'addressTag', path) ?? '',
    fromAddress: optString(o, 'fromAddress', path) ?? '',
    fromAddressTag: optString(o, 'fromAddressTag', path) ?? '',
    quantity: reqDecimal(o, 'quantity', path),
  };
}

/** Returns a list of deposit orders. */
export function parseDepositList(raw: unknown, path = 'deposits'): readonly Deposit[] {
  return listOf(raw, path, parseDeposit);
}

/** Returns a withdrawal order. */
export function parseWithdrawal(raw: unknown, path = 'withdrawal'): Withdrawal {
  const o = asObject(raw, path);
  const statusCode = reqString(o, 'statusCode', path);
  return {
    time: reqTime(o, 'time', path),
    orderId: reqId(o, 'orderId', path),
    accountId: reqId(o, 'accountId', path),
    tokenId: reqString(o, 'tokenId', path),
    tokenName: reqString(o, 'tokenName', path),
    address: optString(o, 'address', path) ?? '',
    addressExt: optString(o, 'addressExt', path) ?? '',
    quantity: optDecimal(o, 'quantity', path, true),
    arriveQuantity: optDecimal(o, 'arriveQuantity', path, true),
    statusCode: (WITHDRAWAL_STATUS_NAMES as readonly string[]).includes(statusCode) ? (statusCode as WithdrawalStatusName) : statusCode,
    status: reqInt(o, 'status', path),
    txid: optString(o, 'txid', path) ?? '',
    txidUrl: optString(o, 'txidUrl', path) ?? '',
    walletHandleTime: optTime(o, 'walletHandleTime', path),
    feeTokenId: reqString(o, 'feeTokenId', path),
    feeTokenName: reqString(o, 'feeTokenName', path),
    fee: optDecimal(o, 'fee', path, true),
    requiredConfirmNum: optInt(o, 'requiredConfirmNum', path) ?? 0,
    confirmNum: optInt(o, 'confirmNum', path) ?? 0,
    kernelId: optString(o, 'kernelId', path),
    isInternalTransfer: optBool(o, 'isInternalTransfer', path),
  };
}

/** Returns a list of withdrawal orders. */
export function parseWithdrawalList(raw: unknown, path = 'withdrawals'): readonly Withdrawal[] {
  return listOf(raw, path, parseWithdrawal);
}

/** Returns the answer to a withdraw request. */
export function parseWithdrawResult(raw: unknown, path = 'withdraw'): WithdrawResult {
  const o = asObject(raw, path);
  return {
    status: reqInt(o, 'status', path),
    success: reqBool(o, 'success', path),
    needBrokerAudit: reqBool(o, 'needBrokerAudit', path),
    orderId: reqId(o, 'orderId', path),
  };
}
