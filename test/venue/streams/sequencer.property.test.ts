// Property tests of the user stream's report filter: shuffled, duplicated and delayed reports of several orders, none held back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, fromUnits } from '../../../src/core/fixed.ts';
import { orderUpdateEvent, type OrderUpdateEvent, type ReportOrderStatus } from '../../../src/model/events.ts';
import { parseExecutionReport } from '../../../src/model/userstream.ts';
import { ReportSequencer, statusRank, type SequencedEvent } from '../../../src/venue/report-sequencer.ts';
import { normaliseUserEvent } from '../../../src/venue/user-normalise.ts';
import { loadSample } from '../../fixtures/samples.ts';

const T0 = 1_499_405_658_658;

/** The published executionReport (a NEW of 1 ETHBTC) as the stream client turns it into a bus event: every report below is a variation of it. */
const published = (() => {
  const out = normaliseUserEvent(parseExecutionReport(loadSample('ws-user-execution-report.official').payload), T0);
  if ('skipped' in out || out[0]?.kind !== 'order') throw new Error('the published executionReport must normalise to an order event');
  return out[0];
})();

/** Returns the published report moved to another order, status, cumulative quantity and E. */
function report(order: number, status: ReportOrderStatus, lots: number, ts: number): OrderUpdateEvent {
  const executedQty = fromUnits(lots, '0.001');
  return orderUpdateEvent({
    ...published, orderId: String(4293153 + order), clientOrderId: `c${order}`, status, executedQty,
    cumQuote: fromUnits(lots * 102644, '0.00000001'), ts, recvTs: ts,
  });
}

/** One order's reports as the venue sends them, E never decreasing: NEW, fills, then FILLED, or an optional PENDING_CANCEL and CANCELED. */
const history = (order: number, start: number) => fc.record({
  fills: fc.array(fc.integer({ min: 1, max: 100 }), { maxLength: 5 }),
  end: fc.constantFrom<'FILLED' | 'CANCELED' | 'PENDING_CANCEL'>('FILLED', 'CANCELED', 'PENDING_CANCEL'),
  gaps: fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 8, maxLength: 8 }),
}).map(({ fills, end, gaps }) => {
  let ts = start;
  let g = 0;
  const next = (): number => (ts += gaps[g++]!);
  const out = [report(order, 'NEW', 0, next())];
  let cum = 0;
  for (const n of fills) out.push(report(order, 'PARTIALLY_FILLED', (cum += n), next()));
  if (end === 'FILLED') out.push(report(order, 'FILLED', cum + 1, next()));
  else {
    if (end === 'PENDING_CANCEL') out.push(report(order, 'PENDING_CANCEL', cum, next()));
    out.push(report(order, 'CANCELED', cum, next()));
  }
  return out;
});

/** Several orders whose lives overlap in time. */
const orders = fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 5 })
  .chain((starts) => fc.tuple(...starts.map((s, i) => history(i, T0 + s))));

interface Delivery {
  readonly ev: OrderUpdateEvent;
  readonly at: number;
  readonly copy: number;
}

/** Returns each report delivered 1–3 times, each copy `delay(i)` ms after its E, in arrival order. */
const deliveries = (all: readonly OrderUpdateEvent[], maxDelay: number) => fc.tuple(
  fc.array(fc.integer({ min: 1, max: 3 }), { minLength: all.length, maxLength: all.length }),
  fc.array(fc.integer({ min: 0, max: maxDelay }), { minLength: 3 * all.length, maxLength: 3 * all.length }),
  fc.array(fc.nat(), { minLength: 3 * all.length, maxLength: 3 * all.length }),
).map(([copies, delays, ties]) => {
  const out: (Delivery & { tie: number })[] = [];
  all.forEach((ev, i) => {
    for (let c = 0; c < copies[i]!; c++) out.push({ ev, at: ev.ts + delays[3 * i + c]!, copy: c, tie: ties[3 * i + c]! });
  });
  return out.sort((a, b) => a.at - b.at || a.tie - b.tie);
});

/** Feeds the deliveries into a filter in arrival order; returns what left it, checking each leaves during its own push (nothing is held). */
function run(list: readonly Delivery[]): { out: OrderUpdateEvent[]; seq: ReportSequencer } {
  const out: OrderUpdateEvent[] = [];
  const seq = new ReportSequencer((ev) => {
    const e = ev as SequencedEvent;
    if (e.kind === 'order') out.push(e);
  });
  for (const d of list) {
    const before = seq.stats();
    seq.push(d.ev);
    const after = seq.stats();
    const handled = after.released + after.droppedBackwards + after.droppedDuplicates - before.released - before.droppedBackwards - before.droppedDuplicates;
    expect(handled).toBe(1);
    expect(after.held).toBe(0);
  }
  return { out, seq };
}

/** Returns the released reports grouped by order. */
function byOrder(out: readonly OrderUpdateEvent[]): Map<string, OrderUpdateEvent[]> {
  const m = new Map<string, OrderUpdateEvent[]>();
  for (const e of out) m.set(e.orderId, [...(m.get(e.orderId) ?? []), e]);
  return m;
}

