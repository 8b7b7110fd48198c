/** Account records: sub-accounts, balance-flow entries, transfer and margin-change answers, listen keys and error payloads. */
import { ParseError } from '../core/errors.ts';
import { isAccountType, isBalanceFlowTypeName, type AccountType, type BalanceFlowTypeName } from './enums.ts';
import { asObject, at, listOf, reqBoolish, reqDecimal, reqDecimalOrNumber, reqId, reqInt, reqString, reqTime, optString } from './wire.ts';

export interface SubAccount {
  readonly accountId: string;
  /** May be empty. */
  readonly accountName: string;
  readonly accountType: AccountType;
  /** 0 main account, 1 or larger a sub-account. */
  readonly accountIndex: number;
}

export interface BalanceFlow {
  readonly id: string;
  readonly accountId: string;
  readonly tokenId: string;
  readonly tokenName: string;
  /** Flow type id as sent (the published sample pairs AIRDROP with 7, the table with 70: both are kept as sent). */
  readonly flowTypeValue: number;
  /** Flow type name as sent; a name of the venue's table or another string. */
  readonly flowType: BalanceFlowTypeName | string;
  /** True when flowType is a name of the venue's table. */
  readonly knownFlowType: boolean;
  readonly flowName: string;
  readonly change: string;
  readonly total: string;
  readonly created: number;
}

/** The answer of either transfer variant: `{success}` (internal account transfer) or `{message, timestamp}` (pending variant). */
export type TransferResult =
  | { readonly kind: 'success'; readonly success: boolean }
  | { readonly kind: 'message'; readonly message: string; readonly timestamp: number };

export interface ModifyMarginResult {
  readonly symbol: string;
  /** Updated margin (the published sample sends a JSON number). */
  readonly margin: string;
  readonly timestamp: number;
}

export interface ListenKey {
  readonly listenKey: string;
}

/** A venue error answer `{code, msg}`. */
export interface ErrorPayload {
  readonly code: number;
  readonly msg: string;
}

/** Returns a sub-account entry. */
export function parseSubAccount(raw: unknown, path = 'subAccount'): SubAccount {
  const o = asObject(raw, path);
  const accountType = reqInt(o, 'accountType', path);
  if (!isAccountType(accountType)) throw new ParseError(at(path, 'accountType'), `must be 1, 2 or 3, got ${accountType}`);
  return {
    accountId: reqId(o, 'accountId', path),
    accountName: optString(o, 'accountName', path) ?? '',
    accountType,
    accountIndex: reqInt(o, 'accountIndex', path),
  };
}

/** Returns the list of sub-account entries (main account included). */
export function parseSubAccountList(raw: unknown, path = 'subAccounts'): readonly SubAccount[] {
  return listOf(raw, path, parseSubAccount);
}

/** Returns a balance-flow entry. */
export function parseBalanceFlow(raw: unknown, path = 'balanceFlow'): BalanceFlow {
  const o = asObject(raw, path);
  const flowType = reqString(o, 'flowType', path);
  return {
    id: reqId(o, 'id', path),
    accountId: reqId(o, 'accountId', path),
    tokenId: reqString(o, 'tokenId', path),
    tokenName: reqString(o, 'tokenName', path),
    flowTypeValue: reqInt(o, 'flowTypeValue', path),
    flowType,
    knownFlowType: isBalanceFlowTypeName(flowType),
    flowName: optString(o, 'flowName', path) ?? '',
    change: reqDecimal(o, 'change', path),
    total: reqDecimal(o, 'total', path),
    created: reqTime(o, 'created', path),
  };
}

/** Returns a list of balance-flow entries. */
export function parseBalanceFlowList(raw: unknown, path = 'balanceFlow'): readonly BalanceFlow[] {
  return listOf(raw, path, parseBalanceFlow);
}

/** Returns the answer of either transfer variant. */
export function parseTransferResult(raw: unknown, path = 'transfer'): TransferResult {
  const o = asObject(raw, path);
  if (o['success'] !== undefined) return { kind: 'success', success: reqBoolish(o, 'success', path) };
  return { kind: 'message', message: reqString(o, 'message', path), timestamp: reqTime(o, 'timestamp', path) };
}

/** Returns the answer of a margin change. */
export function parseModifyMarginResult(raw: unknown, path = 'modifyMargin'): ModifyMarginResult {
  const o = asObject(raw, path);
  return { symbol: reqString(o, 'symbol', path), margin: reqDecimalOrNumber(o, 'margin', path), timestamp: reqTime(o, 'timestamp', path) };
}

/** Returns the answer of creating a user data stream. */
export function parseListenKey(raw: unknown, path = 'userDataStream'): ListenKey {
  const o = asObject(raw, path);
  const listenKey = reqString(o, 'listenKey', path);
  if (listenKey.length === 0) throw new ParseError(at(path, 'listenKey'), 'must not be empty');
  return { listenKey };
}

/** Returns true when `raw` looks like a venue error answer (an object with a numeric `code` and a string `msg`). */
export function isErrorPayload(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  const o = raw as Record<string, unknown>;
  return (typeof o['code'] === 'number' || typeof o['code'] === 'string') && typeof o['msg'] === 'string';
}

/** Returns a venue error answer `{code, msg}` (code sent as a number, or as a numeric string). */
export function parseErrorPayload(raw: unknown, path = 'error'): ErrorPayload {
  const o = asObject(raw, path);
  return { code: reqInt(o, 'code', path), msg: reqString(o, 'msg', path) };
}
