/**
 * Runs reconciliation against the venue: at start-up, after every `reconnected` event and on the
 * clock. It reads, then hands the reads to the pure functions of reconcile/ and applies their
 * answers: open orders (adopt or cancel the unknown, settle the missing by getOrder), fills from
 * myTrades (counted once by trade id), then balances and positions, adopted only when no fill arrived
 * while they were read (the trade ids before and after the reads agree), so a snapshot and the fills
 * above its watermark never count the same trade twice. Every read goes through `read` (the executor's
 * queue and budget), so reconciliation never sends beside an executor command.
 */
import type { Clock, TimerHandle } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { AccountKind, FillReport, Gateway, OrderReport } from '../model/index.ts';
import type { OrderStore } from './order-store.ts';
import type { ContractPosition } from './portfolio/accounting.ts';
import type { Portfolio } from './portfolio/portfolio.ts';
import { EMPTY_FILL_LEDGER, mergeFills, type FillLedger } from './reconcile/fills.ts';
import { reconcileOpenOrders, type UnknownOrderPolicy } from './reconcile/orders.ts';

export interface ReconcileOptions {
  /** What to do with open orders the bot did not place (default cancel). */
  readonly unknownOrders: UnknownOrderPolicy;
  /** Accounts reconciled (default both). */
  readonly accounts: readonly AccountKind[];
  /** Period on the clock; 0 turns the periodic run off (default 30 s). */
  readonly everyMs: number;
  /** Delay before fills are read after a report showed more filled, to batch a burst (default 200 ms). */
  readonly fillDelayMs: number;
  /** Attempts to read a snapshot with no fill arriving meanwhile (default 3). */
  readonly snapshotAttempts: number;
}

export interface ReconcilerDeps {
  readonly gateway: Gateway;
  readonly clock: Clock;
  readonly portfolio: Portfolio;
  readonly store: OrderStore;
  readonly options: Partial<ReconcileOptions>;
  readonly log: Logger;
  readonly inFlight: () => ReadonlySet<string>;
  /** Cancels a listed order (ours or not). */
  readonly cancel: (r: OrderReport) => void;
  /** Settles one of our orders with getOrder. */
  readonly check: (clientOrderId: string) => void;
  /** Hands a trade from myTrades (each trade id once) to the order feed; returns false when the portfolio holds it already (it came on the stream). */
  readonly tradeFill?: (fill: FillReport) => boolean;
  /** Told after a snapshot was adopted, with the contract positions the portfolio held just before (from the fills). */
  readonly adopted?: (before: readonly ContractPosition[]) => void;
  /** Runs one venue read of `weight` through the caller's queue and budget (default: at once). */
  readonly read?: <T>(label: string, weight: number, fn: () => Promise<T>) => Promise<T>;
}

/** Weight of each read (venue-notes.md §5, the larger of the documented and the charged): openOrders per account (contracts ask LIMIT and STOP), one myTrades page, positions, both accounts. */
const READ_WEIGHT = { openOrders: { spot: 1, contract: 2 }, trades: 5, positions: 5, balances: 10 } as const;

/** Reconciliation runs; see the module comment. */
export class Reconciler {
  private ledger: FillLedger = EMPTY_FILL_LEDGER;
  private running: Promise<void> | undefined;
  private fillsRunning: Promise<void> | undefined;
  private fillsAgain = false;
  private fillTimer: TimerHandle | undefined;
  private readonly opt: ReconcileOptions;
  private readonly read: <T>(label: string, weight: number, fn: () => Promise<T>) => Promise<T>;

  constructor(private readonly d: ReconcilerDeps) {
    this.opt = { unknownOrders: 'cancel', accounts: ['spot', 'contract'], everyMs: 30_000, fillDelayMs: 200, snapshotAttempts: 3, ...d.options };
    this.read = d.read ?? ((_label, _weight, fn) => fn());
  }

  /** The period of the clock-driven run. */
  get everyMs(): number {
    return this.opt.everyMs;
  }

  /** Returns the trade-id ledger (what has been counted). */
  fills(): FillLedger {
    return this.ledger;
  }

