/** The shape of one catalogue entry: an endpoint of venue-api.md as data (method, path, security, weight, parser). */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** NONE is public; the other three are signed (key header, timestamp, signature). */
export type Security = 'NONE' | 'TRADE' | 'USER_DATA' | 'USER_STREAM';

/** Where the weight came from: venue-api.md's table, venue-notes.md §5 where the table says "-", or the default of 1. */
export type WeightSource = 'venue-api' | 'venue-notes' | 'default';

/**
 * What a failed request means for the caller:
 * - `read`: nothing changes on the venue; a lost answer may simply be asked again.
 * - `write`: the venue may have acted; a lost answer is an unknown outcome, settled by reconciliation and never resent.
 */
export type Effect = 'read' | 'write';

/** One endpoint. `P` is the parameter type of its client method, `T` what its parser returns. */
export interface Endpoint<P, T> {
  /** The client method's name. */
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly security: Security;
  /** REQUEST_WEIGHT this request costs, as the catalogue states it (see weightSource). */
  readonly weight: number;
  readonly weightSource: WeightSource;
  /** What real servers charged where venue-notes.md §5 says it differs from `weight`; budgets charge the larger. */
  readonly serverWeight?: number;
  /** True for new orders: each counts against the ORDERS budgets. */
  readonly countsOrders: boolean;
  readonly effect: Effect;
  /** The venue-api.md table the endpoint's row is in. */
  readonly section: string;
  /** Another table that lists the same endpoint (brokerInfo, klines). */
  readonly alsoIn?: string;
  /** The model parser's name, for the generated endpoint list. */
  readonly parser: string;
  readonly parse: (raw: unknown) => T;
  /** One line on what the answer holds. */
  readonly response: string;
  /** Marked pending by venue-api.md. */
  readonly pending?: boolean;
  /** Phantom: ties the parameter type to the entry. */
  readonly _params?: P;
}

/** Returns true for endpoints that need the key header, a timestamp and a signature. */
export function isSigned(ep: { security: Security }): boolean {
  switch (ep.security) {
    case 'NONE':
      return false;
    case 'TRADE':
    case 'USER_DATA':
    case 'USER_STREAM':
      return true;
    default: {
      const never: never = ep.security;
      throw new Error(`security: unknown value ${String(never)}`);
    }
  }
}

/** Returns the weight the budgets charge: the larger of the stated weight and what real servers charged. */
export function chargedWeight(ep: { weight: number; serverWeight?: number }): number {
  return Math.max(ep.weight, ep.serverWeight ?? 0);
}

/** Returns `METHOD /path`, the key samples and the fixture server use. */
export function endpointKey(ep: { method: HttpMethod; path: string }): string {
  return `${ep.method} ${ep.path}`;
}
