// Hand-built scenarios of the backtest exchange with known answers: queue position, takers, latency, rules.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/random.ts';
import { constantLatency, linkLatency } from '../../src/backtest/exchange/latency.ts';
import { logQueue, powerQueue, riskAverse } from '../../src/backtest/exchange/queue.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { BacktestExchange } from '../../src/backtest/exchange/exchange.ts';
import type { ExecutionReport } from '../../src/backtest/exchange/types.ts';
import { contractInstrument, harness, limit } from './fixtures.ts';

const P = 800_000; // 8000.00 in ticks of 0.01

describe('queue position', () => {
  it('risk-averse: a resting bid behind 5 lots fills only after 5 lots have traded at its price', () => {
    const h = harness({ queue: riskAverse });
    h.at({ kind: 'depth', time: 1, side: 0, priceTicks: P, lots: 5 });
    h.ex.submit(limit('b1', 'BUY_OPEN', P, 2));
    h.clock.advanceToSync(2);
    expect(h.ex.openOrders()[0]!.ahead).toBe(5);
    // Cancels ahead and behind change nothing under this model while the level stays above the size ahead.
    h.at({ kind: 'depth', time: 3, side: 0, priceTicks: P, lots: 9 });
    h.at({ kind: 'depth', time: 4, side: 0, priceTicks: P, lots: 6 });
    for (let i = 0; i < 5; i++) {
      h.at({ kind: 'trade', time: 10 + i, priceTicks: P, lots: 1, takerSide: 1 });
      h.at({ kind: 'depth', time: 10 + i, side: 0, priceTicks: P, lots: 5 - i });
    }
    expect(h.fills()).toEqual([]);
    expect(h.ex.openOrders()[0]!.ahead).toBe(0);
    // The next lot traded at the price is ours.
    h.at({ kind: 'trade', time: 20, priceTicks: P, lots: 1, takerSide: 1 });
    expect(h.fills().map((r) => [r.lastPriceTicks, r.lastLots, r.isMaker, r.status])).toEqual([[P, 1, true, 'PARTIALLY_FILLED']]);
    // A trade below the bid trades through it: the rest fills at the bid's price.
    h.at({ kind: 'trade', time: 21, priceTicks: P - 1, lots: 1, takerSide: 1 });
    expect(h.fills().map((r) => [r.lastPriceTicks, r.lastLots, r.status])).toEqual([[P, 1, 'PARTIALLY_FILLED'], [P, 1, 'FILLED']]);
  });

  it('a trade larger than the size ahead fills the excess at once (partial fill)', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 1, side: 1, priceTicks: P, lots: 5 });
    h.ex.submit(limit('s1', 'SELL_OPEN', P, 4));
    h.at({ kind: 'trade', time: 2, priceTicks: P, lots: 7, takerSide: 0 });
    expect(h.fills().map((r) => [r.lastLots, r.leavesLots])).toEqual([[2, 2]]);
  });

  it('probabilistic: cancels behind do not advance the order, cancels ahead do in expectation', () => {
    // Five lots ahead, then ten join behind.
    const setup = (queue = powerQueue(2)) => {
      const h = harness({ queue });
      h.at({ kind: 'depth', time: 1, side: 0, priceTicks: P, lots: 5 });
      h.ex.submit(limit('b1', 'BUY_OPEN', P, 1));
      h.at({ kind: 'depth', time: 2, side: 0, priceTicks: P, lots: 15 });
      return h;
    };
    // One lot cancelled: it was behind with p = f(10) / (f(10) + f(5)); the order advances by 1 − p.
    const pow = setup();
    pow.at({ kind: 'depth', time: 3, side: 0, priceTicks: P, lots: 14 });
    expect(pow.ex.openOrders()[0]!.ahead).toBeCloseTo(5 - (1 - 100 / 125), 12); // 4.8
    const log = setup(logQueue);
    log.at({ kind: 'depth', time: 3, side: 0, priceTicks: P, lots: 14 });
    const p = Math.log(11) / (Math.log(11) + Math.log(6));
    expect(log.ex.openOrders()[0]!.ahead).toBeCloseTo(5 - (1 - p), 12); // 4.5724
    // The same cancel under risk-averse does not move it.
    const ra = setup(riskAverse);
    ra.at({ kind: 'depth', time: 3, side: 0, priceTicks: P, lots: 14 });
    expect(ra.ex.openOrders()[0]!.ahead).toBe(5);

    // At the front (all ahead traded), cancels of everything behind leave it at the front, no fill without a trade.
    const front = setup();
    for (let i = 0; i < 5; i++) front.at({ kind: 'trade', time: 4 + i, priceTicks: P, lots: 1, takerSide: 1 });
    front.at({ kind: 'depth', time: 10, side: 0, priceTicks: P, lots: 10 });
    front.at({ kind: 'depth', time: 11, side: 0, priceTicks: P, lots: 1 });
    expect(front.ex.openOrders()[0]!.ahead).toBe(0);
    expect(front.fills()).toEqual([]);

    // With nothing behind, every cancel was ahead: it advances lot for lot.
    const back = harness({ queue: powerQueue(2) });
    back.at({ kind: 'depth', time: 1, side: 0, priceTicks: P, lots: 5 });
    back.ex.submit(limit('b1', 'BUY_OPEN', P, 1));
    back.at({ kind: 'depth', time: 2, side: 0, priceTicks: P, lots: 2 });
    expect(back.ex.openOrders()[0]!.ahead).toBeCloseTo(2, 12);
    // A trade that also shows as a level decrease is counted once: 2 traded, level 2 → 0, the order is at the front with 0 ahead, not −2.
    back.at({ kind: 'trade', time: 3, priceTicks: P, lots: 2, takerSide: 1 });
    back.at({ kind: 'depth', time: 3, side: 0, priceTicks: P, lots: 0 });
    expect(back.fills()).toEqual([]);
    expect(back.ex.openOrders()[0]!.ahead).toBeCloseTo(0, 12);
  });

  it('in expectation: over many seeded random cancel sequences the estimate tracks the true mean position', () => {
    // Ground truth: each cancelled lot is drawn uniformly from the queue, so P(behind) = back / (front + back): the power model with n = 1.
    const model = powerQueue(1);
    let trueSum = 0;
    const rng = new Rng(7);
    const runs = 4000;
    for (let r = 0; r < runs; r++) {
      let front = 6;
      let back = 9;
      for (let k = 0; k < 5; k++) {
        if (rng.next() < back / (front + back)) back--;
        else front--;
      }
      trueSum += front;
    }
    const q = { ahead: 6, tradedSinceDepth: 0 };
    for (let k = 0; k < 5; k++) model.depth(q, 15 - k, 14 - k);
    expect(Math.abs(q.ahead - trueSum / runs)).toBeLessThan(0.1);
  });
});

