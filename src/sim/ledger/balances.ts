/** The double-entry core of the simulated venue's accounts: balances moved only by balanced steps, with their balance flows (users and accounts in accounts.ts, system pools in pools.ts). */
import type { Clock } from '../../core/clock.ts';
import { AccountDirectory } from './accounts.ts';
import type { Amount } from './amount.ts';
import { venueError, insufficient } from './errors.ts';
import { flowCode, FlowLog } from './flow-log.ts';
import { SystemPools } from './pools.ts';
import type { AccountId, AssetAudit, Balance, FlowEntry, FlowType, InsuranceRecord, Posting, PoolPosting, SystemPool } from './types.ts';

interface MutableBalance {
  free: Amount;
  locked: Amount;
}

/** Options of the core store. */
export interface BalanceBookOptions {
  readonly clock: Clock;
  readonly accountIdStart?: bigint;
  readonly userIdStart?: bigint;
  readonly flowIdStart?: bigint;
  /** Flow entries kept per account; older ones are dropped (the endpoint returns at most 500). Default 100 000. */
  readonly maxFlowsPerAccount?: number;
  /** First insurance record id. */
  readonly insuranceIdStart?: bigint;
}

/** The store's state as plain JSON-ready data (bigints as strings), for a stopped venue to start again where it was. */
export interface BalanceBookData {
  /** Next user, account and insurance ids; first flow id and flows written. */
  readonly ids: { user: string; account: string; insurance: string; firstFlow: string; flows: number };
  readonly users: [string, [string, number, number, string][]][];
  readonly keys: [string, string, number][];
  readonly balances: [string, [string, string, string][]][];
  readonly pools: [string, [string, string][]][];
  readonly inflow: [string, string][];
  readonly outflow: [string, string][];
  readonly assets: string[];
  readonly flows: [string, ReturnType<FlowLog['exportData']>][];
  readonly insurance: [string, number, string, string][];
}

/** A balance as a step would leave it. */
interface Slot {
  readonly accountId: AccountId;
  readonly asset: string;
  free: Amount;
  locked: Amount;
}

function addNet(net: { asset: string; sum: Amount }[], asset: string, v: Amount): void {
  for (const x of net) {
    if (x.asset === asset) {
      x.sum += v;
      return;
    }
  }
  net.push({ asset, sum: v });
}

const TRADE = flowCode('TRADE');
const FEE = flowCode('FEE');

/**
 * Balances moved only by balanced steps: `post` applies a set of legs atomically after checking
 * that, per asset, the legs and pool changes sum to zero (money is neither made nor lost), that
 * no user balance part and no fee or insurance pool ends negative, and that every account
 * exists. A refused step changes nothing.
 */
export class BalanceBook extends AccountDirectory {
  readonly clock: Clock;
  private readonly firstFlowId: bigint;
  private flowCount = 0;
  private readonly maxFlows: number;
  private readonly balancesByAccount = new Map<AccountId, Map<string, MutableBalance>>();
  private readonly pools: SystemPools;
  private readonly flowsByAccount = new Map<AccountId, FlowLog>();
  /** Asset names by code, and codes by name (flow entries hold the code). */
  private readonly assetNames: string[] = [];
  private readonly assetCodes = new Map<string, number>();

  constructor(opts: BalanceBookOptions) {
    super(opts.userIdStart ?? 10_000_001n, opts.accountIdStart ?? 122_216_245_228_131n);
    this.clock = opts.clock;
    this.firstFlowId = opts.flowIdStart ?? 539_870_570_957_903_104n;
    this.pools = new SystemPools(opts.insuranceIdStart ?? 1_552_272_184_833n);
    this.maxFlows = opts.maxFlowsPerAccount ?? 100_000;
  }

  /** Returns the balance of `asset` in an account (zero when never touched). */
  balance(accountId: AccountId, asset: string): Balance {
    const b = this.balancesByAccount.get(accountId)?.get(asset);
    return b ? { free: b.free, locked: b.locked } : { free: 0n, locked: 0n };
  }

