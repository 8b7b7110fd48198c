/** The venue's own money beside user accounts: the fee, insurance, clearing and outside pools, the inflow and outflow totals, and the insurance-fund records. */
import { SequenceIds } from '../../core/ids.ts';
import type { Amount } from './amount.ts';
import type { AssetAudit, InsuranceRecord, SystemPool } from './types.ts';

const POOLS: readonly SystemPool[] = ['fees', 'insurance', 'clearing', 'outside'];

/** The pools' part of the exported state (bigints as strings). */
export interface PoolsData {
  readonly pools: [string, [string, string][]][];
  readonly inflow: [string, string][];
  readonly outflow: [string, string][];
  readonly insurance: [string, number, string, string][];
}

/** System pools per asset. Changing the outside pool counts inflow or outflow; each change of the insurance pool writes a record. */
export class SystemPools {
  private readonly byPool = new Map<SystemPool, Map<string, Amount>>(POOLS.map((p) => [p, new Map()]));
  private readonly fees = this.byPool.get('fees')!;
  private readonly inflow = new Map<string, Amount>();
  private readonly outflow = new Map<string, Amount>();
  private readonly insurance: InsuranceRecord[] = [];
  readonly insuranceIds: SequenceIds;

  constructor(insuranceIdStart: bigint) {
    this.insuranceIds = new SequenceIds(insuranceIdStart);
  }

  /** Returns a pool's balance of an asset. */
  get(pool: SystemPool, asset: string): Amount {
    return this.byPool.get(pool)!.get(asset) ?? 0n;
  }

  /** Adds a collected fee (positive) to the fee pool: the fill path's one pool change. */
  addFee(asset: string, fee: Amount): void {
    this.fees.set(asset, (this.fees.get(asset) ?? 0n) + fee);
  }

  /** Applies a pool change of a checked step at `time`. */
  apply(pool: SystemPool, asset: string, delta: Amount, time: number): void {
    if (delta === 0n) return;
    const m = this.byPool.get(pool)!;
    const v = (m.get(asset) ?? 0n) + delta;
    m.set(asset, v);
    if (pool === 'outside') {
      const t = delta < 0n ? this.inflow : this.outflow;
      t.set(asset, (t.get(asset) ?? 0n) + (delta < 0n ? -delta : delta));
    } else if (pool === 'insurance') {
      this.insurance.push({ id: this.insuranceIds.take(), timestamp: time, value: v, unit: asset });
    }
  }

  /** Returns the insurance-fund records of `unit` (all units when absent), oldest first. */
  insuranceRecords(unit?: string): InsuranceRecord[] {
    return unit === undefined ? [...this.insurance] : this.insurance.filter((r) => r.unit === unit);
  }

  /** Returns the audit rows of every asset seen in `users` (per-asset user totals) or a pool, sorted by asset. */
  audit(users: Map<string, Amount>): AssetAudit[] {
    const assets = new Set<string>(users.keys());
    for (const m of this.byPool.values()) for (const asset of m.keys()) assets.add(asset);
    return [...assets].sort().map((asset) => ({
      asset,
      users: users.get(asset) ?? 0n,
      fees: this.get('fees', asset),
      insurance: this.get('insurance', asset),
      clearing: this.get('clearing', asset),
      inflow: this.inflow.get(asset) ?? 0n,
      outflow: this.outflow.get(asset) ?? 0n,
    }));
  }

  /** Returns the pools, totals and insurance records for exportState. */
  exportData(): PoolsData {
    return {
      pools: POOLS.map((p) => [p, big(this.byPool.get(p)!)]),
      inflow: big(this.inflow),
      outflow: big(this.outflow),
      insurance: this.insuranceRows(),
    };
  }

  /** Loads what exportData wrote. */
  importData(d: PoolsData): void {
    for (const [p, list] of d.pools) for (const [asset, v] of list) this.byPool.get(p as SystemPool)!.set(asset, BigInt(v));
    for (const [asset, v] of d.inflow) this.inflow.set(asset, BigInt(v));
    for (const [asset, v] of d.outflow) this.outflow.set(asset, BigInt(v));
    for (const [id, timestamp, value, unit] of d.insurance) this.insurance.push({ id, timestamp, value: BigInt(value), unit });
  }

  /** Returns the pools and insurance records in a canonical order for snapshots. */
  snapshotData(): { pools: unknown[]; insurance: unknown[] } {
    const pools = POOLS.map((p) => [p, [...this.byPool.get(p)!.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([asset, v]) => [`${p}|${asset}`, v.toString()])]);
    return { pools, insurance: this.insuranceRows() };
  }

  private insuranceRows(): [string, number, string, string][] {
    return this.insurance.map((r) => [r.id, r.timestamp, r.value.toString(), r.unit]);
  }
}

function big(m: Map<string, Amount>): [string, string][] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.toString()]);
}
