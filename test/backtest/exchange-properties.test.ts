// Properties of the backtest exchange over random recorded streams and order flows (seeded): fills add up, reports move forward and keep their order, takers never take more than the recording shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkLatency } from '../../src/backtest/exchange/latency.ts';
import { logQueue, powerQueue, riskAverse } from '../../src/backtest/exchange/queue.ts';
import type { ExecutionReport, RecordedEvent } from '../../src/backtest/exchange/types.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { ContractAccount } from '../../src/backtest/exchange/contract-account.ts';
import { SpotAccount } from '../../src/backtest/exchange/spot-account.ts';
import { contractInstrument, harness, limit, spotInstrument } from './fixtures.ts';

/** An ETHUSDT exchange settling through a spot account with `balances`, fees 0.02 % / 0.1 %. */
function spotWorld(balances: Record<string, string>) {
  const inst = spotInstrument();
  const clock = new VirtualClock(0);
  const acc = new SpotAccount({ clock, inst, balances, makerFee: '0.0002', takerFee: '0.001' });
  return { acc, h: harness({ clock, account: acc, inst }) };
}

const P = 800_000;

type Step =
  | { k: 'depth'; side: 0 | 1; off: number; lots: number }
  | { k: 'trade'; off: number; lots: number; taker: 0 | 1 }
  | { k: 'order'; side: 0 | 1; off: number; lots: number; tif: 'GTC' | 'IOC' | 'FOK' }
  | { k: 'cancel'; back: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('depth' as const), side: fc.constantFrom(0 as const, 1 as const), off: fc.integer({ min: 0, max: 5 }), lots: fc.integer({ min: 0, max: 12 }) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('trade' as const), off: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 1, max: 6 }), taker: fc.constantFrom(0 as const, 1 as const) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('order' as const), side: fc.constantFrom(0 as const, 1 as const), off: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 1, max: 8 }), tif: fc.constantFrom('GTC' as const, 'IOC' as const, 'FOK' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), back: fc.integer({ min: 0, max: 5 }) }) },
);

const TERMINAL = new Set(['FILLED', 'CANCELED', 'REJECTED']);

