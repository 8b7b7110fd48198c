// Objects made on hot paths share one hidden class. On Node 20 (V8 11), an object literal that starts
// with a spread and then adds keys gets a hidden class of its own each time once its function has
// warmed up: every reader of such objects turns megamorphic, and optimized code that met last run's
// instruments is thrown away at the start of each run of a sweep.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import * as m from '../../src/model/index.ts';
import { fillOfContractTrade } from '../../src/venue/gateway.ts';
import { parseRiskConfig } from '../../src/risk/config.ts';
import { symbolLimits, strategyLimits } from '../../src/risk/terms.ts';
import { loadSample } from '../fixtures/samples.ts';

setFlagsFromString('--allow-natives-syntax');
const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;

/** Makes `make()` often enough that its function has feedback (V8 allocates it after a few calls), and returns whether the last two share a hidden class. */
function stable(make: () => unknown): boolean {
  let prev = make();
  for (let i = 0; i < 40; i++) {
    const next = make();
    if (i > 20 && !sameShape(prev, next)) return false;
    prev = next;
  }
  return true;
}

const payload = (name: string): unknown => loadSample(name).payload;

describe('objects made on hot paths keep one hidden class', () => {
  it('instruments of spot symbols and contracts', () => {
    const spot = m.parseBrokerInfo(payload('broker-info.capture-2020')).symbols[0]!;
    const contract = m.parseBrokerInfo(payload('contract-broker-info.official')).contracts[0]!;
    expect(stable(() => m.instrumentFromSpot(spot))).toBe(true);
    expect(stable(() => m.instrumentFromContract(contract))).toBe(true);
  });

  it('market pushes of every topic and the 24h ticker', () => {
    for (const name of ['ws-market-trade.official', 'ws-market-depth.official', 'ws-market-diff-depth.official', 'ws-market-kline.official', 'ws-market-realtimes.official', 'ws-market-index.official']) {
      const raw = payload(name);
      expect(stable(() => m.parseMarketMessage(raw)), name).toBe(true);
    }
  });

  it('contract reports and contract fills', () => {
    const raw = payload('ws-user-contract-execution-report.hbtc');
    expect(stable(() => m.parseUserStreamFrame(raw)[0])).toBe(true);
    const trade = m.parseContractTradeList(payload('contract-my-trades.official'))[0]!;
    expect(stable(() => fillOfContractTrade({ ...trade, pnl: '1' }))).toBe(true);
  });

  it("a symbol's and a strategy's merged risk limits", () => {
    expect(stable(() => symbolLimits(parseRiskConfig({ defaults: { maxOpenOrders: 5 }, symbols: { BTCUSDT: { maxPosition: '1' } } }), 'BTCUSDT'))).toBe(true);
    expect(stable(() => strategyLimits(parseRiskConfig({ strategy: { dailyLossLimit: '10' }, strategies: { mm: { orderRate: { perSecond: 2 } } } }), 'mm'))).toBe(true);
  });
});
