/** The chaos run's client of the venue's loopback admin routes (faults, socket drops, listenKey expiry, audit): JSON with a loopback Host, no request weight spent. */
import { request } from 'undici';
import type { FaultSettingsInput } from '../../src/sim/server/faults.ts';
import type { UserOrders, VenueAudit } from '../../src/sim/server/audit.ts';

/** What GET /admin/audit answers. */
export type Audit = VenueAudit & { readonly bans: number; readonly user?: UserOrders };

async function call<T>(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const r = await request(`${base}${path}`, {
    method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headersTimeout: 30_000, bodyTimeout: 30_000,
  });
  const json = (await r.body.json()) as T;
  if (r.statusCode !== 200) throw new Error(`${method} ${path}: ${r.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** The admin API of one venue base URL. */
export class VenueAdmin {
  constructor(private readonly base: string) {}

  setFaults(f: FaultSettingsInput): Promise<unknown> {
    return call(this.base, 'POST', '/admin/faults', f);
  }

  clearFaults(): Promise<unknown> {
    return call(this.base, 'DELETE', '/admin/faults');
  }

  /** Drops every WebSocket connection without a close frame. */
  dropSockets(): Promise<{ dropped: number }> {
    return call(this.base, 'POST', '/admin/faults/drop', {});
  }

  /** Expires every listenKey, as a missed keepalive would. */
  expireListenKeys(): Promise<{ expired: number }> {
    return call(this.base, 'POST', '/admin/listenKeys/expire', {});
  }

  audit(user?: string): Promise<Audit> {
    return call(this.base, 'GET', user === undefined ? '/admin/audit' : `/admin/audit?user=${encodeURIComponent(user)}`);
  }
}

/** The fault settings each windowed kind switches on (the others are actions: drops, expiry, kills). */
export const WINDOW_SETTINGS = {
  dropSockets: { dropWebSocket: { rate: 0.02 }, marketDiffDrop: { rate: 0.1 } },
  reorder: { userStreamReorder: { rate: 0.3 }, marketDiffReorder: { rate: 0.2 } },
  delay: { userStreamDelayMs: 1500, latencyMs: 300 },
  duplicate: { userStreamDuplicate: { rate: 0.5 } },
  error5xx: { orderErrorAfter: { count: 2 }, orderErrorBefore: { count: 1 } },
  timeout504: { orderTimeoutAfter: { count: 2 } },
  storm429: { rateLimitStorm: { count: 6 } },
} satisfies Record<string, FaultSettingsInput>;
