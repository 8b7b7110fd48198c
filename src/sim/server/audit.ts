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
