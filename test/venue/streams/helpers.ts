/** Shared setup of the stream tests: the simulated venue on 127.0.0.1 port 0 on a virtual clock, an event recorder, and waiting on events in virtual time. */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { parse as parseYaml } from 'yaml';
import { VirtualClock } from '../../../src/core/clock.ts';
import type { BusEvent, EventKind, EventOf } from '../../../src/model/events.ts';
import { parseVenueConfig } from '../../../src/sim/server/config.ts';
import { startVenue, type RunningVenue } from '../../../src/sim/server/start.ts';
import { VenueRestClient } from '../../../src/venue/rest-client.ts';

/** The venue's published example key pair (venue-notes.md §2), the demo account of config/venue.yaml. */
export const KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
export const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
export const TAKER = { key: 'B'.repeat(64), secret: 'taker-secret-00000001' };
/** The timestamp of the published examples. */
export const T0 = 1538323200000;

export const TWO_ACCOUNTS = {
  accounts: [
    { name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], balances: { spot: { ETH: '100', BTC: '10' } } },
    { name: 'taker', keys: [{ apiKey: TAKER.key, secret: TAKER.secret }], balances: { spot: { ETH: '100', BTC: '10' } } },
  ],
};

export interface Venue {
  readonly venue: RunningVenue;
  readonly clock: VirtualClock;
  readonly url: string;
  readonly ws: string;
  /** The demo account's REST client. */
  readonly maker: VenueRestClient;
  /** The taker account's REST client. */
  readonly taker: VenueRestClient;
  close(): Promise<void>;
}

/** Starts the shipped venue config (sections replaced by `over`, agents off) on a virtual clock at T0. */
export async function startVenueOnClock(over: Record<string, unknown> = {}): Promise<Venue> {
  const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as Record<string, unknown>;
  const config = parseVenueConfig({ ...raw, agents: [], ...TWO_ACCOUNTS, ...over });
  const clock = new VirtualClock(T0);
  const venue = await startVenue({ config, clock, host: '127.0.0.1', port: 0 });
  const url = venue.server.restUrl;
  const maker = new VenueRestClient({ baseUrl: url, apiKey: KEY, secret: SECRET, clock });
  const taker = new VenueRestClient({ baseUrl: url, apiKey: TAKER.key, secret: TAKER.secret, clock });
  return {
    venue, clock, url, ws: venue.server.wsUrl, maker, taker,
    close: async () => {
      await Promise.all([maker.close(), taker.close()]);
      await venue.stop();
    },
  };
}

/** Switches the venue's faults through its loopback admin route (absent keys turn off). */
export async function setFaults(v: Venue, body: unknown): Promise<void> {
  const r = await request(`${v.url}/admin/faults`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`faults refused: ${text}`);
}

/** Every event a client published, in order, with typed lookups. */
export class Recorder {
  readonly events: BusEvent[] = [];
  readonly sink = (ev: BusEvent): void => {
    this.events.push(ev);
  };

  /** Returns the events of one kind (after index `from`). */
  of<K extends EventKind>(kind: K, from = 0): EventOf<K>[] {
    return this.events.slice(from).filter((e): e is EventOf<K> => e.kind === kind);
  }

  /** Returns the connection states published, in order. */
  states(from = 0): string[] {
    return this.of('connection', from).map((e) => e.state);
  }

  /** Returns how many events were recorded so far (a mark for later lookups). */
  get mark(): number {
    return this.events.length;
  }
}

/** Lets socket I/O of the one process run (a few event-loop turns), without moving virtual time. */
export async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Resolves with the first truthy value of `probe`: I/O gets event-loop turns first, and virtual time
 * moves by `stepMs` only when nothing came, so timers (back-off, pushes, keepalive) fire in order.
 * Fails after `maxMs` of virtual time, naming `what`.
 */
export async function until<T>(clock: VirtualClock, what: string, probe: () => T | undefined | false | null, o: { stepMs?: number; maxMs?: number } = {}): Promise<T> {
  const step = o.stepMs ?? 50;
  const max = o.maxMs ?? 120_000;
  const start = clock.now();
  for (;;) {
    for (let i = 0; i < 5; i++) {
      const v = probe();
      if (v !== undefined && v !== false && v !== null) return v;
      await turns(4);
    }
    if (clock.now() - start > max) throw new Error(`${what}: not seen within ${max} ms of virtual time`);
    await clock.advance(step);
  }
}

/** Places a resting limit order and returns its order id. */
export async function limit(c: VenueRestClient, symbol: string, side: 'BUY' | 'SELL', quantity: string, price: string, id?: string): Promise<string> {
  const r = await c.newSpotOrder({ symbol, side, type: 'LIMIT', quantity, price, timeInForce: 'GTC', ...(id ? { newClientOrderId: id } : {}) });
  return r.orderId;
}
