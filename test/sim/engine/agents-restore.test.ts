// Market agents on a restored venue take over their saved users (no new users, no new deposits), cancel the quotes left resting, trade with clientOrderIds never used before, and conserve money.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { MarketAgents } from '../../../src/sim/agents/index.ts';
import type { AgentsConfig } from '../../../src/sim/engine/config.ts';
import { SimVenue } from '../../../src/sim/engine/venue.ts';
import { baseConfig } from './fixtures.ts';

const cfg: AgentsConfig = {
  referencePrice: { ETHBTC: '0.035', BTCUSDT: '10000' }, funds: { ETH: '100000', BTC: '5000' }, contractFunds: { TBTC: '50' }, levels: 3, levelLots: 20,
};
const AGENTS = ['agent-maker', 'agent-taker', 'agent-contract-maker', 'agent-contract-taker'];

/** Returns every kept order of the agents' accounts as [accountId, clientOrderId, orderId, active]. */
function agentOrders(venue: SimVenue): { account: string; clientOrderId: string; orderId: string; active: boolean }[] {
  const out = [];
  for (const name of AGENTS) {
    const userId = venue.user(name);
    for (const type of [1, 3] as const) {
      const account = venue.accountOf(userId, type);
      for (const o of venue.core.ordersByAccount.get(account) ?? []) out.push({ account, clientOrderId: o.clientOrderId, orderId: o.orderId, active: o.active });
    }
  }
  return out;
}

function conserved(venue: SimVenue): void {
  for (const a of venue.ledger.audit()) expect(a.users + a.fees + a.insurance + a.clearing, a.asset).toBe(a.inflow - a.outflow);
}

/** Runs agents on `venue` for `minutes` of its clock. */
function runAgents(venue: SimVenue, clock: VirtualClock, minutes: number): MarketAgents {
  const agents = new MarketAgents(venue, cfg, 9);
  agents.start();
  clock.advanceToSync(clock.now() + minutes * 60_000);
  agents.stop();
  return agents;
}

describe('market agents after a restore', () => {
  it('take over their saved users, cancel their old quotes, trade with new clientOrderIds, and conserve money', () => {
    const clock = new VirtualClock(1_601_215_914_010);
    const first = new SimVenue(baseConfig({ seed: 9 }), clock);
    const firstAgents = runAgents(first, clock, 5);
    expect(firstAgents.tookOver).toBe(false);
    const before = agentOrders(first);
    const resting = before.filter((o) => o.active);
    expect(resting.length).toBeGreaterThan(0);
    const inflow = first.ledger.audit().map((a) => [a.asset, a.inflow]);
    const userIds = AGENTS.map((n) => first.user(n));
    const spotTrades = first.trades('ETHBTC', 1000).length;

    let clock2 = new VirtualClock(clock.now());
    let venue = SimVenue.fromState(baseConfig({ seed: 9 }), clock2, first.exportState());
    first.close();
    const seen = new Set(before.map((o) => `${o.account}/${o.clientOrderId}`));
    for (let run = 0; run < 2; run++) {
      const startedAt = clock2.now();
      const agents = new MarketAgents(venue, cfg, 9);
      expect(agents.tookOver).toBe(true);
      expect(agents.contracts?.tookOver).toBe(true);
      expect(AGENTS.map((n) => venue.user(n))).toEqual(userIds);
      agents.start();
      // The quotes of the earlier run are off the books once the agents start.
      const old = agentOrders(venue).filter((x) => seen.has(`${x.account}/${x.clientOrderId}`));
      expect(old.length).toBeGreaterThan(0);
      for (const o of old) expect(o.active, o.orderId).toBe(false);
      clock2.advanceToSync(clock2.now() + 5 * 60_000);
      agents.stop();
      // No new deposit: the agents traded with what they had.
      expect(venue.ledger.audit().map((a) => [a.asset, a.inflow])).toEqual(inflow);
      conserved(venue);
      const newTrades = venue.trades('BTC-PERP-REV', 1000).filter((t) => t.time > startedAt);
      expect(newTrades.length).toBeGreaterThan(20);
      const fresh = agentOrders(venue).filter((o) => !seen.has(`${o.account}/${o.clientOrderId}`));
      expect(fresh.length).toBeGreaterThan(50);
      for (const o of agentOrders(venue)) seen.add(`${o.account}/${o.clientOrderId}`);
      // Another restore of this run's state: its agents must again find ids of their own.
      clock2 = new VirtualClock(clock2.now());
      const next = SimVenue.fromState(baseConfig({ seed: 9 }), clock2, venue.exportState());
      venue.close();
      venue = next;
    }
    expect(venue.trades('ETHBTC', 1000).length).toBeGreaterThan(spotTrades);
    conserved(venue);
    venue.close();
  });

  it('a restored run repeats exactly for the same state and seed', () => {
    const clock = new VirtualClock(1_601_215_914_010);
    const first = new SimVenue(baseConfig({ seed: 9 }), clock);
    runAgents(first, clock, 2);
    const state = first.exportState();
    first.close();
    const again = (): string => {
      const c = new VirtualClock(clock.now());
      const v = SimVenue.fromState(baseConfig({ seed: 9 }), c, state);
      runAgents(v, c, 2);
      v.close();
      return v.exportState();
    };
    expect(again()).toBe(again());
  });
});
