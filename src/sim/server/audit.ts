/** The venue's self-check for GET /admin/audit: money conserved per asset and no order id or clientOrderId held twice. */
import type { SimVenue } from '../engine/venue.ts';

/** One asset's books: what users, fees, insurance and clearing hold against what came in and went out (integers as strings). */
export interface AssetBooks {
  readonly asset: string;
  readonly held: string;
  readonly net: string;
  readonly conserved: boolean;
}

/** What GET /admin/audit answers. */
export interface VenueAudit {
  /** True when every asset's holdings equal its inflow minus outflow. */
  readonly conserved: boolean;
  readonly assets: readonly AssetBooks[];
  /** Kept orders sharing an orderId (ids must never repeat, also across restarts). */
  readonly duplicateOrderIds: readonly string[];
  /** Per account, kept orders sharing a clientOrderId, as `account/clientOrderId`. */
  readonly duplicateClientOrderIds: readonly string[];
}

/** Returns the audit of `venue`'s ledger and kept orders. */
export function auditVenue(venue: SimVenue): VenueAudit {
  const assets = venue.ledger.audit().map((a): AssetBooks => {
    const held = a.users + a.fees + a.insurance + a.clearing;
    const net = a.inflow - a.outflow;
    return { asset: a.asset, held: held.toString(), net: net.toString(), conserved: held === net };
  });
  const orderIds = new Set<string>();
  const duplicateOrderIds: string[] = [];
  const duplicateClientOrderIds: string[] = [];
  for (const [account, orders] of venue.core.ordersByAccount) {
    const clientIds = new Set<string>();
    for (const o of orders) {
      if (orderIds.has(o.orderId)) duplicateOrderIds.push(o.orderId);
      orderIds.add(o.orderId);
      if (o.clientOrderId === '') continue;
      if (clientIds.has(o.clientOrderId)) duplicateClientOrderIds.push(`${account}/${o.clientOrderId}`);
      clientIds.add(o.clientOrderId);
    }
  }
  return { conserved: assets.every((a) => a.conserved), assets, duplicateOrderIds, duplicateClientOrderIds };
}

/** One user's orders as GET /admin/audit?user=NAME shows them: for liveness and limit checks that must not spend the user's request weight. */
export interface UserOrders {
  readonly user: string;
  /** Time of the newest order the user placed (spot or contract, main accounts), or 0. */
  readonly lastOrderTime: number;
  /** Working orders per symbol. */
  readonly openOrders: Readonly<Record<string, number>>;
  /** Time of the newest order per clientOrderId tag (its text before the first '-', e.g. a bot's strategy id). */
  readonly lastOrderTimeByTag: Readonly<Record<string, number>>;
  /** Working orders per clientOrderId tag. */
  readonly openOrdersByTag: Readonly<Record<string, number>>;
}

/** Returns the orders of the user named `name` on its main spot and contract accounts; undefined for an unknown name. */
export function auditUser(venue: SimVenue, name: string): UserOrders | undefined {
  let userId;
  try {
    userId = venue.user(name);
  } catch {
    return undefined;
  }
  let lastOrderTime = 0;
  const openOrders: Record<string, number> = {};
  const lastOrderTimeByTag: Record<string, number> = {};
  const openOrdersByTag: Record<string, number> = {};
  for (const type of [1, 3] as const) {
    for (const o of venue.core.ordersByAccount.get(venue.accountOf(userId, type)) ?? []) {
      lastOrderTime = Math.max(lastOrderTime, o.time);
      const tag = o.clientOrderId.split('-', 1)[0]!;
      lastOrderTimeByTag[tag] = Math.max(lastOrderTimeByTag[tag] ?? 0, o.time);
      if (!o.active) continue;
      openOrders[o.inst.symbol] = (openOrders[o.inst.symbol] ?? 0) + 1;
      openOrdersByTag[tag] = (openOrdersByTag[tag] ?? 0) + 1;
    }
  }
  return { user: name, lastOrderTime, openOrders, lastOrderTimeByTag, openOrdersByTag };
}
