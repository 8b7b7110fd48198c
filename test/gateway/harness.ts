/** The two gateways of the contract suite on identical venues (config/venue.yaml plus a counterparty, agents off, one seed, a virtual clock): RestGateway over loopback to the venue's real server, SimGateway in-process. */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { SimGateway } from '../../src/backtest/sim-gateway.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { Rng } from '../../src/core/random.ts';
import type { BusEvent, Gateway } from '../../src/model/index.ts';
import { EngineBackend } from '../../src/sim/server/backend.ts';
import { Faults } from '../../src/sim/server/faults.ts';
import type { SimVenue } from '../../src/sim/engine/venue.ts';
import { RestGateway, VenueRestClient } from '../../src/venue/index.ts';
import { KEY, SECRET, startTest, T0, testConfig } from '../sim/server/helpers.ts';

/** What the script drives: the gateway under test, and the venue behind it (the counterparty trades on it directly). */
export interface Harness {
  readonly gateway: Gateway;
  readonly venue: SimVenue;
  readonly clock: VirtualClock;
  /** Reports the gateway's user stream delivered so far. */
  readonly reports: BusEvent[];
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

/** RestGateway over the venue's real HTTP server on 127.0.0.1, port 0. */
export const restHarness: HarnessFactory = async () => {
  const t = await startTest({ ...overrides(), server: { ...testConfig().server, seed: SEED } }, new VirtualClock(T0));
  const rest = new VenueRestClient({ baseUrl: t.url, apiKey: KEY, secret: SECRET, clock: t.clock });
  return {
    gateway: new RestGateway(rest, () => t.clock.now()), venue: t.venue.backend.venue, clock: t.clock, reports: [],
    close: async () => {
      await rest.close();
      await t.close();
    },
  };
};

/** SimGateway in-process over the same engine the server would serve (EngineBackend), without latency. */
export const simHarness: HarnessFactory = async () => {
  const clock = new VirtualClock(T0);
  const c = testConfig({ ...overrides(), server: { ...testConfig().server, seed: SEED } });
  const backend = new EngineBackend(c, clock, new Faults(new Rng(SEED)), SEED);
  const reports: BusEvent[] = [];
  const gateway = new SimGateway({
    venue: backend.venue, clock, user: 'demo', sink: (ev) => reports.push(ev), timezone: c.venue.timezone,
    rateLimits: c.rateLimits.map((r) => ({ rateLimitType: r.rateLimitType, interval: r.interval, limit: r.limit })),
  });
  return {
    gateway, venue: backend.venue, clock, reports,
    close: async () => {
      gateway.close();
      backend.stop();
    },
  };
};
