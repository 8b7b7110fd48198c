/** The simulated venue's accounts in one object: users and accounts, balances, spot fill settlement, transfers, deposits, withdrawals and the insurance fund. */
import { SequenceIds } from '../../core/ids.ts';
import type { Amount } from './amount.ts';
import { BalanceBook, type BalanceBookData } from './balances.ts';
import { invalidParam } from './errors.ts';
import { parseFeeRates, settleSpotFill, settleSpotQuote, settleSpotWithFees, type FeeRateAmounts } from './spot.ts';
import { transfer, transferPending } from './transfers.ts';
import type {
  AccountId,
  DepositOrder,
  FeeRates,
  LedgerConfig,
  PendingTransferRequest,
  SpotFill,
  SpotFillResult,
  TransferActor,
  TransferRequest,
  UserId,
  WithdrawalOrder,
  WithdrawRequest,
  WithdrawResult,
} from './types.ts';
import { WithdrawalDesk } from './withdrawals.ts';

/** The ledger's exported state (see Ledger.exportState). */
export interface LedgerData {
  readonly book: BalanceBookData;
  readonly orderIds: string;
  readonly deposits: [string, number, string, string, string, string][];
  readonly withdrawals: Record<string, unknown>[];
  readonly fees: [string, string];
  readonly accountFees: [string, string, string][];
}

/** Returns the id starts a ledger must be made with to load `d`. */
export function ledgerIdStarts(d: LedgerData): Pick<LedgerConfig, 'userIdStart' | 'accountIdStart' | 'flowIdStart' | 'orderIdStart' | 'insuranceIdStart'> {
  return {
    userIdStart: BigInt(d.book.ids.user), accountIdStart: BigInt(d.book.ids.account), flowIdStart: BigInt(d.book.ids.firstFlow),
    orderIdStart: BigInt(d.orderIds), insuranceIdStart: BigInt(d.book.ids.insurance),
  };
}

/**
 * The ledger of the simulated venue. Every method either applies all its changes or, when it
 * throws a VenueError, none (the state, and so `snapshot()`, stays byte-identical).
 */
export class Ledger extends BalanceBook {
  private readonly orderIds: SequenceIds;
  private readonly desk: WithdrawalDesk;
  private readonly deposits: DepositOrder[] = [];
  private defaultSpotFees: FeeRateAmounts;
  private readonly spotFees = new Map<AccountId, FeeRateAmounts>();

  constructor(cfg: LedgerConfig) {
    super(cfg);
    this.orderIds = new SequenceIds(cfg.orderIdStart ?? 428_100_569_859_739_648n);
    this.defaultSpotFees = parseFeeRates(cfg.spotFees ?? { maker: '0.001', taker: '0.001' });
    this.desk = new WithdrawalDesk(this, this.orderIds, cfg.withdrawal);
  }

  /** Sets the spot maker and taker fee rates of one account, or the default for all when `accountId` is undefined. */
  setSpotFees(rates: FeeRates, accountId?: AccountId): void {
    const parsed = parseFeeRates(rates);
    if (accountId === undefined) this.defaultSpotFees = parsed;
    else this.spotFees.set(accountId, parsed);
  }

  /** Returns the spot fee rates that apply to an account. */
  spotFeesOf(accountId: AccountId): FeeRateAmounts {
    return this.spotFees.get(accountId) ?? this.defaultSpotFees;
  }

  /** Settles a spot fill atomically (see settleSpotFill) and returns the quote paid and both fees. */
  settleSpotFill(fill: SpotFill): SpotFillResult {
    return settleSpotFill(this, fill, (id) => this.spotFeesOf(id));
  }

  /** Settles a spot fill whose exact quote amount the caller has (see settleSpotQuote); returns both fees. */
  settleSpotQuote(base: string, quote: string, qty: Amount, quoteQty: Amount, buyerId: AccountId, buyerMaker: boolean, buyerRelease: Amount, sellerId: AccountId, sellerMaker: boolean, sellerRelease: Amount): SpotFillResult {
    return settleSpotQuote(this, base, quote, qty, quoteQty, buyerId, buyerMaker, buyerRelease, sellerId, sellerMaker, sellerRelease, this.feesOf);
  }

  /** Settles a spot fill with fees the caller computed at the accounts' rates (see settleSpotWithFees). */
  settleSpotFees(base: string, quote: string, qty: Amount, quoteQty: Amount, buyerId: AccountId, buyerRelease: Amount, sellerId: AccountId, sellerRelease: Amount, buyerFee: Amount, sellerFee: Amount): void {
    settleSpotWithFees(this, base, quote, qty, quoteQty, buyerId, buyerRelease, sellerId, sellerRelease, buyerFee, sellerFee);
  }

