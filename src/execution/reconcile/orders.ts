/**
 * Reconciliation of open orders: the venue's openOrders listing against the local orders. Pure.
 *
 * Invariants (checked by test/execution/reconcile.property.test.ts):
 * 1. No order moves backwards: every local order in the result is `applyReport(local, report)`, a join.
 * 2. Every order the venue lists lands in exactly one place: a known order is updated (or left as is when
 *    the listing adds nothing), an order the bot does not know is adopted or cancelled (per policy), and an
 *    order the bot holds as terminal but the venue still lists is cancelled (the venue wins on existence,
 *    the bot on intent: nothing it gave up on may keep working).
 * 3. A working order whose cancel is pending and that the venue still lists is cancelled again: cancels
 *    are repeated by reconciliation until the venue says the order is over.
 * 4. Every local order that may be on the venue (sent, not terminal) and is not listed is returned in
 *    `check`, to be settled by getOrder; an order still waiting in the executor's queue (PENDING_NEW, not
 *    sent) is not, since the venue cannot know it yet.
 * 5. The result depends only on the inputs: the listing's order and duplicates in it do not matter.
 */
import type { OrderReport } from '../../model/index.ts';
import { adoptedOrder, applyReport, isTerminal, type LocalOrder } from '../order-state.ts';

/** What to do with open orders the bot did not place. */
export type UnknownOrderPolicy = 'adopt' | 'cancel';

/** The local orders by clientOrderId: any by id, and at least every working one by walking (a Map is one). */
export interface LocalOrders {
  get(clientOrderId: string): LocalOrder | undefined;
  values(): Iterable<LocalOrder>;
}

export interface OpenOrdersInput {
  /** Local orders by clientOrderId. */
  readonly local: LocalOrders;
  /** The venue's open orders (one account, or both). */
  readonly venueOpen: readonly OrderReport[];
  readonly policy: UnknownOrderPolicy;
  /** clientOrderIds of orders sent and not yet answered: the venue may or may not list them, so they are not checked. */
  readonly inFlight?: ReadonlySet<string>;
  /** The strategy adopted orders are booked to. */
  readonly adoptAs?: string;
}

export interface OpenOrdersResult {
  /** Local orders the listing moved forward (by clientOrderId). */
  readonly updated: ReadonlyMap<string, LocalOrder>;
  /** Orders the bot does not know, adopted as local orders (policy adopt). */
  readonly adopted: readonly LocalOrder[];
  /** Orders to cancel on the venue: unknown (policy cancel), terminal locally, or with a pending cancel. */
  readonly cancel: readonly OrderReport[];
  /** Local working orders the venue did not list: settle each with getOrder. */
  readonly check: readonly LocalOrder[];
}

/** Returns what the listing means for the local orders (see the invariants above). */
export function reconcileOpenOrders(input: OpenOrdersInput): OpenOrdersResult {
  const listed = new Map<string, OrderReport>();
  for (const r of input.venueOpen) {
    const seen = listed.get(r.clientOrderId);
    // A listing with duplicates: keep the report that is furthest along, so input order does not matter.
    listed.set(r.clientOrderId, seen === undefined ? r : furthest(seen, r));
  }
  const updated = new Map<string, LocalOrder>();
  const adopted: LocalOrder[] = [];
  const cancel: OrderReport[] = [];
  for (const [id, r] of [...listed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const mine = input.local.get(id);
    if (mine === undefined) {
      if (input.policy === 'adopt') adopted.push(adoptedOrder(r, input.adoptAs ?? 'adopted'));
      else cancel.push(r);
      continue;
    }
    if (isTerminal(mine.phase)) {
      cancel.push(r);
      continue;
    }
    const next = applyReport(mine, r);
    if (next !== mine) updated.set(id, next);
    if (next.cancelPending && !isTerminal(next.phase)) cancel.push(r);
  }
  const check: LocalOrder[] = [];
  for (const o of input.local.values()) {
    if (isTerminal(o.phase) || o.phase === 'PENDING_NEW' || listed.has(o.clientOrderId)) continue;
    if (input.inFlight?.has(o.clientOrderId)) continue;
    check.push(o);
  }
  check.sort((a, b) => (a.clientOrderId < b.clientOrderId ? -1 : 1));
  return { updated, adopted, cancel, check };
}

function furthest(a: OrderReport, b: OrderReport): OrderReport {
  const probe = adoptedOrder(a, '');
  return applyReport(probe, b) === probe ? a : b;
}
