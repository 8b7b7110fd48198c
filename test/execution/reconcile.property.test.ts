import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromUnits } from '../../src/core/fixed.ts';
import { instrumentsOf, parseBrokerInfo, type FillReport, type OrderReport } from '../../src/model/index.ts';
import {
  applyReport, EMPTY_ACCOUNT, EMPTY_FILL_LEDGER, foldFills, MAX_SEEN, mergeFills, newOrder, rankOf, reconcileOpenOrders, statusOf, type LocalOrder,
} from '../../src/execution/index.ts';
import { loadSample } from '../fixtures/samples.ts';

/** One order's report history as the venue would send it in order: NEW, fills, then a terminal report. */
const history = fc.record({
  fills: fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 5 }),
  end: fc.constantFrom('FILLED', 'CANCELED'),
}).map(({ fills, end }) => {
  const reports: OrderReport[] = [];
  const mk = (status: OrderReport['status'], lots: number, t: number): OrderReport => ({
    account: 'spot', symbol: 'ETHBTC', orderId: '7', clientOrderId: 'c1', status, side: 'BUY', type: 'LIMIT', price: '0.01',
    origQty: '100', executedQty: fromUnits(lots, '0.001'), avgPrice: lots === 0 ? '0' : '0.01', time: t,
  });
  reports.push(mk('NEW', 0, 1));
  let cum = 0;
  fills.forEach((n, i) => {
    cum += n;
    reports.push(mk('PARTIALLY_FILLED', cum, i + 2));
  });
  reports.push(mk(end === 'FILLED' ? 'FILLED' : 'CANCELED', end === 'FILLED' ? cum + 1 : cum, fills.length + 2));
  return reports;
});

/** Returns `xs` shuffled, with some duplicated and some dropped (never the one at `keep`), from fast-check's choices. */
const disorder = <T>(xs: readonly T[], keep: number) => fc.tuple(
  fc.array(fc.nat(), { minLength: xs.length, maxLength: xs.length }),
  fc.array(fc.nat({ max: 2 }), { minLength: xs.length, maxLength: xs.length }),
).map(([order, copies]) => {
  const out: { x: T; k: number }[] = [];
  xs.forEach((x, i) => {
    const n = i === keep ? Math.max(1, copies[i]!) : copies[i]!;
    for (let c = 0; c < n; c++) out.push({ x, k: order[i]! + c * 7919 });
  });
  return out.sort((a, b) => a.k - b.k).map((o) => o.x);
});

