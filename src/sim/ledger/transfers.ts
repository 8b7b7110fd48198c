/** Internal transfers under venue-api.md's rules: between a user's accounts, one end always the main token account; and the pending wallet/contract variant. */
import type { Amount } from './amount.ts';
import type { BalanceBook } from './balances.ts';
import { invalidParam, venueError } from './errors.ts';
import type { AccountId, PendingTransferEnd, PendingTransferRequest, SimAccountType, TransferActor, TransferRequest } from './types.ts';

/** Returns the account type checked: -1130 for a value outside 1..3, -1172 for options (2), which the simulated venue does not keep. */
function accountTypeOf(v: number | undefined, field: string): SimAccountType {
  if (v === undefined) throw invalidParam(field, 'is required with a main-account key');
  if (v === 1 || v === 3) return v;
  if (v === 2) throw venueError(-1172, [], { field, accountType: v, rule: 'no options account in the simulated venue' });
  throw invalidParam(field, 'must be 1 (token), 2 (options) or 3 (contracts)', { value: v });
}

function accountIndexOf(v: number | undefined, field: string): number {
  if (v === undefined) throw invalidParam(field, 'is required with a main-account key');
  if (!Number.isSafeInteger(v) || v < 0) throw invalidParam(field, 'must be an integer of 0 or more', { value: v });
  return v;
}

function checkAmount(amount: Amount, tokenId: string): void {
  if (!tokenId) throw invalidParam('tokenId', 'must not be empty');
  if (amount <= 0n) throw invalidParam('amount', 'must be positive', { amount: amount.toString() });
}

/**
 * Resolves a transfer request to its two accounts, or throws the venue's refusal:
 * -1130 for a malformed field, -1172 for a route the rules forbid (neither end the main token
 * account, both ends the same, an account that does not exist, a sub-account key naming accounts
 * other than its own token account → main token account).
 */
export function resolveTransfer(book: BalanceBook, actor: TransferActor, req: TransferRequest): { from: AccountId; to: AccountId } {
  checkAmount(req.amount, req.tokenId);
  if (!book.hasUser(actor.userId)) throw venueError(-1153, [], { userId: actor.userId });
  if (actor.accountIndex > 0) {
    // A sub-account key moves only from its own token account to the main token account; the four
    // type and index parameters are left empty, or must name exactly that route.
    const implied = { fromAccountType: 1, fromAccountIndex: actor.accountIndex, toAccountType: 1, toAccountIndex: 0 } as const;
    for (const k of Object.keys(implied) as (keyof typeof implied)[]) {
      const v = req[k];
      if (v !== undefined && v !== implied[k]) throw venueError(-1172, [], { rule: 'a sub-account key transfers only from its own account to the main account', field: k, value: v });
    }
    const from = book.findAccountId(actor.userId, 1, actor.accountIndex);
    const to = book.findAccountId(actor.userId, 1, 0);
    if (from === undefined || to === undefined) throw venueError(-1172, [], { rule: 'account does not exist', accountIndex: actor.accountIndex });
    return { from, to };
  }
  const fromType = accountTypeOf(req.fromAccountType, 'fromAccountType');
  const fromIndex = accountIndexOf(req.fromAccountIndex, 'fromAccountIndex');
  const toType = accountTypeOf(req.toAccountType, 'toAccountType');
  const toIndex = accountIndexOf(req.toAccountIndex, 'toAccountIndex');
  if (fromType === toType && fromIndex === toIndex) throw venueError(-1172, [], { rule: 'the two ends are the same account', fromType, fromIndex });
  const mainToken = (t: number, i: number): boolean => t === 1 && i === 0;
  if (!mainToken(fromType, fromIndex) && !mainToken(toType, toIndex)) {
    throw venueError(-1172, [], { rule: 'either end must be the main token account', fromType, fromIndex, toType, toIndex });
  }
  const from = book.findAccountId(actor.userId, fromType, fromIndex);
  const to = book.findAccountId(actor.userId, toType, toIndex);
  if (from === undefined) throw venueError(-1172, [], { rule: 'account does not exist', accountType: fromType, accountIndex: fromIndex });
  if (to === undefined) throw venueError(-1172, [], { rule: 'account does not exist', accountType: toType, accountIndex: toIndex });
  return { from, to };
}

/** Moves funds between a user's accounts under the transfer rules; throws -1130, -1172 or -1131 (insufficient free), changing nothing. */
export function transfer(book: BalanceBook, actor: TransferActor, req: TransferRequest): void {
  const { from, to } = resolveTransfer(book, actor, req);
  book.post([
    { accountId: from, asset: req.tokenId, free: -req.amount, flow: 'USER_ACCOUNT_TRANSFER' },
    { accountId: to, asset: req.tokenId, free: req.amount, flow: 'USER_ACCOUNT_TRANSFER' },
  ]);
}

function endOf(v: string, field: string): PendingTransferEnd {
  if (v === 'wallet' || v === 'option' || v === 'contract') return v;
  throw invalidParam(field, 'must be wallet, option or contract', { value: v });
}

/**
 * The pending variant: moves `currency` between the main token account (wallet) and the main
 * contracts account of the key's user. Only a main-account key may use it; `option` names an
 * account the simulated venue does not keep (-1172); same ends -1172; short funds -1131.
 * Written with flow type TRANSFER, so it is told apart from account-to-account transfers.
 */
export function transferPending(book: BalanceBook, actor: TransferActor, req: PendingTransferRequest): void {
  const fromEnd = endOf(req.from, 'from');
  const toEnd = endOf(req.to, 'to');
  checkAmount(req.amount, req.currency);
  if (!book.hasUser(actor.userId)) throw venueError(-1153, [], { userId: actor.userId });
  if (actor.accountIndex !== 0) throw venueError(-1172, [], { rule: 'the wallet/contract transfer is for a main-account key' });
  if (fromEnd === toEnd) throw venueError(-1172, [], { rule: 'the two ends are the same account', from: fromEnd });
  if (fromEnd === 'option' || toEnd === 'option') throw venueError(-1172, [], { rule: 'no options account in the simulated venue' });
  const typeOf = (e: 'wallet' | 'contract'): SimAccountType => (e === 'wallet' ? 1 : 3);
  const from = book.accountId(actor.userId, typeOf(fromEnd), 0);
  const to = book.accountId(actor.userId, typeOf(toEnd), 0);
  book.post([
    { accountId: from, asset: req.currency, free: -req.amount, flow: 'TRANSFER' },
    { accountId: to, asset: req.currency, free: req.amount, flow: 'TRANSFER' },
  ]);
}
