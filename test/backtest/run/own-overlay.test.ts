// The book a strategy reads in a backtest carries its own resting orders, as a live venue's depth does; an order still on its way is not in it.
import { describe, expect, it } from 'vitest';
import { withOwnOrders } from '../../../src/backtest/run/own-overlay.ts';
import { constantLatency } from '../../../src/backtest/exchange/latency.ts';
import { depthSnapshotEvent, type BusEvent, type DepthSnapshotEvent } from '../../../src/model/index.ts';
import { contractInstrument, harness, limit } from '../fixtures.ts';

describe('withOwnOrders', () => {
  it('adds resting own lots at their levels (a new level in price order), leaves other events and in-flight orders alone', () => {
    const inst = contractInstrument();
    const { clock, ex, at } = harness({ inst, latency: constantLatency(10, 0) });
    at({ kind: 'depth', time: 0, side: 0, priceTicks: 3_000_000, lots: 5 });
    at({ kind: 'depth', time: 0, side: 1, priceTicks: 3_000_010, lots: 7 });
    ex.submit(limit('a', 'BUY_OPEN', 3_000_000, 2));
    ex.submit(limit('b', 'SELL_OPEN', 3_000_005, 3));
    const seen: BusEvent[] = [];
    const publish = withOwnOrders((ev) => seen.push(ev), [{ inst, exchange: ex }]);
    const snap = (): DepthSnapshotEvent => depthSnapshotEvent({
      symbol: inst.symbol, version: '1', bids: [[inst.priceText(3_000_000), inst.qtyText(5)]], asks: [[inst.priceText(3_000_010), inst.qtyText(7)]], ts: clock.now(), recvTs: clock.now(),
    });
    // Still on their way (10 ms entry latency): the book is as recorded.
    publish(snap());
    expect(seen[0]).toEqual(snap());
    clock.advanceToSync(10);
    publish(snap());
    const shown = seen[1] as DepthSnapshotEvent;
    expect(shown.bids).toEqual([[inst.priceText(3_000_000), inst.qtyText(7)]]);
    expect(shown.asks).toEqual([[inst.priceText(3_000_005), inst.qtyText(3)], [inst.priceText(3_000_010), inst.qtyText(7)]]);
    // Another symbol's book and other kinds of events pass untouched.
    const other = { ...snap(), symbol: 'OTHER' };
    publish(other);
    expect(seen[2]).toBe(other);
    // A cancelled order leaves the book shown.
    ex.cancel('b');
    clock.advanceToSync(20);
    publish(snap());
    expect((seen[3] as DepthSnapshotEvent).asks).toEqual([[inst.priceText(3_000_010), inst.qtyText(7)]]);
  });
});
