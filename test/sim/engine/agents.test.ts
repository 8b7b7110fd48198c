// Seeded market agents keep books, trades, klines and tickers alive on a virtual clock, conserve money, and repeat exactly for a seed.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { MarketAgents } from '../../../src/sim/agents/index.ts';
import { SimVenue } from '../../../src/sim/engine/venue.ts';
import type { AgentsConfig } from '../../../src/sim/engine/config.ts';
import { baseConfig } from './fixtures.ts';

const agentsCfg: AgentsConfig = { referencePrice: { ETHBTC: '0.035' }, funds: { ETH: '100000', BTC: '5000' }, levels: 4 };

function runFor(seed: number, minutes: number): SimVenue {
  const clock = new VirtualClock(1_601_215_914_010);
  const venue = new SimVenue(baseConfig({ seed, agents: agentsCfg }), clock);
  const agents = new MarketAgents(venue, agentsCfg, seed);
  agents.start();
  clock.advanceToSync(clock.now() + minutes * 60_000);
  agents.stop();
  return venue;
}

describe('market agents', () => {
  it('make a two-sided book, trades, klines and a ticker without any network', () => {
    const venue = runFor(11, 30);
    const depth = venue.depth('ETHBTC');
    expect(depth.bids.length).toBeGreaterThan(0);
    expect(depth.asks.length).toBeGreaterThan(0);
    expect(Number(depth.bids[0]![0])).toBeLessThan(Number(depth.asks[0]![0]));
    expect(venue.trades('ETHBTC', 5000)).toHaveLength(1000);
    expect(venue.klines('ETHBTC', '1h').reduce((s, k) => s + k[8], 0)).toBeGreaterThan(1500);
    expect(venue.klines('ETHBTC', '1m').length).toBeGreaterThanOrEqual(29);
    expect(venue.klines('ETHBTC', '15m').length).toBeGreaterThanOrEqual(2);
    const t = venue.ticker24h('ETHBTC') as { lastPrice: string; highPrice: string; lowPrice: string };
    expect(Number(t.highPrice)).toBeGreaterThanOrEqual(Number(t.lowPrice));
    expect(Math.abs(Number(t.lastPrice) / 0.035 - 1)).toBeLessThan(0.2);
    for (const a of venue.ledger.audit()) expect(a.users + a.fees + a.insurance + a.clearing).toBe(a.inflow - a.outflow);
  });

  it('repeat exactly for a seed and differ for another', () => {
    const a = runFor(5, 5).logHash();
    expect(runFor(5, 5).logHash()).toBe(a);
    expect(runFor(6, 5).logHash()).not.toBe(a);
  });
});

describe('contract agents', () => {
  const cfg: AgentsConfig = {
    referencePrice: { ETHBTC: '0.035', BTCUSDT: '10000' }, funds: { ETH: '100000', BTC: '5000' }, contractFunds: { TBTC: '50' }, levels: 3, levelLots: 20,
  };

  function run(seed: number, minutes: number): SimVenue {
    const clock = new VirtualClock(1_601_215_914_010);
    const venue = new SimVenue(baseConfig({ seed }), clock);
    const agents = new MarketAgents(venue, cfg, seed);
    agents.start();
    clock.advanceToSync(clock.now() + minutes * 60_000);
    agents.stop();
    venue.close();
    return venue;
  }

  it('drive the index, quote and trade the contract from their own funded contract accounts', () => {
    const venue = run(3, 20);
    const depth = venue.depth('BTC-PERP-REV');
    expect(depth.bids.length).toBeGreaterThan(0);
    expect(depth.asks.length).toBeGreaterThan(0);
    expect(venue.trades('BTC-PERP-REV', 1000).length).toBeGreaterThan(300);
    const idx = Number(venue.indexPrices().index.BTCUSDT);
    expect(Math.abs(idx / 10000 - 1)).toBeLessThan(0.2);
    expect(Math.abs(Number(venue.markPrice('BTC-PERP-REV')) / idx - 1)).toBeLessThan(0.01);
    expect(Number(venue.contracts()[0]!.openInterest)).toBeGreaterThan(0);
    const maker = venue.accountOf(venue.user('agent-contract-maker'), 3);
    expect(venue.positions(maker).length).toBeGreaterThan(0);
    expect(venue.ledger.balance(venue.accountOf(venue.user('agent-contract-maker'), 1), 'TBTC').free).toBe(0n);
    for (const a of venue.ledger.audit()) expect(a.users + a.fees + a.insurance + a.clearing).toBe(a.inflow - a.outflow);
  });

  it('repeat exactly for a seed', () => {
    expect(run(4, 3).logHash()).toBe(run(4, 3).logHash());
  });
});
