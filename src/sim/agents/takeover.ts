/** What lets market agents take over the users a saved venue already holds: finding them by name, a per-run clientOrderId tag, and cancelling the quotes they left resting. */
import type { SimVenue } from '../engine/venue.ts';

/** An agent's user: found in the venue (saved by an earlier run) or just created. */
export interface AgentUser {
  userId: string;
  /** True when the user was already there: it is not funded again and its old orders are cancelled at start. */
  found: boolean;
}

/** Returns the user named `name`, creating it when the venue has none. */
export function agentUser(venue: SimVenue, name: string): AgentUser {
  const userId = venue.findUser(name);
  return userId === undefined ? { userId: venue.createUser(name), found: false } : { userId, found: true };
}

/**
 * Returns a tag that differs between runs of one venue's lineage: the seed and the next order id at
 * the agents' creation, in base 36. Order ids only grow (a restored venue goes on after the saved
 * counter), so clientOrderIds carrying the tag never repeat those of an earlier run.
 */
export function runTag(venue: SimVenue, seed: number): string {
  return `${(seed >>> 0).toString(36)}.${BigInt(venue.core.orderIds.peek()).toString(36)}`;
}

/** Returns a number to mix into the agents' seed so a restored run does not replay the first run's draws (0 for a fresh venue). */
export function runSalt(venue: SimVenue): number {
  return Number((BigInt(venue.core.orderIds.peek()) - venue.core.orderIds.start) & 0x7fffffffn);
}

/** Cancels every open order of `accountId` (spot orders, working contract orders and waiting STOP orders); returns how many. */
export function cancelOpenOrders(venue: SimVenue, accountId: string): number {
  let n = 0;
  for (const o of [...(venue.core.ordersByAccount.get(accountId) ?? [])]) {
    if (!o.active) continue;
    if (o.market === 'spot') {
      if (venue.tryCancelSpotOrder(accountId, { orderId: o.orderId }) === 0) n++;
    } else {
      venue.cancelContractOrder(accountId, { orderId: o.orderId });
      n++;
    }
  }
  return n;
}