describe('exchange properties', () => {
  it('fills add up to executed quantity, reports never go back nor overtake, takers take at most what the recording shows', () => {
    let takerFills = 0;
    let makerFills = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 200 }), fc.constantFrom(riskAverse, logQueue, powerQueue(2)), fc.integer({ min: 0, max: 3 }), fc.boolean(), (steps, queue, seed, slowReports) => {
        // Random entry latency (orders and cancels overtake each other). With reports back at once, the
        // recording model below sees them in exchange order and checks what takers took.
        const h = harness({ queue, latency: linkLatency({ min: 0, max: 3 }, slowReports ? { min: 0, max: 4 } : 0, seed) });
        // What the recording shows per level (bids below P + 1, asks from P + 1), and what our takers took since it last changed.
        const recorded = [new Map<number, number>(), new Map<number, number>()];
        const taken = [new Map<number, number>(), new Map<number, number>()];
        const lots = new Map<string, number>();
        const ids: string[] = [];
        let t = 0;
        const check = (r: ExecutionReport): void => {
          expect(r.localTime).toBeGreaterThanOrEqual(lastLocal);
          lastLocal = r.localTime;
          if (r.execType === 'TRADE' && r.isMaker) makerFills++;
          if (r.execType !== 'TRADE' || r.isMaker || slowReports) return;
          takerFills++;
          // A taker buy takes asks, a sell bids: the order's side tells which.
          const side = lots.has(r.clientOrderId) && r.clientOrderId.startsWith('b') ? 1 : 0;
          const now = (taken[side]!.get(r.lastPriceTicks) ?? 0) + r.lastLots;
          taken[side]!.set(r.lastPriceTicks, now);
          expect(now).toBeLessThanOrEqual(recorded[side]!.get(r.lastPriceTicks) ?? 0);
        };
        let seen = 0;
        let lastLocal = -Infinity;
        const drain = (): void => {
          for (; seen < h.reports.length; seen++) check(h.reports[seen]!);
        };
        for (const s of steps) {
          t += 1;
          if (s.k === 'depth') {
            const price = s.side === 0 ? P - s.off : P + 1 + s.off;
            const ev: RecordedEvent = { kind: 'depth', time: t, side: s.side, priceTicks: price, lots: s.lots };
            h.at(ev);
            drain();
            recorded[s.side]!.set(price, s.lots);
            taken[s.side]!.delete(price);
          } else if (s.k === 'trade') {
            h.at({ kind: 'trade', time: t, priceTicks: P + s.off, lots: s.lots, takerSide: s.taker });
          } else if (s.k === 'order') {
            const id = `${s.side === 0 ? 'b' : 's'}${ids.length}`;
            ids.push(id);
            lots.set(id, s.lots);
            h.ex.submit(limit(id, s.side === 0 ? 'BUY_OPEN' : 'SELL_OPEN', P + s.off, s.lots, { timeInForce: s.tif }));
          } else if (ids.length > 0) {
            h.ex.cancel(ids[Math.max(0, ids.length - 1 - s.back)]!);
          }
          h.clock.advanceToSync(t);
          drain();
        }
        h.clock.advanceToSync(t + 100);
        drain();
        for (const id of ids) {
          const rs = h.reports.filter((r) => r.clientOrderId === id && r.execType !== 'CANCEL_REJECTED');
          expect(rs.length).toBeGreaterThan(0);
          expect(['NEW', 'REJECTED']).toContain(rs[0]!.execType);
          let exec = 0;
          let ended = false;
          for (const r of rs) {
            expect(ended, `${id}: a report after the end`).toBe(false);
            expect(r.executedLots).toBeGreaterThanOrEqual(exec);
            if (r.execType === 'TRADE') exec += r.lastLots;
            expect(r.executedLots).toBe(exec);
            expect(r.localTime).toBeGreaterThanOrEqual(r.exchTime);
            ended = TERMINAL.has(r.status);
          }
          expect(exec).toBeLessThanOrEqual(lots.get(id)!);
          if (rs.at(-1)!.status === 'FILLED') expect(exec).toBe(lots.get(id));
        }
      }),
      { numRuns: 300, seed: 20261124 },
    );
    // The runs exercised both paths.
    expect(takerFills).toBeGreaterThan(100);
    expect(makerFills).toBeGreaterThan(50);
    console.log(`exchange properties: ${takerFills} taker and ${makerFills} maker fills checked`);
  });
});

describe('spot account properties', () => {
  it('after any flow, cancelling what is open leaves nothing locked and no balance below zero', () => {
    const E = 300_000; // 3000.00
    const flow = fc.array(
      fc.oneof(
        fc.record({ k: fc.constant('depth' as const), side: fc.constantFrom(0 as const, 1 as const), off: fc.integer({ min: 0, max: 4 }), lots: fc.integer({ min: 0, max: 30_000 }) }),
        fc.record({ k: fc.constant('trade' as const), off: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 1, max: 20_000 }), taker: fc.constantFrom(0 as const, 1 as const) }),
        fc.record({ k: fc.constant('order' as const), buy: fc.boolean(), off: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 10, max: 20_000 }), tif: fc.constantFrom('GTC' as const, 'IOC' as const, 'FOK' as const), market: fc.boolean() }),
      ),
      { minLength: 10, maxLength: 120 },
    );
    let fills = 0;
    fc.assert(
      fc.property(flow, (steps) => {
        const { acc, h } = spotWorld({ USDT: '100000', ETH: '10' });
        const ids: string[] = [];
        let t = 0;
        for (const s of steps) {
          t++;
          if (s.k === 'depth') h.at({ kind: 'depth', time: t, side: s.side, priceTicks: s.side === 0 ? E - s.off : E + 1 + s.off, lots: s.lots });
          else if (s.k === 'trade') h.at({ kind: 'trade', time: t, priceTicks: E + s.off, lots: s.lots, takerSide: s.taker });
          else {
            const id = `o${ids.length}`;
            ids.push(id);
            if (s.market && s.buy) h.ex.submit({ clientOrderId: id, side: 'BUY', type: 'MARKET', priceTicks: 0, lots: 0, quoteBudget: s.lots * E });
            else h.ex.submit({ clientOrderId: id, side: s.buy ? 'BUY' : 'SELL', type: s.market ? 'MARKET' : 'LIMIT', timeInForce: s.tif, priceTicks: E + s.off, lots: s.lots });
            h.clock.advanceToSync(t);
          }
        }
        for (const id of ids) h.ex.cancel(id);
        h.clock.advanceToSync(t + 10);
        fills += h.fills().length;
        for (const asset of ['USDT', 'ETH']) {
          const b = acc.balance(asset);
          expect(b.locked, `${asset} locked`).toBe(0n);
          expect(b.free >= 0n, `${asset} free`).toBe(true);
        }
      }),
      { numRuns: 150, seed: 11 },
    );
    expect(fills).toBeGreaterThan(100);
  });
});

