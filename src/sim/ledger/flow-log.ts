/** One account's kept balance-flow entries in columns (numbers unboxed, no object per entry), because a busy venue writes several per fill and keeps them for the balance-flow endpoint. */
import type { Amount } from './amount.ts';
import { ChunkList } from './chunk-list.ts';
import { FLOW_TYPES, type AccountId, type FlowEntry, type FlowType } from './types.ts';

/** Flow types by code (their position in FLOW_TYPES). */
export const FLOW_TYPE_BY_CODE = Object.keys(FLOW_TYPES) as FlowType[];
const CODE_OF_FLOW = new Map<FlowType, number>(FLOW_TYPE_BY_CODE.map((t, i) => [t, i]));

/** Returns the small-integer code of a flow type. */
export function flowCode(t: FlowType): number {
  return CODE_OF_FLOW.get(t)!;
}

/** An entry as exported: [seq, time, assetCode, flowCode, signed change]. */
export type RawFlow = [number, number, number, number, string];

/**
 * The entries of one account, oldest first. An entry is its number in the ledger's flow sequence,
 * its time, asset and flow type codes and the size and sign of its change. The size is the very
 * bigint the step moved (a fill's quantity is shared by the buyer's and the seller's entries), and
 * totals are not stored: every change of a total writes an entry, so the total after an entry is the
 * total before the oldest kept entry plus the changes up to it, computed when the entries are read.
 * When more than twice `keep` entries are held the oldest are dropped down to `keep` (amortized O(1)).
 */
export class FlowLog {
  /**
   * Per entry three numbers — seq, time, code ((assetCode × 64 + flow type code) × 2 + 1 when negative) —
   * in one growable Float64Array: its memory lies outside the JS heap, so writing entries makes no garbage.
   */
  private nums = new Float64Array(3 * 64);
  private n = 0;
  private readonly sizes = new ChunkList<Amount>();
  /** Per asset code: the total before the oldest kept entry. */
  private readonly base = new Map<number, Amount>();

  constructor(private readonly keep: number) {}

  /** Returns the number of entries held. */
  get length(): number {
    return this.n;
  }

  /** Appends one entry: a change of `size` (≥ 0), negative when `negative`. */
  push(seq: number, time: number, assetCode: number, flow: number, size: Amount, negative: boolean): void {
    if (3 * this.n === this.nums.length) {
      const grown = new Float64Array(this.nums.length * 2);
      grown.set(this.nums);
      this.nums = grown;
    }
    const at = 3 * this.n++;
    this.nums[at] = seq;
    this.nums[at + 1] = time;
    this.nums[at + 2] = (assetCode * 64 + flow) * 2 + (negative ? 1 : 0);
    this.sizes.push(size);
    if (this.n > 2 * this.keep) this.drop(this.n - this.keep);
  }

  private drop(k: number): void {
    for (let i = 0; i < k; i++) {
      const a = this.assetOf(i);
      this.base.set(a, (this.base.get(a) ?? 0n) + this.changeAt(i));
    }
    this.nums.copyWithin(0, 3 * k, 3 * this.n);
    this.n -= k;
    this.sizes.dropFront(k);
  }

  private code(i: number): number {
    return this.nums[3 * i + 2]!;
  }

  private assetOf(i: number): number {
    return Math.floor(this.code(i) / 128);
  }

  private changeAt(i: number): Amount {
    const size = this.sizes.at(i);
    return this.code(i) % 2 === 1 ? -size : size;
  }

  /** Returns the entries (of one asset code, or all when `assetCode` is negative) as FlowEntries, oldest first. */
  entries(accountId: AccountId, firstId: bigint, assets: readonly string[], assetCode: number): FlowEntry[] {
    const totals = new Map(this.base);
    const out: FlowEntry[] = [];
    for (let i = 0; i < this.n; i++) {
      const a = this.assetOf(i);
      const change = this.changeAt(i);
      const total = (totals.get(a) ?? 0n) + change;
      totals.set(a, total);
      if (assetCode >= 0 && a !== assetCode) continue;
      out.push({
        id: (firstId + BigInt(this.nums[3 * i]!)).toString(), accountId, asset: assets[a]!,
        flowType: FLOW_TYPE_BY_CODE[Math.floor(this.code(i) / 2) % 64]!, change, total, time: this.nums[3 * i + 1]!,
      });
    }
    return out;
  }

  /** Returns the log as plain data: base totals by asset code and the raw entries. */
  exportData(): { base: [number, string][]; entries: RawFlow[] } {
    const base = [...this.base.entries()].sort(([a], [b]) => a - b).map(([a, v]): [number, string] => [a, v.toString()]);
    const entries: RawFlow[] = [];
    for (let i = 0; i < this.n; i++) entries.push([this.nums[3 * i]!, this.nums[3 * i + 1]!, this.assetOf(i), Math.floor(this.code(i) / 2) % 64, this.changeAt(i).toString()]);
    return { base, entries };
  }

  /** Loads data written by exportData into an empty log. */
  importData(d: { base: [number, string][]; entries: RawFlow[] }): void {
    for (const [a, v] of d.base) this.base.set(a, BigInt(v));
    for (const [seq, time, asset, flow, change] of d.entries) {
      const c = BigInt(change);
      this.push(seq, time, asset, flow, c < 0n ? -c : c, c < 0n);
    }
  }
}
