/**
 * Fill recovery: the venue's trades (myTrades, by trade id) merged into the set the bot has counted. Pure.
 *
 * Invariants (checked by test/execution/reconcile.property.test.ts):
 * 1. A trade id is counted at most once per account: `fresh` never holds an id already in the ledger,
 *    nor the same id twice.
 * 2. The ledger after a merge is the union of the ledger before and the reports: merging is
 *    commutative, associative and idempotent, so shuffled, duplicated or repeated batches end in the
 *    same ledger.
 * 3. `fresh` is in trade-id order (numeric; ids are 64-bit decimal strings), so consumers that fold
 *    fills see them in the venue's order within a batch.
 * 4. The watermark (`lastId`) of an account is the largest id counted: tradesSince(lastId) reads on from it.
 * 5. The ledger is bounded: past `MAX_SEEN` ids it keeps the largest half of them. The ids it forgets lie far
 *    below the watermark, which reads never go under, so none of them is counted again.
 */
import type { AccountKind, FillReport } from '../../model/index.ts';

/** Most trade ids the ledger remembers. */
export const MAX_SEEN = 10_000;

/** The trade ids counted so far, per account, and the largest of each. */
export interface FillLedger {
  readonly seen: ReadonlySet<string>;
  readonly lastId: Readonly<Partial<Record<AccountKind, string>>>;
}

/** An empty ledger. */
export const EMPTY_FILL_LEDGER: FillLedger = { seen: new Set(), lastId: {} };

/** Returns the key a fill is counted under. */
export function fillKey(f: Pick<FillReport, 'account' | 'tradeId'>): string {
  return `${f.account}:${f.tradeId}`;
}

/** Compares two decimal id strings numerically. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Returns the ledger with `reports` counted and the fills that were not counted before, in trade-id order.
 * `handOver`: the caller keeps only the ledger returned (a reconciler), so the ids of `ledger` are added
 * to in place instead of copied (up to MAX_SEEN ids at every read that brings a new fill); `ledger` must
 * not be read again then.
 */
export function mergeFills(ledger: FillLedger, reports: readonly FillReport[], handOver = false): { ledger: FillLedger; fresh: readonly FillReport[] } {
  // Most reads bring only fills counted already (the stream brought them): nothing to copy then.
  if (reports.every((f) => ledger.seen.has(fillKey(f)))) return { ledger, fresh: [] };
  const seen = handOver && ledger.seen instanceof Set ? (ledger.seen as Set<string>) : new Set(ledger.seen);
  const lastId: Partial<Record<AccountKind, string>> = { ...ledger.lastId };
  const fresh: FillReport[] = [];
  for (const f of reports) {
    const k = fillKey(f);
    if (seen.has(k)) continue;
    seen.add(k);
    fresh.push(f);
    const last = lastId[f.account];
    if (last === undefined || compareIds(f.tradeId, last) > 0) lastId[f.account] = f.tradeId;
  }
  fresh.sort((a, b) => (a.account === b.account ? compareIds(a.tradeId, b.tradeId) : a.account < b.account ? -1 : 1));
  if (fresh.length === 0) return { ledger, fresh };
  // Trimmed to half the bound when it passes it, so the sort that trims runs once per MAX_SEEN / 2 new ids, not at every merge.
  return { ledger: { seen: seen.size > MAX_SEEN ? largest(seen, MAX_SEEN / 2) : seen, lastId }, fresh };
}

/** Returns the `n` largest ids of `seen` (by id, whatever the account). */
function largest(seen: ReadonlySet<string>, n: number): Set<string> {
  const idOf = (k: string): string => k.slice(k.indexOf(':') + 1);
  return new Set([...seen].sort((a, b) => compareIds(idOf(b), idOf(a))).slice(0, n));
}
