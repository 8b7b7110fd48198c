// The link an order's versions share (it leads the order feed to the order's entry without a lookup): invisible in the order's JSON and comparisons, and the feed's answers are those of a lookup by id.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { OrderFeed } from '../../src/execution/order-feed.ts';
import { applyReport, newOrder, type LocalOrder } from '../../src/execution/order-state.ts';
import type { OrderReport, OrderView } from '../../src/model/index.ts';
import { instruments } from '../strategy/helpers.ts';

function placed(id: string): LocalOrder {
  return newOrder({ clientOrderId: id, strategyId: 's1', account: 'spot', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '11369', origQty: '0.01' });
}

function report(o: LocalOrder, orderId: string, status: OrderReport['status'], executedQty: string): OrderReport {
  return {
    account: 'spot', symbol: o.symbol, orderId, clientOrderId: o.clientOrderId, status, side: 'BUY', type: 'LIMIT', price: '11369', origQty: '0.01',
    executedQty, avgPrice: executedQty === '0' ? '0' : '11369', time: 1_700_000_000_000,
  };
}

describe('order link', () => {
  it('shows in no JSON of an order and makes two equal orders no less equal, also once the feed holds the order', () => {
    const feed = new OrderFeed(new VirtualClock(0), instruments());
    const base = placed('c1');
    const a = applyReport(base, report(base, '1', 'NEW', '0'));
    const b = applyReport(placed('c1'), report(base, '1', 'NEW', '0'));
    feed.onOrder(a);
    expect(a.link).toBe(base.link);
    expect(JSON.parse(JSON.stringify(a))).not.toHaveProperty('link');
    expect(JSON.parse(JSON.stringify(a))).toMatchObject({ clientOrderId: 'c1', orderId: '1', phase: 'NEW' });
    expect(a).toEqual(b);
  });

  it('an order whose entry left the history is taken as the feed took it by id: shown again from NEW, each change once', () => {
    const clock = new VirtualClock(0);
    const feed = new OrderFeed(clock, instruments(), { maxOrders: 1, maxAgeMs: 60_000 });
    const seen: string[] = [];
    feed.on({ order: (v: OrderView) => seen.push(`${v.clientOrderId}:${v.status}`) });
    const first = placed('c1');
    const c1 = applyReport(first, report(first, '1', 'CANCELED', '0'));
    feed.onOrder(applyReport(first, report(first, '1', 'NEW', '0')));
    feed.onOrder(c1);
    // Two more finished orders push c1 out of a history of one.
    for (const id of ['c2', 'c3']) {
      const o = placed(id);
      feed.onOrder(applyReport(o, report(o, id, 'CANCELED', '0')));
    }
    expect(feed.get('c1')).toBeUndefined();
    // The same order (same link) changes again: as by id, the feed knows it no more and shows it anew.
    feed.onOrder(applyReport(c1, report(c1, '1', 'FILLED', '0.01')));
    expect(seen).toEqual(['c1:NEW', 'c1:CANCELED', 'c2:NEW', 'c2:CANCELED', 'c3:NEW', 'c3:CANCELED', 'c1:NEW']);
    expect(feed.get('c1')?.status).toBe('NEW');
  });
});
