/** The two gateways of the contract suite on identical venues (config/venue.yaml plus a counterparty, agents off, one seed, a virtual clock): RestGateway over loopback to the venue's real server, SimGateway in-process. */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { SimGateway } from '../../src/backtest/sim-gateway.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { Rng } from '../../src/core/random.ts';
import type { BusEvent, Gateway } from '../../src/model/index.ts';
import { EngineBackend } from '../../src/sim/server/backend.ts';
import type { VenueConfig } from '../../src/sim/server/config.ts';
import { Faults } from '../../src/sim/server/faults.ts';
import type { SimVenue } from '../../src/sim/engine/venue.ts';
import { RestGateway, UserStreamClient, VenueRestClient } from '../../src/venue/index.ts';
import { KEY, SECRET, startTest, T0, testConfig } from '../sim/server/helpers.ts';

/** What the script drives: the gateway under test, and the venue behind it (the counterparty trades on it directly). */
export interface Harness {
  readonly gateway: Gateway;
  readonly venue: SimVenue;
  readonly clock: VirtualClock;
  /** Order, balance and position reports of the gateway's user stream so far. */
  readonly reports: BusEvent[];
  /** Resolves once `n` reports have arrived. */
  reportsReached(n: number): Promise<void>;
  close(): Promise<void>;
}

export type HarnessFactory = () => Promise<Harness>;

const SEED = 5;

/** The shipped accounts plus a funded counterparty that quotes against the demo account. */
function overrides(): Record<string, unknown> {
  const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { accounts: unknown[] };
  return {
    accounts: [...raw.accounts, {
      name: 'counter', keys: [{ apiKey: 'C'.repeat(64), secret: 'S'.repeat(64), permissions: 'all' }],
      balances: { spot: { USDT: '1000000', BTC: '100' }, contract: { BTC: '100', USDT: '1000000' } },
    }],
  };
}

/** Collects the reports a sink receives and wakes waiters on their count. */
function collector(): { reports: BusEvent[]; sink: (ev: BusEvent) => void; reached: (n: number) => Promise<void>; ready: Promise<void> } {
  const reports: BusEvent[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let isReady!: () => void;
  const ready = new Promise<void>((resolve) => { isReady = resolve; });
  const sink = (ev: BusEvent): void => {
    if (ev.kind === 'connection' && ev.state === 'ready') isReady();
    if (ev.kind !== 'order' && ev.kind !== 'balance' && ev.kind !== 'position') return;
    reports.push(ev);
    for (const w of waiters.filter((x) => reports.length >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const reached = (n: number): Promise<void> => (reports.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })));
  return { reports, sink, reached, ready };
}

/** RestGateway over the venue's real HTTP server on 127.0.0.1, port 0, with the user stream client's reports (no reorder hold). */
export const restHarness: HarnessFactory = async () => {
  const t = await startTest({ ...overrides(), server: { ...testConfig().server, seed: SEED } }, new VirtualClock(T0));
  const rest = new VenueRestClient({ baseUrl: t.url, apiKey: KEY, secret: SECRET, clock: t.clock });
  const c = collector();
  const user = new UserStreamClient({ rest, wsUrl: t.ws, clock: t.clock, sink: c.sink });
  await user.start();
  await c.ready;
  return {
    gateway: new RestGateway(rest, () => t.clock.now()), venue: t.venue.backend.venue, clock: t.clock, reports: c.reports, reportsReached: c.reached,
    close: async () => {
      await user.stop();
      await rest.close();
      await t.close();
    },
  };
};

/** The engine the server would serve for the suite's config (EngineBackend: accounts funded, indexes open, the shipped agents when asked), without a server, on a virtual clock at T0. */
export function simEngine(o: { agents?: boolean } = {}): { clock: VirtualClock; c: VenueConfig; backend: EngineBackend } {
  const clock = new VirtualClock(T0);
  const agents = o.agents === true ? (parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { agents: unknown[] }).agents : [];
  const c = testConfig({ ...overrides(), agents, server: { ...testConfig().server, seed: SEED } });
  return { clock, c, backend: new EngineBackend(c, clock, new Faults(new Rng(SEED)), SEED) };
}

/** SimGateway in-process over the same engine the server would serve (EngineBackend), without latency. */
export const simHarness: HarnessFactory = async () => {
  const { clock, c, backend } = simEngine();
  const col = collector();
  const gateway = new SimGateway({
    venue: backend.venue, clock, user: 'demo', sink: col.sink, timezone: c.venue.timezone,
    rateLimits: c.rateLimits.map((r) => ({ rateLimitType: r.rateLimitType, interval: r.interval, limit: r.limit })),
  });
  return {
    gateway, venue: backend.venue, clock, reports: col.reports, reportsReached: col.reached,
    close: async () => {
      gateway.close();
      backend.stop();
    },
  };
};