describe('takers', () => {
  it('walk the recorded levels and never take the same liquidity twice until the level changes', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 1, side: 1, priceTicks: P + 1, lots: 2 });
    h.at({ kind: 'depth', time: 1, side: 1, priceTicks: P + 2, lots: 3 });
    h.ex.submit(limit('t1', 'BUY_OPEN', P + 2, 4, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(2);
    expect(h.fills().map((r) => [r.lastPriceTicks, r.lastLots, r.isMaker])).toEqual([[P + 1, 2, false], [P + 2, 2, false]]);
    h.ex.submit(limit('t2', 'BUY_OPEN', P + 2, 4, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(3);
    const second = h.reports.filter((r) => r.clientOrderId === 't2');
    expect(second.filter((r) => r.execType === 'TRADE').map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P + 2, 1]]);
    expect(second.at(-1)!.execType).toBe('EXPIRED');
    // The recording shows the level again: it can be taken again.
    h.at({ kind: 'depth', time: 4, side: 1, priceTicks: P + 1, lots: 2 });
    h.ex.submit(limit('t3', 'BUY_OPEN', P + 1, 5, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(5);
    expect(h.reports.filter((r) => r.clientOrderId === 't3' && r.execType === 'TRADE').map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P + 1, 2]]);
  });

  it('do not take what recorded trades traded, until the level changes: the venue\'s book lost it before its next diff showed it', () => {
    const h = harness();
    for (const [p, lots] of [[P, 13], [P - 1, 10], [P - 2, 18]] as const) h.at({ kind: 'depth', time: 1, side: 0, priceTicks: p, lots });
    // Others sell 13 at P and 5 at P - 1 (recorded trades; the book's next diff is still to come).
    h.at({ kind: 'trade', time: 2, priceTicks: P, lots: 13, takerSide: 1 });
    h.at({ kind: 'trade', time: 2, priceTicks: P - 1, lots: 5, takerSide: 1 });
    h.ex.submit(limit('s', 'SELL_CLOSE', P - 5, 10, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(3);
    expect(h.fills().map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P - 1, 5], [P - 2, 5]]);
    // The diff shows the level again: its size can be taken again.
    h.at({ kind: 'depth', time: 4, side: 0, priceTicks: P, lots: 4 });
    h.ex.submit(limit('s2', 'SELL_CLOSE', P - 5, 2, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(5);
    expect(h.reports.filter((r) => r.clientOrderId === 's2' && r.execType === 'TRADE').map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P, 2]]);
  });

  it('a recorded trade far through the best takes every level it passed, near or far (hundreds of ticks)', () => {
    const h = harness();
    for (const [p, lots] of [[P, 2], [P + 30, 3], [P + 200, 4], [P + 300, 5]] as const) h.at({ kind: 'depth', time: 1, side: 1, priceTicks: p, lots });
    // Someone bought through to P + 200: P and P + 30 went whole, 1 of the 4 at P + 200.
    h.at({ kind: 'trade', time: 2, priceTicks: P + 200, lots: 1, takerSide: 0 });
    h.ex.submit(limit('t', 'BUY_OPEN', P + 300, 20, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(3);
    expect(h.fills().map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P + 200, 3], [P + 300, 5]]);
    // And a trade a tick from the best takes the best level whole and its own level in part.
    const g = harness();
    for (const [p, lots] of [[P, 2], [P + 1, 3]] as const) g.at({ kind: 'depth', time: 1, side: 1, priceTicks: p, lots });
    g.at({ kind: 'trade', time: 2, priceTicks: P + 1, lots: 1, takerSide: 0 });
    g.ex.submit(limit('t', 'BUY_OPEN', P + 1, 9, { timeInForce: 'IOC' }));
    g.clock.advanceToSync(3);
    expect(g.fills().map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P + 1, 2]]);
  });

  it('a recorded trade that fills an own resting order takes from the recorded level only what others had ahead', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 1, side: 1, priceTicks: P, lots: 3 });
    h.at({ kind: 'depth', time: 1, side: 1, priceTicks: P + 1, lots: 5 });
    h.ex.submit(limit('m', 'SELL_OPEN', P, 2));
    h.clock.advanceToSync(2);
    // A buy of 4 at P: 3 from the recorded level ahead, 1 from the own order; then a buyer takes what is left at P and above.
    h.at({ kind: 'trade', time: 3, priceTicks: P, lots: 4, takerSide: 0 });
    h.ex.submit(limit('t', 'BUY_OPEN', P + 1, 4, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(4);
    expect(h.fills().map((r) => [r.clientOrderId, r.lastPriceTicks, r.lastLots, r.isMaker])).toEqual([['m', P, 1, true], ['t', P + 1, 4, false]]);
  });

  it('FOK takes all or nothing; a GTC remainder rests at its limit', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 1, side: 1, priceTicks: P + 1, lots: 2 });
    h.ex.submit(limit('f', 'BUY_OPEN', P + 1, 3, { timeInForce: 'FOK' }));
    h.ex.submit(limit('g', 'BUY_OPEN', P + 1, 3));
    h.clock.advanceToSync(1);
    expect(h.reports.filter((r) => r.clientOrderId === 'f').map((r) => r.execType)).toEqual(['NEW', 'EXPIRED']);
    expect(h.reports.filter((r) => r.clientOrderId === 'g').map((r) => [r.execType, r.lastLots])).toEqual([['NEW', 0], ['TRADE', 2]]);
    expect(h.ex.openOrders()).toMatchObject([{ clientOrderId: 'g', leavesLots: 1, limitTicks: P + 1 }]);
  });
});

