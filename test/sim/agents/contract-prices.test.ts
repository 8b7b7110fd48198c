// Each contract of the shipped venue is quoted and traded around its own index in its own ticks (the linear swap's tick is 10× the inverse contract's), and its mark stays index + a small basis: seeded agents on a virtual clock.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Decimal } from '../../../src/core/fixed.ts';
import { MarketAgents } from '../../../src/sim/agents/index.ts';
import { makeUnit, nearestUnits } from '../../../src/sim/engine/units.ts';
import { SimVenue } from '../../../src/sim/engine/venue.ts';
import { agentsConfig } from '../../../src/sim/server/agents.ts';
import { simConfigOf } from '../../../src/sim/server/backend.ts';
import { parseVenueConfig } from '../../../src/sim/server/config.ts';

const CONTRACTS = ['BTC-PERP-REV', 'BTC-SWAP-USDT'];

interface Seen {
  trades: number;
  worstTrade: Decimal;
  worstMark: Decimal;
}

/** Runs the shipped venue's agents for `minutes` of virtual time and records, per contract, the largest |trade / index − 1| and |mark / index − 1|. */
function run(seed: number, minutes: number): { venue: SimVenue; seen: Map<string, Seen> } {
  const c = parseVenueConfig(parseYaml(readFileSync('config/venue.yaml', 'utf8')));
  const cfg = agentsConfig(c)!;
  const clock = new VirtualClock(1_700_000_000_000);
  const venue = new SimVenue({ ...simConfigOf(c, seed), keepEventLog: true }, clock);
  const seen = new Map(CONTRACTS.map((s) => [s, { trades: 0, worstTrade: new Decimal(0), worstMark: new Decimal(0) }]));
  let index: Decimal | undefined;
  venue.subscribe((ev) => {
    const b = ev.body;
    if (b.type === 'mark') {
      index = new Decimal(b.indexPrice);
      const s = seen.get(b.symbol)!;
      s.worstMark = Decimal.max(s.worstMark, new Decimal(b.markPrice).div(index).minus(1).abs());
    }
    if (b.type === 'trade' && seen.has(b.symbol)) {
      const s = seen.get(b.symbol)!;
      expect(index, `a ${b.symbol} trade before any index`).toBeDefined();
      s.trades += 1;
      s.worstTrade = Decimal.max(s.worstTrade, new Decimal(b.price).div(index!).minus(1).abs());
    }
  });
  const agents = new MarketAgents(venue, cfg, seed);
  agents.start();
  clock.advanceToSync(clock.now() + minutes * 60_000);
  agents.stop();
  venue.close();
  return { venue, seen };
}

describe('contract prices of the shipped venue', () => {
  it.each([1, 2])('every contract trades and marks within one percent of its index (seed %i)', (seed) => {
    const { venue, seen } = run(seed, 15);
    for (const symbol of CONTRACTS) {
      const s = seen.get(symbol)!;
      expect(s.trades, `${symbol} trades`).toBeGreaterThan(50);
      expect(s.worstTrade.toNumber(), `${symbol} worst trade/index`).toBeLessThan(0.01);
      expect(s.worstMark.toNumber(), `${symbol} worst mark/index`).toBeLessThan(0.01);
      const depth = venue.depth(symbol);
      const index = new Decimal(venue.indexPrices().index['BTCUSDT']!);
      expect(new Decimal(depth.bids[0]![0]).div(index).minus(1).abs().toNumber(), `${symbol} best bid/index`).toBeLessThan(0.01);
      expect(new Decimal(depth.asks[0]![0]).div(index).minus(1).abs().toNumber(), `${symbol} best ask/index`).toBeLessThan(0.01);
    }
  });
});

describe('nearestUnits', () => {
  it('carries a price into a coarser tick, halves up, exact multiples unchanged', () => {
    const tick = makeUnit('0.1');
    expect(nearestUnits('29956.04', tick)).toBe(299560);
    expect(nearestUnits('29956.05', tick)).toBe(299561);
    expect(nearestUnits('29956.1', tick)).toBe(299561);
    expect(nearestUnits('30000', makeUnit('0.01'))).toBe(3000000);
  });
});