const fresh = (): LocalOrder => newOrder({ clientOrderId: 'c1', strategyId: 's', account: 'spot', symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', price: '0.01', origQty: '100' });

describe('order reports shuffled, duplicated and dropped', () => {
  it('end in the in-order state whenever the final report is present, and never move an order backwards', () => {
    fc.assert(fc.property(history.chain((h) => fc.tuple(fc.constant(h), disorder(h, h.length - 1))), ([inOrder, delivered]) => {
      const expected = inOrder.reduce(applyReport, fresh());
      let o = fresh();
      for (const r of delivered) {
        const next = applyReport(o, r);
        expect(rankOf(next.phase)).toBeGreaterThanOrEqual(rankOf(o.phase));
        expect(Number(next.executedQty) >= Number(o.executedQty)).toBe(true);
        o = next;
      }
      expect({ status: statusOf(o), executedQty: o.executedQty, avgPrice: o.avgPrice, orderId: o.orderId })
        .toEqual({ status: statusOf(expected), executedQty: expected.executedQty, avgPrice: expected.avgPrice, orderId: expected.orderId });
    }), { numRuns: 300 });
  });
});

const listing = fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 12 }).map((ids) => ids.map((n): OrderReport => ({
  account: 'spot', symbol: 'ETHBTC', orderId: String(1000 + n), clientOrderId: `c${n}`, status: n % 3 === 0 ? 'PARTIALLY_FILLED' : 'NEW',
  side: 'BUY', type: 'LIMIT', price: '0.01', origQty: '1', executedQty: n % 3 === 0 ? '0.5' : '0', avgPrice: n % 3 === 0 ? '0.01' : '0', time: n,
})));
const locals = fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 12 }).chain((ids) => fc.tuple(
  fc.constant(ids),
  fc.array(fc.constantFrom('NEW', 'UNKNOWN', 'PENDING_NEW', 'CANCELED', 'FILLED') , { minLength: ids.length, maxLength: ids.length }),
)).map(([ids, phases]) => new Map(ids.map((n, i) => {
  const o = newOrder({ clientOrderId: `c${n}`, strategyId: 's', account: 'spot', symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', price: '0.01', origQty: '1' });
  return [`c${n}`, { ...o, phase: phases[i]! }];
})));

describe('open-order reconciliation', () => {
  it('places every listed order exactly once, checks every unlisted working order, and ignores the listing’s order and duplicates', () => {
    fc.assert(fc.property(locals, listing, (local, venueOpen) => {
      const canon = reconcileOpenOrders({ local, venueOpen, policy: 'cancel' });
      const mixed = reconcileOpenOrders({ local, venueOpen: [...venueOpen].reverse().concat(venueOpen.slice(0, 2)), policy: 'cancel' });
      expect(mixed.cancel.map((r) => r.clientOrderId)).toEqual(canon.cancel.map((r) => r.clientOrderId));
      expect([...mixed.updated.keys()]).toEqual([...canon.updated.keys()]);
      expect(mixed.check.map((o) => o.clientOrderId)).toEqual(canon.check.map((o) => o.clientOrderId));
      for (const r of venueOpen) {
        const mine = local.get(r.clientOrderId);
        const cancelled = canon.cancel.some((c) => c.clientOrderId === r.clientOrderId);
        if (mine === undefined || ['CANCELED', 'FILLED'].includes(mine.phase)) expect(cancelled).toBe(true);
        else {
          expect(cancelled).toBe(false);
          const now = canon.updated.get(r.clientOrderId) ?? mine;
          expect(rankOf(now.phase)).toBeGreaterThanOrEqual(rankOf(mine.phase));
        }
      }
      const listed = new Set(venueOpen.map((r) => r.clientOrderId));
      const shouldCheck = [...local.values()].filter((o) => ['NEW', 'UNKNOWN'].includes(o.phase) && !listed.has(o.clientOrderId));
      expect(canon.check.map((o) => o.clientOrderId).sort()).toEqual(shouldCheck.map((o) => o.clientOrderId).sort());
      const adopt = reconcileOpenOrders({ local, venueOpen, policy: 'adopt' });
      expect(adopt.adopted.map((o) => o.clientOrderId).sort()).toEqual(venueOpen.filter((r) => !local.has(r.clientOrderId)).map((r) => r.clientOrderId).sort());
      expect(adopt.adopted.every((o) => o.adopted && o.orderId !== undefined)).toBe(true);
    }), { numRuns: 300 });
  });
});

const instruments = instrumentsOf(parseBrokerInfo(loadSample('contract-broker-info.official').payload));
const contractSymbol = [...instruments.values()].find((i) => i.kind === 'inverse')!.symbol;

const fills = fc.array(fc.record({
  id: fc.integer({ min: 1, max: 40 }),
  open: fc.boolean(),
  qty: fc.integer({ min: 1, max: 50 }),
  price: fc.integer({ min: 800000, max: 900000 }),
}), { maxLength: 25 }).map((xs) => {
  const byId = new Map<number, FillReport>();
  for (const x of xs) {
    byId.set(x.id, {
      account: 'contract', symbol: contractSymbol, tradeId: String(1000 + x.id), orderId: '1', side: x.open ? 'BUY_OPEN' : 'SELL_CLOSE',
      price: fromUnits(x.price, '0.01'), qty: String(x.qty), fee: '0.00000001', feeAsset: 'BTC', maker: false, time: x.id,
    });
  }
  return [...byId.values()];
});

describe('fill recovery by trade id', () => {
  it('counts each trade once and ends in the same ledger and account state whatever the batches, order and duplicates', () => {
    fc.assert(fc.property(fills.chain((f) => fc.tuple(fc.constant(f), disorder(f, -1), fc.nat({ max: 5 }))), ([all, delivered, cut]) => {
      // Delivered in two batches (the second repeating the first), then every report once more: all final reports present.
      const batches = [delivered.slice(0, cut), delivered, all];
      let ledger = EMPTY_FILL_LEDGER;
      const counted: FillReport[] = [];
      for (const b of batches) {
        const r = mergeFills(ledger, b);
        for (const f of r.fresh) expect(ledger.seen.has(`${f.account}:${f.tradeId}`)).toBe(false);
        ledger = r.ledger;
        counted.push(...r.fresh);
      }
      expect(counted.map((f) => f.tradeId).sort()).toEqual(all.map((f) => f.tradeId).sort());
      expect(new Set(counted.map((f) => f.tradeId)).size).toBe(counted.length);
      const inOrder = foldFills(EMPTY_ACCOUNT, [...all].sort((a, b) => Number(a.tradeId) - Number(b.tradeId)), instruments).state;
      const mixed = foldFills(EMPTY_ACCOUNT, [...delivered, ...counted.reverse()], instruments).state;
      expect(mixed).toEqual(inOrder);
    }), { numRuns: 200 });
  });

  it('stays within MAX_SEEN ids over a long run, keeps the newest, and counts none of them twice', () => {
    const f = (id: number): FillReport => ({ account: 'spot', symbol: 'BTCUSDT', tradeId: String(id), orderId: '1', side: 'BUY', price: '30000', qty: '1', fee: '0', feeAsset: 'BTC', maker: false, time: id });
    let ledger = EMPTY_FILL_LEDGER;
    let counted = 0;
    for (let id = 1; id <= 3 * MAX_SEEN; id += 10) {
      const batch = Array.from({ length: 10 }, (_, i) => f(id + i));
      const r = mergeFills(ledger, [...batch, ...batch]);
      counted += r.fresh.length;
      ledger = r.ledger;
      expect(ledger.seen.size).toBeLessThanOrEqual(MAX_SEEN);
      // Read again (the stream brought them, or a retried read): nothing new, the same ledger.
      expect(mergeFills(ledger, batch)).toEqual({ ledger, fresh: [] });
    }
    expect(counted).toBe(3 * MAX_SEEN);
    expect(ledger.seen.has(`spot:${3 * MAX_SEEN}`)).toBe(true);
    expect(ledger.lastId.spot).toBe(String(3 * MAX_SEEN));
  });

  it('counts the same fills into the same ledger when the caller hands its ledger over (added to in place) as when it is copied', () => {
    fc.assert(fc.property(fills.chain((f) => fc.tuple(disorder(f, -1), disorder(f, -1), fc.nat({ max: 5 }))), ([a, b, cut]) => {
      const batches = [a.slice(0, cut), b, a];
      let copied = EMPTY_FILL_LEDGER;
      let handed = EMPTY_FILL_LEDGER;
      for (const batch of batches) {
        const c = mergeFills(copied, batch);
        const h = mergeFills(handed, batch, handed !== EMPTY_FILL_LEDGER);
        expect(h.fresh).toEqual(c.fresh);
        copied = c.ledger;
        handed = h.ledger;
        expect([...handed.seen].sort()).toEqual([...copied.seen].sort());
        expect(handed.lastId).toEqual(copied.lastId);
      }
      expect(EMPTY_FILL_LEDGER.seen.size).toBe(0);
    }), { numRuns: 200 });
  });
});
