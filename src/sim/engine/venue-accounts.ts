/** The base of SimVenue: its parts (ledger, engine core, contract desk and market) built from the config or a saved state, and the users and funds operations (users, deposits, transfers, withdrawals). */
import type { Clock } from '../../core/clock.ts';
import { scaleOf } from '../../core/fixed.ts';
import { parseContract, parseSpotSymbol } from '../../model/instrument.ts';
import { toAmount } from '../ledger/amount.ts';
import { Ledger, ledgerIdStarts } from '../ledger/ledger.ts';
import { resolveTransfer } from '../ledger/transfers.ts';
import type { AccountId, DepositOrder, PendingTransferRequest, TransferActor, TransferRequest, UserId, WithdrawalOrder, WithdrawRequest, WithdrawResult } from '../ledger/types.ts';
import type { SimVenueConfig } from './config.ts';
import { ContractDesk } from './contract.ts';
import { EngineCore } from './core.ts';
import { ContractMarket } from './derivatives.ts';
import { SimInstrument } from './instruments.ts';
import { importEngine, STATE_VERSION, type VenueStateData } from './state.ts';

/**
 * The venue's parts and its account operations; SimVenue adds trading, market data and state on top.
 * Every account operation either succeeds, emitting the balance events of the accounts it touched, or
 * throws the venue's VenueError having changed nothing.
 */
export class VenueAccounts {
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly core: EngineCore;
  readonly seed: number;
  readonly desk: ContractDesk;
  /** Index and mark prices, EDP, funding and the contract views. */
  readonly market: ContractMarket;
  /** Users by name (saved with the state, so a restored venue finds them again). */
  protected readonly users = new Map<string, UserId>();
  private decimalsByAsset: Map<string, number> | undefined;

  /**
   * Makes a venue from its configuration: instruments, fees, funded accounts. `restore` (see
   * fromState) starts it from an exported state instead of the configured accounts.
   */
  constructor(config: SimVenueConfig, clock: Clock, restore?: VenueStateData) {
    this.clock = clock;
    this.seed = config.seed;
    this.ledger = new Ledger({
      clock, ...(config.spotFees ? { spotFees: config.spotFees } : {}), ...(config.withdrawal ? { withdrawal: config.withdrawal } : {}),
      ...(restore ? ledgerIdStarts(restore.ledger) : {}),
    });
    const ids = restore ? { orderId: BigInt(restore.ids.order[0]), tradeId: BigInt(restore.ids.trade[0]), logSeq: restore.ids.logSeq } : {};
    this.core = new EngineCore(clock, this.ledger, config.exchangeId ?? '301', config.keepEventLog ?? true, ids, config.keepFinishedOrders);
    (config.instruments.symbols ?? []).forEach((raw, i) => this.addInstrument(new SimInstrument({ spot: parseSpotSymbol(raw, `instruments.symbols[${i}]`) })));
    (config.instruments.contracts ?? []).forEach((raw, i) => this.addInstrument(new SimInstrument({ contract: parseContract(raw, `instruments.contracts[${i}]`) })));
    this.desk = new ContractDesk(this.core, config.contractFees);
    this.market = new ContractMarket(this.desk, config.funding);
    this.ledger.onWithdrawalStep((w, settled) => this.withdrawalStep(w, settled));
    if (this.instrumentsOf('contract').length > 0) this.market.funding.start();
    if (restore) {
      if (restore.version !== STATE_VERSION) throw new Error(`state version ${restore.version} is not ${STATE_VERSION}`);
      this.ledger.importState(restore.ledger);
      for (const [name, userId] of restore.users) this.users.set(name, userId);
      importEngine(restore, this.core, this.desk, this.market);
      return;
    }
    for (const a of config.accounts ?? []) {
      const userId = this.createUser(a.name, a.subAccounts ?? 0, a.subAccountNames);
      if (a.apiKey) this.ledger.registerKey(a.apiKey, userId);
      for (const [asset, amount] of Object.entries(a.deposits ?? {})) this.deposit(userId, asset, amount);
    }
  }

  private addInstrument(inst: SimInstrument): void {
    if (this.core.instruments.has(inst.symbol)) throw new Error(`instrument ${inst.symbol} is configured twice`);
    this.core.instruments.set(inst.symbol, inst);
  }

  // ---- users and funds --------------------------------------------------------------------------------

  /** Creates a user named `name` with `subAccounts` sub-accounts (named `subNames`, index 1 first, else `name`); returns its user id. */
  createUser(name: string, subAccounts = 0, subNames: readonly string[] = []): UserId {
    if (this.users.has(name)) throw new Error(`user ${name} exists`);
    const userId = this.ledger.createUser({ subAccounts, name, subNames });
    this.users.set(name, userId);
    return userId;
  }

