/** Withdrawals that walk through the venue's eight statuses on the clock: funds locked at the request, burnt on success, released on a reject or failure. */
import type { TimerHandle } from '../../core/clock.ts';
import { SequenceIds } from '../../core/ids.ts';
import { toAmount, type Amount } from './amount.ts';
import type { BalanceBook } from './balances.ts';
import { insufficient, invalidParam, venueError } from './errors.ts';
import { WITHDRAWAL_STATUS, type WithdrawalConfig, type WithdrawalOrder, type WithdrawalStatus, type WithdrawalStatusCode, type WithdrawOutcome, type WithdrawRequest, type WithdrawResult } from './types.ts';

/** The statuses each outcome passes through, first to last. */
export const WITHDRAWAL_PATHS: Readonly<Record<WithdrawOutcome, readonly WithdrawalStatus[]>> = {
  success: [1, 3, 5, 8, 6],
  brokerReject: [1, 2],
  auditReject: [1, 3, 4],
  failure: [1, 3, 5, 7],
};

const CODE_OF = Object.fromEntries(Object.entries(WITHDRAWAL_STATUS).map(([k, v]) => [v, k])) as Record<WithdrawalStatus, WithdrawalStatusCode>;

type MutableOrder = { -readonly [K in keyof WithdrawalOrder]: WithdrawalOrder[K] };

/** Keeps withdrawal orders and moves each one step along its path every `stepMs` of clock time. */
export class WithdrawalDesk {
  private readonly orders: MutableOrder[] = [];
  /** Orders by user and clientOrderId, for the repeat check without a scan. */
  private readonly byClient = new Map<string, MutableOrder>();
  /** How many orders each user has in `orders`. */
  private readonly perUser = new Map<string, number>();
  private readonly keepFinished: number;
  private readonly timers = new Map<string, TimerHandle>();
  private readonly stepMs: number;
  private readonly outcome: WithdrawOutcome;
  private readonly fees: ReadonlyMap<string, Amount>;
  private readonly requiredConfirmNum: number;
  private readonly brokerAudit: boolean;
  /** Called after each status step (`settled` on the last, when the funds were burnt or released). */
  onStep: ((order: WithdrawalOrder, settled: boolean) => void) | undefined;

  constructor(private readonly book: BalanceBook, private readonly ids: SequenceIds, cfg: WithdrawalConfig = {}) {
    this.stepMs = cfg.stepMs ?? 60_000;
    this.outcome = cfg.outcome ?? 'success';
    this.fees = new Map(Object.entries(cfg.fees ?? {}).map(([t, f]) => [t, toAmount(f, `withdrawal.fees.${t}`)]));
    this.requiredConfirmNum = cfg.requiredConfirmNum ?? 12;
    this.brokerAudit = cfg.brokerAudit ?? true;
    this.keepFinished = cfg.keepFinished ?? 100_000;
  }

  /**
   * Takes a withdrawal from the user's main token account: locks quantity + fee and schedules the
   * status steps. Throws -1177 for a zero quantity, -1180 for a negative one, -1173 for an empty
   * address, -1174 for a clientOrderId the user already used, -1131 when free funds are short.
   */
  request(req: WithdrawRequest): WithdrawResult {
    if (!req.tokenId) throw invalidParam('tokenId', 'must not be empty');
    if (req.quantity === 0n) throw venueError(-1177, [], { field: 'withdrawQuantity' });
    if (req.quantity < 0n) throw venueError(-1180, [], { quantity: req.quantity.toString() });
    if (!req.address) throw venueError(-1173, [], { field: 'address' });
    if (!req.clientOrderId) throw invalidParam('clientOrderId', 'must not be empty');
    if (this.byClient.has(clientKey(req.userId, req.clientOrderId))) {
      throw venueError(-1174, [], { clientOrderId: req.clientOrderId });
    }
    const accountId = this.book.accountId(req.userId, 1, 0);
    const fee = this.fees.get(req.tokenId) ?? 0n;
    const need = req.quantity + fee;
    const b = this.book.balance(accountId, req.tokenId);
    if (b.free < need) throw insufficient({ accountId, asset: req.tokenId, free: b.free.toString(), need: need.toString() });
    this.book.lock(accountId, req.tokenId, need);
    const outcome = req.outcome ?? this.outcome;
    const path = this.pathOf(outcome);
    const now = this.book.clock.now();
    const order: MutableOrder = {
      orderId: this.ids.take(),
      clientOrderId: req.clientOrderId,
      userId: req.userId,
      accountId,
      time: now,
      tokenId: req.tokenId,
      address: req.address,
      addressExt: req.addressExt ?? '',
      quantity: req.quantity,
      arriveQuantity: req.quantity,
      fee,
      feeTokenId: req.tokenId,
      status: path[0]!,
      statusCode: CODE_OF[path[0]!],
      walletHandleTime: now,
      requiredConfirmNum: this.requiredConfirmNum,
      confirmNum: 0,
      txid: '',
      outcome,
    };
    this.keep(order);
    this.schedule(order, 1);
    if (this.perUser.get(order.userId)! > 2 * this.keepFinished) this.forgetOldest(order.userId);
    return { status: order.status, success: true, needBrokerAudit: order.status === 1, orderId: order.orderId };
  }