describe('latency', () => {
  const scenario = (entryMs: number) => {
    const h = harness({ latency: constantLatency(entryMs, 3) });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: P + 1, lots: 2 });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: P + 5, lots: 2 });
    h.ex.submit(limit('t', 'BUY_OPEN', P + 5, 2, { timeInForce: 'IOC' }));
    // Someone else takes the best ask at t = 5.
    h.at({ kind: 'depth', time: 5, side: 1, priceTicks: P + 1, lots: 0 });
    h.clock.advanceToSync(100);
    return h.fills();
  };

  it('entry latency moves a fill that would otherwise happen', () => {
    const fast = scenario(0);
    expect(fast.map((r) => [r.lastPriceTicks, r.exchTime, r.localTime])).toEqual([[P + 1, 0, 3]]);
    const slow = scenario(10);
    expect(slow.map((r) => [r.lastPriceTicks, r.exchTime, r.localTime])).toEqual([[P + 5, 10, 13]]);
  });
});

describe('rules of the simulated venue', () => {
  it('refuses with the venue codes and leaves nothing behind', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: P + 1, lots: 2 });
    h.ex.submit(limit('m', 'BUY_OPEN', P + 1, 1, { timeInForce: 'LIMIT_MAKER' }));
    h.ex.submit(limit('q', 'BUY_OPEN', P, 100_001));
    h.ex.submit(limit('p', 'BUY_OPEN', 10_000_001, 1));
    h.ex.submit(limit('s', 'BUY_OPEN', P, 1, { type: 'STOP' }));
    h.ex.submit(limit('ok', 'BUY_OPEN', P, 1));
    h.ex.submit(limit('ok', 'BUY_OPEN', P, 1));
    h.ex.cancel('nope');
    h.clock.advanceToSync(1);
    expect(h.reports.map((r) => [r.clientOrderId, r.execType, r.code])).toEqual([
      ['m', 'REJECTED', -1158], ['q', 'REJECTED', -1135], ['p', 'REJECTED', -1132], ['s', 'REJECTED', -1105],
      ['ok', 'NEW', 0], ['ok', 'REJECTED', -1141], ['nope', 'CANCEL_REJECTED', -2013],
    ]);
    expect(h.ex.openOrders().map((o) => o.clientOrderId)).toEqual(['ok']);
  });

  it('refuses a market-priced order before the recording shows any book, instead of resting it at the band where it would fill as a maker', () => {
    const h = harness();
    // A trade comes first (a recording that starts with a trade): the book was there, unrecorded, not empty.
    h.at({ kind: 'trade', time: 0, priceTicks: P, lots: 1, takerSide: 0 });
    h.ex.submit(limit('early', 'BUY_OPEN', 0, 3, { priceType: 'MARKET' }));
    h.clock.advanceToSync(1);
    h.at({ kind: 'depth', time: 2, side: 1, priceTicks: P + 1, lots: 5 });
    h.ex.submit(limit('known', 'BUY_OPEN', 0, 3, { priceType: 'MARKET' }));
    h.clock.advanceToSync(3);
    expect(h.reports.map((r) => [r.clientOrderId, r.execType, r.code, r.lastPriceTicks])).toEqual([
      ['early', 'REJECTED', -1149, 0], ['known', 'NEW', 0, 0], ['known', 'TRADE', 0, P + 1],
    ]);
    expect(h.ex.openOrders()).toEqual([]);
  });

  it('refuses a post-only order that would trade with the strategy\'s own resting order on the other side, as the venue\'s book holds it', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 0, side: 0, priceTicks: P - 10, lots: 2 });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: P + 10, lots: 2 });
    h.ex.submit(limit('ask', 'SELL_OPEN', P + 2, 1));
    h.ex.submit(limit('bid', 'BUY_OPEN', P - 2, 1));
    h.clock.advanceToSync(1);
    h.ex.submit(limit('crossBuy', 'BUY_OPEN', P + 2, 1, { timeInForce: 'LIMIT_MAKER' }));
    h.ex.submit(limit('crossSell', 'SELL_OPEN', P - 2, 1, { timeInForce: 'LIMIT_MAKER' }));
    h.ex.submit(limit('below', 'BUY_OPEN', P + 1, 1, { timeInForce: 'LIMIT_MAKER' }));
    h.clock.advanceToSync(2);
    expect(h.reports.filter((r) => r.execType !== 'NEW' || r.clientOrderId === 'below').map((r) => [r.clientOrderId, r.execType, r.code])).toEqual([
      ['crossBuy', 'REJECTED', -1158], ['crossSell', 'REJECTED', -1158], ['below', 'NEW', 0],
    ]);
  });

  it('a STOP waits for its trigger, then works as a limit; OPPONENT prices from the recorded book', () => {
    const h = harness();
    h.at({ kind: 'trade', time: 0, priceTicks: P, lots: 1, takerSide: 0 });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: P + 20, lots: 5 });
    h.ex.submit(limit('stop', 'BUY_OPEN', P + 30, 2, { type: 'STOP', triggerTicks: P + 10 }));
    h.at({ kind: 'trade', time: 1, priceTicks: P + 5, lots: 1, takerSide: 0 });
    expect(h.fills()).toEqual([]);
    h.at({ kind: 'trade', time: 2, priceTicks: P + 10, lots: 1, takerSide: 0 });
    expect(h.reports.map((r) => [r.execType, r.lastPriceTicks])).toEqual([['NEW', 0], ['TRIGGERED', 0], ['TRADE', P + 20]]);
    h.ex.submit(limit('opp', 'BUY_OPEN', 0, 1, { priceType: 'OPPONENT' }));
    h.clock.advanceToSync(3);
    expect(h.reports.at(-1)).toMatchObject({ clientOrderId: 'opp', execType: 'TRADE', lastPriceTicks: P + 20 });
  });

  it('a cancel reaches the exchange after the entry latency: a fill in between wins', () => {
    const h = harness({ latency: constantLatency(5, 0) });
    h.at({ kind: 'depth', time: 0, side: 0, priceTicks: P, lots: 0 });
    h.ex.submit(limit('b', 'BUY_OPEN', P, 1));
    h.clock.advanceToSync(5);
    h.ex.cancel('b');
    h.at({ kind: 'trade', time: 7, priceTicks: P, lots: 1, takerSide: 1 });
    h.clock.advanceToSync(20);
    expect(h.reports.map((r) => [r.execType, r.status, r.code])).toEqual([['NEW', 'NEW', 0], ['TRADE', 'FILLED', 0], ['CANCEL_REJECTED', 'FILLED', -1139]]);
  });

  it('forgets finished orders beyond its bound; a forgotten clientOrderId may be used again', () => {
    const clock = new VirtualClock(0);
    const reports: ExecutionReport[] = [];
    const ex = new BacktestExchange({ clock, inst: contractInstrument(), queue: riskAverse, latency: constantLatency(0, 0), onReport: (r) => reports.push(r), keepFinished: 10 });
    for (let i = 0; i < 100; i++) ex.submit(limit(`x${i}`, 'BUY_OPEN', P, 1, { timeInForce: 'IOC' }));
    clock.advanceToSync(1);
    expect(ex.remembered).toBeLessThanOrEqual(20);
    ex.submit(limit('x0', 'BUY_OPEN', P, 1, { timeInForce: 'IOC' }));
    ex.submit(limit('x99', 'BUY_OPEN', P, 1, { timeInForce: 'IOC' }));
    clock.advanceToSync(2);
    expect(reports.slice(-3).map((r) => [r.clientOrderId, r.execType, r.code])).toEqual([['x0', 'NEW', 0], ['x0', 'EXPIRED', 0], ['x99', 'REJECTED', -1141]]);
  });
});