  /** Runs once; a call while one runs joins it. `initial` counts existing trades as history (not fills of this run). */
  run(initial: boolean): Promise<void> {
    this.running ??= this.once(initial).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Reads fills after a short delay (a burst of reports makes one read). */
  syncFillsSoon(): void {
    if (this.fillTimer !== undefined) return;
    this.fillTimer = this.d.clock.setTimeout(() => {
      this.fillTimer = undefined;
      void this.syncFills().catch((err: unknown) => this.d.log.warn({ err: String(err) }, 'reading fills failed; next reconciliation reads them'));
    }, this.opt.fillDelayMs);
  }

  /** Reads the fills above the ledger's watermark and counts the new ones; concurrent calls coalesce. */
  async syncFills(history = false): Promise<void> {
    if (this.fillsRunning !== undefined) {
      this.fillsAgain = true;
      return this.fillsRunning;
    }
    this.fillsRunning = (async () => {
      do {
        this.fillsAgain = false;
        for (const account of this.opt.accounts) {
          const after = this.ledger.lastId[account];
          const got = await this.read(`tradesSince ${account}`, READ_WEIGHT.trades, () => this.d.gateway.tradesSince(account, after));
          const { ledger, fresh } = mergeFills(this.ledger, got, this.ledger !== EMPTY_FILL_LEDGER);
          this.ledger = ledger;
          if (history || fresh.length === 0) continue;
          const tradeFill = this.d.tradeFill;
          this.d.portfolio.applyFills(tradeFill === undefined ? fresh : fresh.filter((f) => tradeFill(f)));
        }
      } while (this.fillsAgain);
    })().finally(() => {
      this.fillsRunning = undefined;
    });
    return this.fillsRunning;
  }

  private async once(initial: boolean): Promise<void> {
    let adopted = 0;
    let cancelled = 0;
    let checked = 0;
    const before = this.ledger.seen.size;
    for (const account of this.opt.accounts) {
      const venueOpen = await this.read(`openOrders ${account}`, READ_WEIGHT.openOrders[account], () => this.d.gateway.openOrders(account));
      // Looked up by id, walked over the working orders only: not a copy of the thousands of finished ones kept.
      const store = this.d.store;
      const local = {
        get: (id: string) => {
          const o = store.get(id);
          return o?.account === account ? o : undefined;
        },
        values: () => store.working().filter((o) => o.account === account),
      };
      const r = reconcileOpenOrders({ local, venueOpen, policy: this.opt.unknownOrders, inFlight: this.d.inFlight() });
      for (const o of r.updated.values()) this.d.store.put(o, 'rest');
      for (const o of r.adopted) this.d.store.put(o, 'rest');
      for (const c of r.cancel) this.d.cancel(c);
      for (const o of r.check) this.d.check(o.clientOrderId);
      adopted += r.adopted.length;
      cancelled += r.cancel.length;
      checked += r.check.length;
    }
    await this.syncFills(initial);
    await this.refreshSnapshot();
    this.d.store.emit({ type: 'reconciled', adopted, cancelled, checked, fills: this.ledger.seen.size - before });
  }

  /** Reads balances and positions between two fill reads; adopts them when no fill arrived in between. */
  private async refreshSnapshot(): Promise<void> {
    for (let i = 0; i < this.opt.snapshotAttempts; i++) {
      const mark = JSON.stringify(this.ledger.lastId);
      let time = 0;
      const balances = await this.read('balances', READ_WEIGHT.balances, () => {
        // The snapshot's time is when its first read left: stream events after it are newer than it.
        time = this.d.clock.now();
        return this.d.gateway.balances();
      });
      const positions = await this.read('positions', READ_WEIGHT.positions, () => this.d.gateway.positions());
      await this.syncFills();
      if (JSON.stringify(this.ledger.lastId) !== mark) continue;
      const before = this.d.portfolio.view().positions;
      this.d.portfolio.adopt({ balances, positions, watermark: this.ledger.lastId, time });
      this.d.adopted?.(before);
      return;
    }
    this.d.log.info({ attempts: this.opt.snapshotAttempts }, 'fills kept arriving while balances were read; snapshot left for the next run');
  }
}
