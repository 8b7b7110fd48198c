/** Balances: the spot account (a list of assets) and the contract account (keyed by margin token). */
import { asObject, at, listOf, optBool, optString, optTime, reqDecimal, reqString } from './wire.ts';

export interface SpotBalance {
  readonly asset: string;
  /** Available. */
  readonly free: string;
  /** Locked by open orders. */
  readonly locked: string;
}

export interface SpotAccount {
  readonly canTrade?: boolean;
  readonly canWithdraw?: boolean;
  readonly canDeposit?: boolean;
  readonly updateTime?: number;
  readonly balances: readonly SpotBalance[];
}

export interface ContractBalance {
  /** The margin token (the key of the wire object). */
  readonly token: string;
  readonly total: string;
  readonly availableMargin: string;
  readonly positionMargin: string;
  readonly orderMargin: string;
  /** Sent by real servers as well as the key. */
  readonly tokenId?: string;
}

/** The contract account: one balance per margin token. */
export type ContractAccount = Readonly<Record<string, ContractBalance>>;

/** Returns a spot balance entry. */
export function parseSpotBalance(raw: unknown, path = 'balance'): SpotBalance {
  const o = asObject(raw, path);
  return { asset: reqString(o, 'asset', path), free: reqDecimal(o, 'free', path), locked: reqDecimal(o, 'locked', path) };
}

/** Returns the spot account; the permission flags and updateTime are optional (real servers omitted them). */
export function parseSpotAccount(raw: unknown, path = 'account'): SpotAccount {
  const o = asObject(raw, path);
  return {
    canTrade: optBool(o, 'canTrade', path),
    canWithdraw: optBool(o, 'canWithdraw', path),
    canDeposit: optBool(o, 'canDeposit', path),
    updateTime: optTime(o, 'updateTime', path),
    balances: listOf(o['balances'], at(path, 'balances'), parseSpotBalance),
  };
}

/** Returns the contract account keyed by margin token. */
export function parseContractAccount(raw: unknown, path = 'account'): ContractAccount {
  const o = asObject(raw, path);
  const out: Record<string, ContractBalance> = {};
  for (const token of Object.keys(o)) {
    const p = at(path, token);
    const b = asObject(o[token], p);
    out[token] = {
      token,
      total: reqDecimal(b, 'total', p),
      availableMargin: reqDecimal(b, 'availableMargin', p),
      positionMargin: reqDecimal(b, 'positionMargin', p),
      orderMargin: reqDecimal(b, 'orderMargin', p),
      tokenId: optString(b, 'tokenId', p),
    };
  }
  return out;
}