describe('own orders at one level', () => {
  it('queue behind each other, and a cancel moves the later one up', () => {
    const h = harness();
    h.at({ kind: 'depth', time: 0, side: 0, priceTicks: P, lots: 3 });
    h.ex.submit(limit('a', 'BUY_OPEN', P, 2));
    h.ex.submit(limit('b', 'BUY_OPEN', P, 1));
    h.clock.advanceToSync(1);
    expect(h.ex.openOrders().map((o) => o.ahead)).toEqual([3, 5]);
    // A recorded refresh of the level does not lose a's lots from b's size ahead.
    h.at({ kind: 'depth', time: 2, side: 0, priceTicks: P, lots: 3 });
    expect(h.ex.openOrders().map((o) => o.ahead)).toEqual([3, 5]);
    // A trade of 6: 3 ahead, then a's 2, then b's 1.
    h.at({ kind: 'trade', time: 2, priceTicks: P, lots: 6, takerSide: 1 });
    expect(h.fills().map((r) => [r.clientOrderId, r.lastLots])).toEqual([['a', 2], ['b', 1]]);
    const g = harness();
    g.at({ kind: 'depth', time: 0, side: 0, priceTicks: P, lots: 3 });
    g.ex.submit(limit('a', 'BUY_OPEN', P, 2));
    g.ex.submit(limit('b', 'BUY_OPEN', P, 1));
    g.clock.advanceToSync(1);
    g.ex.cancel('a');
    g.clock.advanceToSync(2);
    expect(g.ex.openOrders().map((o) => [o.clientOrderId, o.ahead])).toEqual([['b', 3]]);
  });
});