  private keep(order: MutableOrder): void {
    this.orders.push(order);
    this.byClient.set(clientKey(order.userId, order.clientOrderId), order);
    this.perUser.set(order.userId, (this.perUser.get(order.userId) ?? 0) + 1);
  }

  /**
   * Forgets the user's oldest finished withdrawals until `keepFinished` orders are left (pending ones are
   * never forgotten): a user sending dust withdrawals would otherwise grow the desk without end. Their
   * clientOrderIds may then be used again, as those of forgotten orders may.
   */
  private forgetOldest(userId: string): void {
    let excess = this.perUser.get(userId)! - this.keepFinished;
    let kept = 0;
    for (const o of this.orders) {
      if (excess > 0 && o.userId === userId && !this.timers.has(o.orderId)) {
        excess -= 1;
        this.byClient.delete(clientKey(o.userId, o.clientOrderId));
        this.perUser.set(userId, this.perUser.get(userId)! - 1);
      } else {
        this.orders[kept++] = o;
      }
    }
    this.orders.length = kept;
  }

  private pathOf(outcome: WithdrawOutcome): readonly WithdrawalStatus[] {
    const path = WITHDRAWAL_PATHS[outcome];
    return this.brokerAudit || outcome === 'brokerReject' ? path : path.slice(1);
  }

  private schedule(order: MutableOrder, step: number): void {
    const path = this.pathOf(order.outcome);
    if (step >= path.length) return;
    const t = this.book.clock.setTimeout(() => {
      this.timers.delete(order.orderId);
      this.advance(order, path[step]!, step === path.length - 1);
      this.onStep?.(order, step === path.length - 1);
      this.schedule(order, step + 1);
    }, this.stepMs);
    this.timers.set(order.orderId, t);
  }

  private advance(order: MutableOrder, status: WithdrawalStatus, last: boolean): void {
    order.status = status;
    order.statusCode = CODE_OF[status];
    order.walletHandleTime = this.book.clock.now();
    if (status === 8) order.txid = `0x${order.orderId.padStart(64, '0')}`;
    if (!last) return;
    const held = order.quantity + order.fee;
    if (status === 6) {
      order.confirmNum = order.requiredConfirmNum;
      this.book.post(
        [
          { accountId: order.accountId, asset: order.tokenId, locked: -order.quantity, flow: 'TRANSFER' },
          { accountId: order.accountId, asset: order.tokenId, locked: -order.fee, flow: 'FEE' },
        ],
        [
          { pool: 'outside', asset: order.tokenId, delta: order.quantity },
          { pool: 'fees', asset: order.tokenId, delta: order.fee },
        ],
      );
    } else {
      this.book.unlock(order.accountId, order.tokenId, held);
    }
  }

  /** Returns one withdrawal order by id or by the user's clientOrderId, or undefined. */
  get(userId: string, by: { orderId?: string; clientOrderId?: string }): WithdrawalOrder | undefined {
    return this.orders.find((o) => o.userId === userId && (o.orderId === by.orderId || (by.clientOrderId !== undefined && o.clientOrderId === by.clientOrderId)));
  }

  /** Returns a user's withdrawal orders, oldest first, optionally of one token. */
  list(userId: string, tokenId?: string): WithdrawalOrder[] {
    return this.orders.filter((o) => o.userId === userId && (tokenId === undefined || o.tokenId === tokenId));
  }

  /** Returns every order as plain data for exportState (amounts as strings). */
  exportData(): Record<string, unknown>[] {
    return this.orders.map((o) => ({ ...o, quantity: o.quantity.toString(), arriveQuantity: o.arriveQuantity.toString(), fee: o.fee.toString() }));
  }

  /** Loads exported orders; those not at their last status continue one step every stepMs from now. */
  importData(list: readonly Record<string, unknown>[]): void {
    for (const raw of list) {
      const o = { ...raw, quantity: BigInt(raw.quantity as string), arriveQuantity: BigInt(raw.arriveQuantity as string), fee: BigInt(raw.fee as string) } as MutableOrder;
      this.keep(o);
      const path = this.pathOf(o.outcome);
      const at = path.indexOf(o.status);
      if (at >= 0 && at < path.length - 1) this.schedule(o, at + 1);
    }
  }

  /** Returns the desk's state as canonical JSON-ready data. */
  snapshotData(): unknown {
    return this.orders.map((o) => [o.orderId, o.clientOrderId, o.userId, o.tokenId, o.quantity.toString(), o.fee.toString(), o.status, o.confirmNum, o.txid, o.walletHandleTime, o.outcome]);
  }
}

function clientKey(userId: string, clientOrderId: string): string {
  return `${userId}\u0000${clientOrderId}`;
}