describe('contracts account properties', () => {
  it('after any flow, cancelling what is open leaves locked equal to the positions’ margin and every position fully available', () => {
    const flow = fc.array(
      fc.oneof(
        fc.record({ k: fc.constant('depth' as const), side: fc.constantFrom(0 as const, 1 as const), off: fc.integer({ min: 0, max: 4 }), lots: fc.integer({ min: 0, max: 3000 }) }),
        fc.record({ k: fc.constant('trade' as const), off: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 1, max: 2000 }), taker: fc.constantFrom(0 as const, 1 as const) }),
        fc.record({ k: fc.constant('order' as const), side: fc.constantFrom('BUY_OPEN' as const, 'SELL_OPEN' as const, 'BUY_CLOSE' as const, 'SELL_CLOSE' as const), off: fc.integer({ min: -3, max: 3 }), lots: fc.integer({ min: 1, max: 2000 }), tif: fc.constantFrom('GTC' as const, 'IOC' as const, 'FOK' as const) }),
        fc.record({ k: fc.constant('mark' as const), off: fc.integer({ min: -2000, max: 2000 }) }),
      ),
      { minLength: 10, maxLength: 120 },
    );
    let fills = 0;
    fc.assert(
      fc.property(flow, (steps) => {
        const inst = contractInstrument();
        const clock = new VirtualClock(0);
        const acc = new ContractAccount({ clock, inst, balance: '2', fees: { maker: '0.0002', taker: '0.00075' } });
        const h = harness({ clock, account: acc, inst });
        const ids: string[] = [];
        let t = 0;
        for (const s of steps) {
          t++;
          if (s.k === 'depth') h.at({ kind: 'depth', time: t, side: s.side, priceTicks: s.side === 0 ? P - s.off : P + 1 + s.off, lots: s.lots });
          else if (s.k === 'trade') h.at({ kind: 'trade', time: t, priceTicks: P + s.off, lots: s.lots, takerSide: s.taker });
          else if (s.k === 'mark') h.at({ kind: 'mark', time: t, price: inst.priceText(P + s.off * 100) });
          else {
            const id = `o${ids.length}`;
            ids.push(id);
            h.ex.submit(limit(id, s.side, P + s.off, s.lots, { timeInForce: s.tif, leverage: '20' }));
            h.clock.advanceToSync(t);
          }
        }
        for (const id of ids) h.ex.cancel(id);
        h.clock.advanceToSync(t + 10);
        fills += h.fills().length;
        const b = acc.ledger.balance(acc.accountId, 'TBTC');
        const positions = acc.positions.list(acc.accountId);
        expect(b.locked).toBe(positions.reduce((s, p) => s + p.margin, 0n));
        expect(b.free >= 0n).toBe(true);
        for (const p of positions) expect(p.available).toBe(p.position);
      }),
      { numRuns: 150, seed: 12 },
    );
    expect(fills).toBeGreaterThan(100);
  });
});