  private readonly feesOf = (id: AccountId): FeeRateAmounts => this.spotFees.get(id) ?? this.defaultSpotFees;

  /** Moves funds between a user's accounts under venue-api.md's transfer rules (-1130, -1172, -1131). */
  transfer(actor: TransferActor, req: TransferRequest): void {
    transfer(this, actor, req);
  }

  /** The pending wallet/contract transfer variant (-1130, -1172, -1131). */
  transferPending(actor: TransferActor, req: PendingTransferRequest): void {
    transferPending(this, actor, req);
  }

  /** Credits a scripted deposit to the user's main token account (flow DEPOSIT) and returns the deposit order. */
  deposit(userId: UserId, asset: string, amount: Amount): DepositOrder {
    if (!asset) throw invalidParam('token', 'must not be empty');
    if (amount <= 0n) throw invalidParam('quantity', 'a deposit must be positive', { amount: amount.toString() });
    const accountId = this.accountId(userId, 1, 0);
    this.post([{ accountId, asset, free: amount, flow: 'DEPOSIT' }], [{ pool: 'outside', asset, delta: -amount }]);
    const order: DepositOrder = { orderId: this.orderIds.take(), time: this.clock.now(), userId, accountId, token: asset, quantity: amount };
    this.deposits.push(order);
    return order;
  }

  /** Returns a user's deposit orders, oldest first. */
  depositOrders(userId: UserId): DepositOrder[] {
    return this.deposits.filter((d) => d.userId === userId);
  }

  /** Takes a withdrawal request (see WithdrawalDesk.request). */
  withdraw(req: WithdrawRequest): WithdrawResult {
    return this.desk.request(req);
  }

  /** Sets the function told of each withdrawal status step (`settled` on the last one, which moves funds). */
  onWithdrawalStep(fn: (order: WithdrawalOrder, settled: boolean) => void): void {
    this.desk.onStep = fn;
  }

  /** Returns one withdrawal order of a user by orderId or clientOrderId. */
  withdrawal(userId: UserId, by: { orderId?: string; clientOrderId?: string }): WithdrawalOrder | undefined {
    return this.desk.get(userId, by);
  }

  /** Returns a user's withdrawal orders, oldest first. */
  withdrawals(userId: UserId, tokenId?: string): WithdrawalOrder[] {
    return this.desk.list(userId, tokenId);
  }

  /** Adds money to an insurance fund from outside the venue (counted as inflow, like a deposit). */
  seedInsurance(asset: string, amount: Amount): void {
    if (amount <= 0n) throw invalidParam('amount', 'must be positive', { amount: amount.toString() });
    this.post([], [{ pool: 'insurance', asset, delta: amount }, { pool: 'outside', asset, delta: -amount }]);
  }

  /** Returns the insurance fund of a margin token. */
  insuranceFund(asset: string): Amount {
    return this.pool('insurance', asset);
  }

  /** Returns the ledger's state as plain data for exportState: balances, flows, ids, deposits, withdrawals and fee rates. */
  exportState(): LedgerData {
    const rates = (r: FeeRateAmounts): [string, string] => [r.maker.toString(), r.taker.toString()];
    return {
      book: this.exportData(),
      orderIds: this.orderIds.peek(),
      deposits: this.deposits.map((d) => [d.orderId, d.time, d.userId, d.accountId, d.token, d.quantity.toString()]),
      withdrawals: this.desk.exportData(),
      fees: rates(this.defaultSpotFees),
      accountFees: [...this.spotFees.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, ...rates(v)]),
    };
  }

  /** Loads what exportState wrote into this empty ledger, which was made with `ledgerIdStarts(data)` as its id starts. */
  importState(d: LedgerData): void {
    this.importData(d.book);
    for (const [orderId, time, userId, accountId, token, quantity] of d.deposits) this.deposits.push({ orderId, time, userId, accountId, token, quantity: BigInt(quantity) });
    this.desk.importData(d.withdrawals);
    this.defaultSpotFees = { maker: BigInt(d.fees[0]), taker: BigInt(d.fees[1]) };
    for (const [k, maker, taker] of d.accountFees) this.spotFees.set(k, { maker: BigInt(maker), taker: BigInt(taker) });
  }

  /** Returns the whole state as canonical JSON: equal strings mean equal states. */
  snapshot(): string {
    const deposits = this.deposits.map((d) => [d.orderId, d.time, d.userId, d.token, d.quantity.toString()]);
    const fees = [...this.spotFees.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.maker.toString(), v.taker.toString()]);
    return JSON.stringify({
      book: this.snapshotData(),
      deposits,
      withdrawals: this.desk.snapshotData(),
      orderIds: this.orderIds.peek(),
      fees: [this.defaultSpotFees.maker.toString(), this.defaultSpotFees.taker.toString(), fees],
    });
  }
}