/** Asserts that no order's status rank falls and no cumulative quantity shrinks, and that no report leaves twice. */
function expectMonotone(out: readonly OrderUpdateEvent[]): void {
  for (const list of byOrder(out).values()) {
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(statusRank(b.status)).toBeGreaterThanOrEqual(statusRank(a.status));
      expect(compareDecimal(b.executedQty, a.executedQty)).toBeGreaterThanOrEqual(0);
      expect(b.status === a.status && b.executedQty === a.executedQty).toBe(false);
    }
  }
}

describe('report sequencer: shuffled, duplicated and delayed reports of several orders', () => {
  it('in order with duplicates: every order leaves exactly as delivered, duplicates dropped', () => {
    // Arrival in E order (a stable sort keeps each order's own sequence), each report 1–3 times in a row.
    const inOrder = orders.chain((hs) => fc.tuple(fc.constant(hs), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: hs.flat().length, maxLength: hs.flat().length }))
      .map(([h, copies]) => [h, [...h.flat()].sort((a, b) => a.ts - b.ts).flatMap((ev, i) => Array.from({ length: copies[i]! }, (_, c) => ({ ev, at: ev.ts, copy: c })))] as const));
    fc.assert(fc.property(inOrder, ([hs, list]) => {
      const { out, seq } = run(list);
      expectMonotone(out);
      const got = byOrder(out);
      for (const h of hs) expect(got.get(h[0]!.orderId)).toEqual(h);
      const extra = list.filter((d) => d.copy > 0).length;
      expect(seq.stats()).toEqual({ released: hs.flat().length, droppedDuplicates: extra, droppedBackwards: 0, held: 0, orders: hs.length });
    }), { numRuns: 300 });
  });

  it('a late report never moves an order backwards, and each order still ends in its in-order state', () => {
    // Delays up to 2 s: many reports come after a later one of their order has left.
    const late = orders.chain((hs) => fc.tuple(fc.constant(hs), deliveries(hs.flat(), 2_000)));
    fc.assert(fc.property(late, ([hs, list]) => {
      const { out } = run(list);
      expectMonotone(out);
      const got = byOrder(out);
      for (const h of hs) {
        const last = got.get(h[0]!.orderId)!.at(-1)!;
        expect(last).toEqual(h.at(-1));
      }
    }), { numRuns: 300 });
  });

  it('one stale report delivered long after its order finished is dropped as backwards', () => {
    fc.assert(fc.property(orders, fc.nat(), fc.nat(), (hs, pickOrder, pickReport) => {
      const h = hs[pickOrder % hs.length]!;
      const stale = h[pickReport % (h.length - 1)]!;
      const inOrder = hs.flat().map((ev) => ({ ev, at: ev.ts, copy: 0 })).sort((a, b) => a.at - b.at);
      const end = Math.max(...hs.flat().map((e) => e.ts));
      const { out, seq } = run([...inOrder, { ev: stale, at: end + 750, copy: 1 }]);
      expectMonotone(out);
      expect(out.length).toBe(hs.flat().length);
      expect(seq.stats()).toMatchObject({ droppedBackwards: 1, droppedDuplicates: 0 });
    }), { numRuns: 200 });
  });
});

describe('report sequencer: bounded memory of finished orders', () => {
  it('keeps refusing repeats of the newest 10,000 finished orders and forgets older ones, over 25,000 orders', () => {
    const out: OrderUpdateEvent[] = [];
    const seq = new ReportSequencer((ev) => {
      if (ev.kind === 'order') out.push(ev);
    });
    const filled = (i: number): OrderUpdateEvent => report(i, 'FILLED', 1, T0 + i);
    for (let i = 0; i < 25_000; i++) seq.push(filled(i));
    expect(out.length).toBe(25_000);
    // Every repeat of a remembered order is a duplicate; a report of an order seen for the first time (or forgotten) passes.
    for (let i = 15_000; i < 25_000; i++) seq.push(filled(i));
    expect(seq.stats()).toMatchObject({ released: 25_000, droppedDuplicates: 10_000 });
    for (let i = 25_000; i < 25_010; i++) seq.push(report(i, 'NEW', 0, T0 + i));
    for (let i = 0; i < 10; i++) seq.push(filled(i));
    expect(seq.stats()).toMatchObject({ released: 25_020, droppedDuplicates: 10_000 });
    // A repeat of an order still working is refused too.
    for (let i = 25_000; i < 25_010; i++) seq.push(report(i, 'NEW', 0, T0 + i));
    expect(seq.stats()).toMatchObject({ released: 25_020, droppedDuplicates: 10_010 });
  });
});

describe('report sequencer: bounded memory of working orders', () => {
  it('remembers at most 100,000 orders when reports of orders that never finish keep coming, forgetting the first noted', () => {
    const seq = new ReportSequencer(() => undefined);
    const n = 100_000;
    for (let i = 0; i < n + 5_000; i++) seq.push(report(i, 'NEW', 0, T0 + i));
    expect(seq.stats()).toMatchObject({ released: n + 5_000, orders: n });
    // A repeat of a remembered working order is still refused; one of a forgotten order passes as new.
    seq.push(report(n + 4_999, 'NEW', 0, T0));
    seq.push(report(0, 'NEW', 0, T0));
    expect(seq.stats()).toMatchObject({ released: n + 5_001, droppedDuplicates: 1, orders: n });
  });
});
