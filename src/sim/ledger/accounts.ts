/** The ledger's directory: users, their main and sub-accounts of types 1 and 3, and the API keys that act for them. */
import { SequenceIds } from '../../core/ids.ts';
import { venueError } from './errors.ts';
import type { Account, AccountId, SimAccountType, UserId } from './types.ts';

/** The directory's part of the exported state: users with [accountId, type, index, name] rows, and [key, userId, index] rows. */
export interface DirectoryData {
  readonly users: [string, [string, number, number, string][]][];
  readonly keys: [string, string, number][];
}

/** Users, accounts and keys; the balance book builds on it (an account must exist before it holds money). */
export class AccountDirectory {
  protected readonly userIds: SequenceIds;
  protected readonly accountIds: SequenceIds;
  private readonly users = new Map<UserId, Account[]>();
  protected readonly accountsById = new Map<AccountId, Account>();
  private readonly keys = new Map<string, { userId: UserId; accountIndex: number }>();

  constructor(userIdStart: bigint, accountIdStart: bigint) {
    this.userIds = new SequenceIds(userIdStart);
    this.accountIds = new SequenceIds(accountIdStart);
  }

  /** Creates a user with a main account and `subAccounts` sub-accounts (each of types 1 and 3); returns the user id. */
  createUser(opts: { subAccounts?: number; name?: string; subNames?: readonly string[] } = {}): UserId {
    const userId = this.userIds.take();
    this.users.set(userId, []);
    this.openAccounts(userId, 0, '');
    for (let i = 0; i < (opts.subAccounts ?? 0); i++) this.addSubAccount(userId, opts.subNames?.[i] ?? opts.name ?? '');
    return userId;
  }

  /** Adds a sub-account (types 1 and 3) to a user; returns its account index. */
  addSubAccount(userId: UserId, name = ''): number {
    const list = this.userAccounts(userId);
    const index = list.reduce((m, a) => Math.max(m, a.accountIndex), 0) + 1;
    this.openAccounts(userId, index, name);
    return index;
  }

  private openAccounts(userId: UserId, accountIndex: number, accountName: string): void {
    const list = this.userAccounts(userId);
    for (const accountType of [1, 3] as const) {
      const a: Account = { accountId: this.accountIds.take(), userId, accountName, accountType, accountIndex };
      list.push(a);
      this.accountsById.set(a.accountId, a);
    }
  }

  private userAccounts(userId: UserId): Account[] {
    const list = this.users.get(userId);
    if (!list) throw venueError(-1153, [], { userId });
    return list;
  }

  /** Returns true when the user exists. */
  hasUser(userId: UserId): boolean {
    return this.users.has(userId);
  }

  /** Returns a user's accounts ordered by type then index, as the sub-account query lists them. */
  accounts(userId: UserId): Account[] {
    return [...this.userAccounts(userId)].sort((a, b) => a.accountType - b.accountType || a.accountIndex - b.accountIndex);
  }

  /** Returns the account, or undefined. */
  account(accountId: AccountId): Account | undefined {
    return this.accountsById.get(accountId);
  }

  /** Returns the id of a user's account of `accountType` and `accountIndex`, or undefined when it does not exist. */
  findAccountId(userId: UserId, accountType: SimAccountType, accountIndex: number): AccountId | undefined {
    return this.users.get(userId)?.find((a) => a.accountType === accountType && a.accountIndex === accountIndex)?.accountId;
  }

  /** Returns the id of a user's account; throws -1153 for an unknown user and -1171 when the account does not exist. */
  accountId(userId: UserId, accountType: SimAccountType, accountIndex = 0): AccountId {
    this.userAccounts(userId);
    const id = this.findAccountId(userId, accountType, accountIndex);
    if (id === undefined) throw venueError(-1171, [], { userId, accountType, accountIndex });
    return id;
  }

  /** Binds an API key to a user and the account index it acts for (0 a main-account key). */
  registerKey(apiKey: string, userId: UserId, accountIndex = 0): void {
    if (this.findAccountId(userId, 1, accountIndex) === undefined) throw venueError(-1171, [], { userId, accountIndex });
    this.keys.set(apiKey, { userId, accountIndex });
  }

  /** Returns the user and account index a key acts for, or undefined for an unknown key. */
  keyOwner(apiKey: string): { userId: UserId; accountIndex: number } | undefined {
    return this.keys.get(apiKey);
  }

  /** Returns the directory's users (in creation order) and keys (sorted) for exportState. */
  protected exportDirectory(): DirectoryData {
    return {
      users: [...this.users.entries()].map(([u, list]) => [u, list.map((a): [string, number, number, string] => [a.accountId, a.accountType, a.accountIndex, a.accountName])]),
      keys: this.keyRows(),
    };
  }

  /** Loads what exportDirectory wrote into this empty directory. */
  protected importDirectory(d: DirectoryData): void {
    if (this.users.size > 0) throw new Error('ledger: import into a store that already has users');
    for (const [u, list] of d.users) {
      const accounts = list.map(([accountId, type, accountIndex, accountName]): Account => ({ accountId, userId: u, accountName, accountType: type === 3 ? 3 : 1, accountIndex }));
      this.users.set(u, accounts);
      for (const a of accounts) this.accountsById.set(a.accountId, a);
    }
    for (const [k, userId, accountIndex] of d.keys) this.keys.set(k, { userId, accountIndex });
  }

  /** Returns users (sorted, accounts by type and index) and keys in a canonical order for snapshots. */
  protected snapshotDirectory(): { users: unknown[]; keys: unknown[] } {
    return { users: [...this.users.keys()].sort().map((u) => [u, this.accounts(u).map((a) => [a.accountId, a.accountType, a.accountIndex, a.accountName])]), keys: this.keyRows() };
  }

  private keyRows(): [string, string, number][] {
    return [...this.keys.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.userId, v.accountIndex]);
  }
}
