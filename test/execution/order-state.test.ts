import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/fixed.ts';
import { orderUpdateEvent, type OrderReport, type OrderUpdateEvent } from '../../src/model/index.ts';
import { applyOrderEvent, type LocalOrder } from '../../src/execution/order-state.ts';
import {
  applyReport, markCancelPending, markCanceledUnsent, markRejected, markUnknown, newOrder, rankOf, statusOf,
} from '../../src/execution/index.ts';

const base = newOrder({ clientOrderId: 'bh-r1-1', strategyId: 's', account: 'spot', symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', price: '0.01', origQty: '1' });
const rep = (status: OrderReport['status'], executedQty: string, time = 1): OrderReport => ({
  account: 'spot', symbol: 'ETHBTC', orderId: '100', clientOrderId: 'bh-r1-1', status, side: 'BUY', type: 'LIMIT',
  price: '0.01', origQty: '1', executedQty, avgPrice: executedQty === '0' ? '0' : '0.01', time,
});

describe('order state machine', () => {
  it('moves PENDING_NEW → NEW → PARTIALLY_FILLED → FILLED and takes the venue orderId', () => {
    const a = applyReport(base, rep('NEW', '0'));
    expect([statusOf(a), a.orderId, a.outcome]).toEqual(['NEW', '100', 'placed']);
    const b = applyReport(a, rep('PARTIALLY_FILLED', '0.4', 2));
    expect([statusOf(b), b.executedQty]).toEqual(['PARTIALLY_FILLED', '0.4']);
    const c = applyReport(b, rep('FILLED', '1', 3));
    expect([statusOf(c), c.executedQty]).toEqual(['FILLED', '1']);
  });

  it('ignores a stale report: FILLED never returns to PARTIALLY_FILLED and executedQty never shrinks', () => {
    const filled = applyReport(base, rep('FILLED', '1', 3));
    const late = applyReport(filled, rep('PARTIALLY_FILLED', '0.4', 2));
    expect(late).toBe(filled);
    const pf = applyReport(base, rep('PARTIALLY_FILLED', '0.7'));
    expect(applyReport(pf, rep('PARTIALLY_FILLED', '0.4')).executedQty).toBe('0.7');
  });

  it('a duplicate report changes nothing (same object back)', () => {
    const a = applyReport(base, rep('PARTIALLY_FILLED', '0.4'));
    expect(applyReport(a, rep('PARTIALLY_FILLED', '0.4'))).toBe(a);
  });

  it('a NEW report with a filled quantity counts as PARTIALLY_FILLED', () => {
    expect(statusOf(applyReport(base, rep('NEW', '0.2')))).toBe('PARTIALLY_FILLED');
  });

  it('PENDING_CANCEL shows while a cancel is asked, keeps fills counting, and ends with the venue’s terminal report', () => {
    const a = markCancelPending(applyReport(base, rep('NEW', '0')));
    expect(statusOf(a)).toBe('PENDING_CANCEL');
    const b = applyReport(a, rep('PARTIALLY_FILLED', '0.3'));
    expect([statusOf(b), b.executedQty]).toEqual(['PENDING_CANCEL', '0.3']);
    expect(statusOf(applyReport(b, rep('CANCELED', '0.3')))).toBe('CANCELED');
  });

  it('UNKNOWN is settled forward by a venue report, or as never placed', () => {
    const u = markUnknown(base, '504');
    expect([statusOf(u), u.outcome]).toEqual(['UNKNOWN', 'unknown']);
    expect(statusOf(applyReport(u, rep('NEW', '0')))).toBe('NEW');
    const gone = markRejected(u, 'not-placed', '-2013 x3');
    expect([statusOf(gone), gone.outcome]).toEqual(['REJECTED', 'not-placed']);
    // markUnknown never pulls back an order the venue already showed.
    const live = applyReport(base, rep('NEW', '0'));
    expect(markUnknown(live, 'late timeout')).toBe(live);
    expect(markRejected(live, 'rejected', 'late')).toBe(live);
  });

  it('a queued order cancelled before sending ends CANCELED, not placed; later cancels of a terminal order do nothing', () => {
    const c = markCanceledUnsent(base);
    expect([statusOf(c), c.outcome]).toEqual(['CANCELED', 'not-placed']);
    expect(markCancelPending(c)).toBe(c);
  });

  it('ranks grow along the documented path', () => {
    const path = ['PENDING_NEW', 'UNKNOWN', 'NEW', 'PARTIALLY_FILLED', 'REJECTED', 'CANCELED', 'FILLED'] as const;
    for (let i = 1; i < path.length; i++) expect(rankOf(path[i]!)).toBeGreaterThan(rankOf(path[i - 1]!));
  });
});

describe('a user-stream order event applied straight to the order (applyOrderEvent)', () => {
  // The report an event carries, its average price worked out here with decimal.js (cumulative quote / executed quantity).
  const reportOf = (ev: OrderUpdateEvent): OrderReport => ({
    account: ev.account, symbol: ev.symbol, orderId: ev.orderId, clientOrderId: ev.clientOrderId, status: ev.status, side: ev.side, type: ev.type,
    price: ev.price, origQty: ev.origQty, executedQty: ev.executedQty, time: ev.ts,
    avgPrice: new Decimal(ev.executedQty).gt(0) && new Decimal(ev.cumQuote).gt(0) ? new Decimal(ev.cumQuote).div(ev.executedQty).toFixed() : '0',
  });
  const ev = (status: OrderUpdateEvent['status'], executedQty: string, cumQuote: string, ts: number): OrderUpdateEvent => orderUpdateEvent({
    account: 'spot', symbol: 'ETHBTC', clientOrderId: 'bh-r1-1', orderId: '100', status, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '0.01',
    origQty: '1', executedQty, cumQuote, lastQty: '0', lastPrice: '0', tradeId: undefined, fee: '0', feeAsset: undefined, maker: false,
    createdTs: 1, closeOrder: undefined, leverage: undefined, ts, recvTs: ts,
  });
  // A stream with partial fills at prices that do not divide evenly, a duplicate, a tie on executedQty with another quote, and a cancel.
  const events = [
    ev('NEW', '0', '0', 1), ev('PARTIALLY_FILLED', '0.3', '0.00301', 2), ev('PARTIALLY_FILLED', '0.3', '0.00301', 2),
    ev('PARTIALLY_FILLED', '0.7', '0.00702', 3), ev('PARTIALLY_FILLED', '0.7', '0.00703', 4), ev('PENDING_CANCEL', '0.7', '0.00702', 5),
    ev('FILLED', '1', '0.01003', 6), ev('CANCELED', '0.7', '0.00702', 7),
  ];

  it('gives the order applyReport gives for the report the event carries, in every arrival order of the events (same object when nothing moved)', () => {
    let orders = 0;
    const walk = (o: LocalOrder, r: LocalOrder, rest: readonly OrderUpdateEvent[]): void => {
      if (rest.length === 0) {
        orders += 1;
        return;
      }
      // Every 2nd event first, as a venue may reorder them; enough orders to meet every pair of adjacent events both ways.
      for (let i = 0; i < rest.length; i += rest.length > 5 ? 2 : 1) {
        const e = rest[i]!;
        const byEvent = applyOrderEvent(o, e);
        const byReport = applyReport(r, reportOf(e));
        expect(byEvent).toEqual(byReport);
        expect(byEvent === o).toBe(byReport === r);
        walk(byEvent, byReport, [...rest.slice(0, i), ...rest.slice(i + 1)]);
      }
    };
    walk(base, base, events);
    expect(orders).toBeGreaterThan(100);
  });

  it('keeps the exact average of a fill that does not divide evenly, and the larger one on a tie', () => {
    const a = applyOrderEvent(base, events[3]!);
    const [low, high] = [new Decimal('0.00702').div('0.7').toFixed(), new Decimal('0.00703').div('0.7').toFixed()];
    expect(low).toMatch(/^0\.0100285714285714/);
    expect(a.avgPrice).toBe(low);
    expect(applyOrderEvent(a, events[4]!).avgPrice).toBe(high);
    expect(applyOrderEvent(applyOrderEvent(a, events[4]!), events[3]!).avgPrice).toBe(high);
  });
});