describe('determinism', () => {
  it('the same events, orders and latency seed give the same reports; another seed moves them', () => {
    const run = (seed: number) => {
      const h = harness({ queue: logQueue, latency: linkLatency({ base: 2, meanExtra: 5 }, { min: 1, max: 9 }, seed) });
      const rng = new Rng(99);
      for (let t = 0; t < 2000; t++) {
        const r = rng.next();
        if (r < 0.7) h.at({ kind: 'depth', time: t, side: r < 0.35 ? 0 : 1, priceTicks: r < 0.35 ? P - rng.int(0, 4) : P + 1 + rng.int(0, 4), lots: rng.int(0, 20) });
        else h.at({ kind: 'trade', time: t, priceTicks: r < 0.85 ? P : P + 1, lots: rng.int(1, 4), takerSide: r < 0.85 ? 1 : 0 });
        if (t % 50 === 0) h.ex.submit(limit(`q${t}`, t % 100 === 0 ? 'BUY_OPEN' : 'SELL_OPEN', t % 100 === 0 ? P : P + 1, 2));
        if (t % 50 === 25) h.ex.cancel(`q${t - 25}`);
      }
      h.clock.advanceToSync(3000);
      return h.reports;
    };
    const a = run(1);
    expect(a.filter((r) => r.execType === 'TRADE').length).toBeGreaterThan(5);
    expect(run(1)).toEqual(a);
    expect(run(2)).not.toEqual(a);
  });
});