  /** Returns the free part of a balance (0 when never touched), without building a Balance. */
  freeOf(accountId: AccountId, asset: string): Amount {
    return this.balancesByAccount.get(accountId)?.get(asset)?.free ?? 0n;
  }

  /** Returns every asset balance an account has held, ordered by asset. */
  balances(accountId: AccountId): { asset: string; free: Amount; locked: Amount }[] {
    const m = this.balancesByAccount.get(accountId);
    if (!m) return [];
    return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([asset, b]) => ({ asset, free: b.free, locked: b.locked }));
  }

  /** Returns a system pool's balance of an asset. */
  pool(pool: SystemPool, asset: string): Amount {
    return this.pools.get(pool, asset);
  }

  /** Returns the insurance-fund records of `unit` (all units when absent), oldest first. */
  insuranceRecords(unit?: string): InsuranceRecord[] {
    return this.pools.insuranceRecords(unit);
  }

  /** Returns an account's balance flows, oldest first, optionally of one asset. */
  flows(accountId: AccountId, asset?: string): FlowEntry[] {
    const log = this.flowsByAccount.get(accountId);
    if (!log) return [];
    const code = asset === undefined ? -1 : this.assetCodes.get(asset);
    if (code === undefined) return [];
    return log.entries(accountId, this.firstFlowId, this.assetNames, code);
  }

  /** Moves `amount` from free to locked; throws -1131 when free is short. */
  lock(accountId: AccountId, asset: string, amount: Amount): void {
    this.shift(accountId, asset, amount, false);
  }

  /** Moves `amount` from locked back to free; throws -1131 when locked is short. */
  unlock(accountId: AccountId, asset: string, amount: Amount): void {
    this.shift(accountId, asset, amount, true);
  }

  /** Moves `amount` between free and locked (to free when `toFree`) without a flow; the lean path of lock and unlock. */
  private shift(accountId: AccountId, asset: string, amount: Amount, toFree: boolean): void {
    if (!this.accountsById.has(accountId)) throw venueError(-1171, [], { accountId });
    const b = this.peek(accountId, asset);
    const free0 = b ? b.free : 0n;
    const locked0 = b ? b.locked : 0n;
    const free = toFree ? free0 + amount : free0 - amount;
    const locked = toFree ? locked0 - amount : locked0 + amount;
    if (free < 0n || locked < 0n) {
      throw insufficient({ accountId, asset, free: free0.toString(), locked: locked0.toString(), freeAfter: free.toString(), lockedAfter: locked.toString() });
    }
    if (amount === 0n) return;
    const m = b ?? this.mutableBalance(accountId, asset);
    m.free = free;
    m.locked = locked;
  }

  /**
   * Applies one spot fill between two different accounts in one step, as post() would with the legs
   * of settleSpotFill (same checks, same flow entries in the same order), without building them:
   * the buyer's `buyerRelease` of locked quote pays `quoteQty` (the rest back to free) and it receives
   * `qty` base less `buyerFee`; the seller's `sellerRelease` of locked base pays `qty` and it receives
   * `quoteQty` less `sellerFee`; fees go to the fee pool. Throws -1131 or -1171 having changed nothing.
   */
  spotFillStep(buyer: AccountId, seller: AccountId, base: string, quote: string, qty: Amount, quoteQty: Amount, buyerRelease: Amount, sellerRelease: Amount, buyerFee: Amount, sellerFee: Amount): void {
    // An account with a balance map exists; only without one is the account itself looked up.
    const bm = this.balancesByAccount.get(buyer);
    const sm = this.balancesByAccount.get(seller);
    if (!bm && !this.accountsById.has(buyer)) throw venueError(-1171, [], { accountId: buyer });
    if (!sm && !this.accountsById.has(seller)) throw venueError(-1171, [], { accountId: seller });
    const bq = bm?.get(quote);
    const sb = sm?.get(base);
    if (!bq || bq.locked < buyerRelease) throw insufficient({ accountId: buyer, asset: quote, locked: (bq?.locked ?? 0n).toString(), release: buyerRelease.toString() });
    if (!sb || sb.locked < sellerRelease) throw insufficient({ accountId: seller, asset: base, locked: (sb?.locked ?? 0n).toString(), release: sellerRelease.toString() });
    const bb = bm!.get(base) ?? this.mutableBalance(buyer, base);
    const sq = sm!.get(quote) ?? this.mutableBalance(seller, quote);
    const time = this.clock.now();
    // Each bigint operation allocates: skip the ones that add nothing (a release equal to the payment, no fee).
    bq.locked -= buyerRelease;
    if (buyerRelease !== quoteQty) bq.free += buyerRelease - quoteQty;
    bb.free += buyerFee === 0n ? qty : qty - buyerFee;
    sb.locked -= sellerRelease;
    if (sellerRelease !== qty) sb.free += sellerRelease - qty;
    sq.free += sellerFee === 0n ? quoteQty : quoteQty - sellerFee;
    const qc = this.assetCode(quote);
    const bc = this.assetCode(base);
    const bl = this.flowLog(buyer);
    const sl = this.flowLog(seller);
    if (quoteQty !== 0n) bl.push(this.flowCount++, time, qc, TRADE, quoteQty, true);
    if (qty !== 0n) bl.push(this.flowCount++, time, bc, TRADE, qty, false);
    if (qty !== 0n) sl.push(this.flowCount++, time, bc, TRADE, qty, true);
    if (quoteQty !== 0n) sl.push(this.flowCount++, time, qc, TRADE, quoteQty, false);
    if (buyerFee !== 0n) bl.push(this.flowCount++, time, bc, FEE, buyerFee, true);
    if (sellerFee !== 0n) sl.push(this.flowCount++, time, qc, FEE, sellerFee, true);
    if (buyerFee > 0n) this.pools.addFee(base, buyerFee);
    if (sellerFee > 0n) this.pools.addFee(quote, sellerFee);
  }

  /** Writes a flow entry of a change of `size` (negative when `negative`); nothing for a zero change. */
  private addFlow(accountId: AccountId, asset: string, flowType: FlowType, size: Amount, negative: boolean, time: number): void {
    if (size === 0n) return;
    this.flowLog(accountId).push(this.flowCount++, time, this.assetCode(asset), flowCode(flowType), size, negative);
  }

  private flowLog(accountId: AccountId): FlowLog {
    let log = this.flowsByAccount.get(accountId);
    if (!log) {
      log = new FlowLog(this.maxFlows);
      this.flowsByAccount.set(accountId, log);
    }
    return log;
  }

  private assetCode(asset: string): number {
    let c = this.assetCodes.get(asset);
    if (c === undefined) {
      c = this.assetNames.length;
      this.assetNames.push(asset);
      this.assetCodes.set(asset, c);
    }
    return c;
  }

  /** Adds `amount` to an account's free balance, paid by a system pool (default the clearing pool), with a flow of `flow`. */
  credit(accountId: AccountId, asset: string, amount: Amount, flow: FlowType, from: SystemPool = 'clearing'): void {
    if (amount <= 0n) throw venueError(-1130, ['amount'], { amount: amount.toString(), rule: 'must be positive' });
    this.post([{ accountId, asset, free: amount, flow }], [{ pool: from, asset, delta: -amount }]);
  }

  /**
   * Takes `amount` from an account's free (or locked) balance into a system pool (default the
   * clearing pool), with a flow of `flow`; throws -1131 when that part is short.
   */
  debit(accountId: AccountId, asset: string, amount: Amount, flow: FlowType, to: SystemPool = 'clearing', part: 'free' | 'locked' = 'free'): void {
    if (amount <= 0n) throw venueError(-1130, ['amount'], { amount: amount.toString(), rule: 'must be positive' });
    this.post([part === 'free' ? { accountId, asset, free: -amount, flow } : { accountId, asset, locked: -amount, flow }], [{ pool: to, asset, delta: amount }]);
  }

  /**
   * Applies legs and pool changes as one step. Throws -1131 (nothing changed) when a user balance
   * part or the fee or insurance pool would end negative, -1171 for an unknown account, and a plain
   * Error when the step is unbalanced or a leg changing a total names no flow type (a bug of the caller).
   */
  post(legs: readonly Posting[], pools: readonly PoolPosting[] = []): void {
    // Steps are a handful of legs: linear scans over small arrays beat maps and keep the fill path lean.
    const n = legs.length;
    const slots: Slot[] = [];
    const legSlot: number[] = new Array<number>(n);
    const net: { asset: string; sum: Amount }[] = [];
    for (let i = 0; i < n; i++) {
      const leg = legs[i]!;
      if (!this.accountsById.has(leg.accountId)) throw venueError(-1171, [], { accountId: leg.accountId });
      const df = leg.free ?? 0n;
      const dl = leg.locked ?? 0n;
      const change = df + dl;
      if (change !== 0n && leg.flow === undefined) throw new Error(`ledger: a leg changing the total of ${leg.asset} in ${leg.accountId} names no flow type`);
      let j = 0;
      while (j < slots.length && (slots[j]!.accountId !== leg.accountId || slots[j]!.asset !== leg.asset)) j++;
      if (j === slots.length) {
        const b = this.peek(leg.accountId, leg.asset);
        slots.push({ accountId: leg.accountId, asset: leg.asset, free: b ? b.free : 0n, locked: b ? b.locked : 0n });
      }
      const slot = slots[j]!;
      slot.free += df;
      slot.locked += dl;
      legSlot[i] = j;
      addNet(net, leg.asset, change);
    }
    for (const f of slots) {
      if (f.free < 0n || f.locked < 0n) {
        const b = this.balance(f.accountId, f.asset);
        throw insufficient({ accountId: f.accountId, asset: f.asset, free: b.free.toString(), locked: b.locked.toString(), freeAfter: f.free.toString(), lockedAfter: f.locked.toString() });
      }
    }
    for (let i = 0; i < pools.length; i++) {
      const p = pools[i]!;
      addNet(net, p.asset, p.delta);
      if (p.pool !== 'fees' && p.pool !== 'insurance') continue;
      let after = this.pool(p.pool, p.asset);
      for (let k = 0; k < pools.length; k++) if (pools[k]!.pool === p.pool && pools[k]!.asset === p.asset) after += pools[k]!.delta;
      if (after < 0n) throw insufficient({ pool: p.pool, asset: p.asset, after: after.toString() });
    }
    for (const x of net) if (x.sum !== 0n) throw new Error(`ledger: unbalanced step in ${x.asset}: ${x.sum} units would be made or lost`);
    this.apply(legs, pools, slots, legSlot);
  }

  private apply(legs: readonly Posting[], pools: readonly PoolPosting[], slots: Slot[], legSlot: number[]): void {
    const time = this.clock.now();
    // Flow entries: one per (account, asset, flow type), in leg order; each total is the running total after it.
    const flows: { slot: number; flow: FlowType; change: Amount }[] = [];
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i]!;
      const b = this.mutableBalance(leg.accountId, leg.asset);
      const df = leg.free ?? 0n;
      const dl = leg.locked ?? 0n;
      b.free += df;
      b.locked += dl;
      const change = df + dl;
      if (change === 0n || leg.flow === undefined) continue;
      const slot = legSlot[i]!;
      let k = 0;
      while (k < flows.length && (flows[k]!.slot !== slot || flows[k]!.flow !== leg.flow)) k++;
      if (k === flows.length) flows.push({ slot, flow: leg.flow, change });
      else flows[k]!.change += change;
    }
    for (const f of flows) {
      if (f.change === 0n) continue;
      const slot = slots[f.slot]!;
      this.addFlow(slot.accountId, slot.asset, f.flow, f.change < 0n ? -f.change : f.change, f.change < 0n, time);
    }
    for (const p of pools) this.pools.apply(p.pool, p.asset, p.delta, time);
  }

  private peek(accountId: AccountId, asset: string): MutableBalance | undefined {
    return this.balancesByAccount.get(accountId)?.get(asset);
  }

  private mutableBalance(accountId: AccountId, asset: string): MutableBalance {
    let m = this.balancesByAccount.get(accountId);
    if (!m) {
      m = new Map();
      this.balancesByAccount.set(accountId, m);
    }
    let b = m.get(asset);
    if (!b) {
      b = { free: 0n, locked: 0n };
      m.set(asset, b);
    }
    return b;
  }


  /** Returns, per asset, where the money sits and how much came in and left; users + fees + insurance + clearing = inflow − outflow. */
  audit(): AssetAudit[] {
    const users = new Map<string, Amount>();
    for (const m of this.balancesByAccount.values()) for (const [asset, b] of m) users.set(asset, (users.get(asset) ?? 0n) + b.free + b.locked);
    return this.pools.audit(users);
  }

  /** Returns the store's state for exportState: everything needed to start again with the same balances, flows and ids. */
  exportData(): BalanceBookData {
    const dir = this.exportDirectory();
    const pools = this.pools.exportData();
    return {
      ids: { user: this.userIds.peek(), account: this.accountIds.peek(), insurance: this.pools.insuranceIds.peek(), firstFlow: this.firstFlowId.toString(), flows: this.flowCount },
      users: dir.users,
      keys: dir.keys,
      balances: [...this.balancesByAccount.keys()].sort().map((id) => [id, this.balances(id).map((b): [string, string, string] => [b.asset, b.free.toString(), b.locked.toString()])]),
      pools: pools.pools,
      inflow: pools.inflow,
      outflow: pools.outflow,
      assets: [...this.assetNames],
      flows: [...this.flowsByAccount.keys()].sort().map((id) => [id, this.flowsByAccount.get(id)!.exportData()]),
      insurance: pools.insurance,
    };
  }

  /** Loads what exportData wrote into this empty store, which was made with the exported ids as its id starts. */
  importData(d: BalanceBookData): void {
    this.importDirectory(d);
    this.flowCount = d.ids.flows;
    for (const [id, list] of d.balances) for (const [asset, free, locked] of list) Object.assign(this.mutableBalance(id, asset), { free: BigInt(free), locked: BigInt(locked) });
    this.pools.importData(d);
    for (const a of d.assets) this.assetCode(a);
    for (const [id, data] of d.flows) {
      const log = new FlowLog(this.maxFlows);
      log.importData(data);
      this.flowsByAccount.set(id, log);
    }
  }

  /** Returns the store's whole state as plain JSON-ready data in a canonical order (bigints as strings). */
  snapshotData(): unknown {
    const { users, keys } = this.snapshotDirectory();
    const balances = [...this.balancesByAccount.keys()].sort().map((id) => [id, this.balances(id).map((b) => [b.asset, b.free.toString(), b.locked.toString()])]);
    const { pools, insurance } = this.pools.snapshotData();
    const flows = [...this.flowsByAccount.keys()].sort().map((id) => [id, this.flows(id).map((f) => [f.id, f.asset, f.flowType, f.change.toString(), f.total.toString(), f.time])]);
    const ids = [this.userIds.peek(), this.accountIds.peek(), (this.firstFlowId + BigInt(this.flowCount)).toString(), this.pools.insuranceIds.peek()];
    return { users, keys, balances, pools, flows, insurance, ids };
  }
}