  /** Returns the user id of the user named `name`, or undefined when there is none (a restored venue keeps the saved names). */
  findUser(name: string): UserId | undefined {
    return this.users.get(name);
  }

  /**
   * Returns the most decimals an amount of `asset` may carry in a wallet movement (transfer, withdrawal): the finest
   * precision an instrument publishes for it (baseAssetPrecision, quotePrecision, quoteAssetPrecision, marginPrecision),
   * or undefined for an asset no instrument names.
   */
  assetDecimals(asset: string): number | undefined {
    if (this.decimalsByAsset === undefined) {
      const m = new Map<string, number>();
      const note = (a: string, step: string): void => {
        const d = scaleOf(step);
        if ((m.get(a) ?? -1) < d) m.set(a, d);
      };
      for (const inst of this.core.instruments.values()) {
        if (inst.spot) {
          note(inst.spot.baseAsset, inst.spot.baseAssetPrecision);
          note(inst.spot.quoteAsset, inst.spot.quotePrecision);
        } else if (inst.contract) {
          note(inst.contract.quoteAsset, inst.contract.quoteAssetPrecision);
          note(inst.contract.marginToken, inst.contract.marginPrecision);
        }
      }
      this.decimalsByAsset = m;
    }
    return this.decimalsByAsset.get(asset);
  }

  /** Returns the user id of a configured user by name. */
  user(name: string): UserId {
    const u = this.users.get(name);
    if (u === undefined) throw new Error(`no user named ${name}`);
    return u;
  }

  /** Returns the id of a user's spot (type 1) or contract (type 3) account. */
  accountOf(userId: UserId, type: 1 | 3 = 1, index = 0): AccountId {
    return this.ledger.accountId(userId, type, index);
  }

  /** Credits a deposit (decimal string) to a user's main token account, emits the balance event, and returns the deposit order. */
  deposit(userId: UserId, asset: string, amount: string): DepositOrder {
    const d = this.ledger.deposit(userId, asset, toAmount(amount, 'amount'));
    this.core.touch(this.accountOf(userId, 1), asset);
    this.core.finish(undefined, false);
    return d;
  }

  /** Moves funds between a user's accounts under venue-api.md's rules (-1130, -1172, -1131) and emits both balance events. */
  transfer(actor: TransferActor, req: TransferRequest): void {
    const ends = resolveTransfer(this.ledger, actor, req);
    this.ledger.transfer(actor, req);
    this.core.touch(ends.from, req.tokenId);
    this.core.touch(ends.to, req.tokenId);
    this.core.finish(undefined, false);
  }

  /** The pending wallet/contract transfer variant; emits both balance events. */
  transferPending(actor: TransferActor, req: PendingTransferRequest): void {
    this.ledger.transferPending(actor, req);
    this.core.touch(this.accountOf(actor.userId, 1, 0), req.currency);
    this.core.touch(this.accountOf(actor.userId, 3, 0), req.currency);
    this.core.finish(undefined, false);
  }

  /** Takes a withdrawal from the user's main token account (funds locked now); it moves through its statuses on the clock, each step an event. */
  withdraw(req: WithdrawRequest): WithdrawResult {
    const r = this.ledger.withdraw(req);
    const w = this.ledger.withdrawal(req.userId, { orderId: r.orderId })!;
    this.core.touch(w.accountId, w.tokenId);
    this.emitWithdrawal(w);
    this.core.finish(undefined, false);
    return r;
  }

  private withdrawalStep(w: WithdrawalOrder, settled: boolean): void {
    if (settled) this.core.touch(w.accountId, w.tokenId);
    this.emitWithdrawal(w);
    this.core.finish(undefined, false);
  }

  private emitWithdrawal(w: WithdrawalOrder): void {
    if (!this.core.eventsOn) return;
    this.core.emit({ type: 'withdrawal', account: w.accountId, orderId: w.orderId, clientOrderId: w.clientOrderId, asset: w.tokenId, status: w.status, statusCode: w.statusCode });
  }

  /** Returns the instruments of a market in configuration order. */
  instrumentsOf(market: 'spot' | 'contract'): SimInstrument[] {
    return [...this.core.instruments.values()].filter((i) => (market === 'spot') === (i.kind === 'spot'));
  }

  /** Returns an instrument by symbol, or undefined. */
  instrument(symbol: string): SimInstrument | undefined {
    return this.core.instruments.get(symbol);
  }
}
