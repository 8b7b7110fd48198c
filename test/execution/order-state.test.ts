import { describe, expect, it } from 'vitest';
import type { OrderReport } from '../../src/model/index.ts';
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
