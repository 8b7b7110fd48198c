// The parts of a parity check on their own: the bot's resting size by level from its reports, each order's recorded latency, the fill matching with its causes, strategy timers on the live run's ticks, and when the live bot could have read what the venue sent in a stall.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compare, type ParityFill, type ParityOrder } from '../../../src/app/parity/compare.ts';
import { parityLines } from '../../../src/app/parity/report.ts';
import type { ParityResult } from '../../../src/app/parity/run.ts';
import { laggedClock } from '../../../src/app/parity/lagged-clock.ts';
import { orderKey, ordersAfterTradesOfTheirMs, parityLatency, streamDelay } from '../../../src/app/parity/latency.ts';
import { GridClock } from '../../../src/app/parity/grid-clock.ts';
import { Stalls } from '../../../src/app/parity/stalls.ts';
import { aheadGone } from '../../../src/app/parity/queue-evidence.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import { ownChanges, removeOwnOrders } from '../../../src/app/parity/own-book.ts';
import { arrivalsFromBook } from '../../../src/app/parity/refusals.ts';
import { frameLine } from '../../../src/data/capture/line-format.ts';
import { orderUpdateEvent, type OrderUpdateEvent } from '../../../src/model/index.ts';
import { testDir } from '../../fixtures/temp-dir.ts';

const T0 = 1_700_000_000_000;

function report(over: Partial<OrderUpdateEvent>): OrderUpdateEvent {
  return orderUpdateEvent({
    account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'mm-r-1', orderId: '1', status: 'NEW', side: 'BUY', type: 'LIMIT_MAKER', timeInForce: 'GTC',
    price: '30000.10', origQty: '0.002', executedQty: '0', cumQuote: '0', lastQty: '0', lastPrice: '0', tradeId: undefined, fee: '0', feeAsset: undefined,
    maker: false, createdTs: T0, closeOrder: undefined, leverage: undefined, ts: T0, recvTs: T0, ...over,
  });
}

describe('ownChanges', () => {
  it('follows each resting order from placement through partial fill to its end, once, and never counts an IOC order', () => {
    const changes = ownChanges([
      report({ ts: T0 }),
      report({ ts: T0 + 5, status: 'PARTIALLY_FILLED', executedQty: '0.0005', lastQty: '0.0005' }),
      report({ orderId: '2', clientOrderId: 'mm-r-2', side: 'SELL', price: '30001', ts: T0 + 6 }),
      report({ ts: T0 + 9, status: 'FILLED', executedQty: '0.002', lastQty: '0.0015' }),
      // A late duplicate of the first report changes nothing: the order is over.
      report({ ts: T0 + 12 }),
      report({ orderId: '3', clientOrderId: 'mm-r-3', timeInForce: 'IOC', type: 'LIMIT', ts: T0 + 13 }),
      report({ orderId: '2', clientOrderId: 'mm-r-2', side: 'SELL', price: '30001', status: 'CANCELED', ts: T0 + 20 }),
    ]);
    expect(changes.map((c) => [c.time - T0, c.key, c.delta.toFixed()])).toEqual([
      [0, 'BTCUSDT|b|30000.1', '0.002'],
      [5, 'BTCUSDT|b|30000.1', '-0.0005'],
      [6, 'BTCUSDT|a|30001', '0.002'],
      [9, 'BTCUSDT|b|30000.1', '-0.0015'],
      [20, 'BTCUSDT|a|30001', '-0.002'],
    ]);
  });
});

describe('removeOwnOrders', () => {
  it('takes the bot\'s own taker fills out of the recorded trades (the backtest makes them itself), and keeps others\' trades, its maker fills\' among them', async () => {
    const dir = testDir('bh-own-');
    mkdirSync(join(dir, 'rec'));
    const trade = (v: string, p: string): Record<string, unknown> => ({ v, t: T0, p, q: '0.002', m: false });
    const frame = { symbol: 'BTCUSDT', topic: 'trade', params: { binary: false }, data: [trade('7', '30000.1'), trade('8', '30000.2'), trade('9', '30000.3')], f: false };
    writeFileSync(join(dir, 'rec', 'market-20231114T221320Z-0000.cap.gz'), gzipSync(frameLine(BigInt(T0) * 1_000_000n, JSON.stringify(frame))));
    const reports = [
      report({ status: 'FILLED', executedQty: '0.002', lastQty: '0.002', lastPrice: '30000.2', tradeId: '8', maker: false, timeInForce: 'IOC', type: 'LIMIT' }),
      report({ orderId: '2', clientOrderId: 'mm-r-2', status: 'FILLED', executedQty: '0.002', lastQty: '0.002', lastPrice: '30000.3', tradeId: '9', maker: true }),
    ];
    const stats = await removeOwnOrders(join(dir, 'rec'), join(dir, 'pub'), reports, []);
    const out = gunzipSync(readFileSync(join(dir, 'pub', 'market-public.jsonl.gz'))).toString('utf8').trim().split('\n');
    const kept = (JSON.parse(out[0]!.slice(out[0]!.indexOf(' ') + 1)) as { data: { v: string }[] }).data.map((t) => t.v);
    expect(kept).toEqual(['7', '9']);
    expect(stats.tradesRemoved).toBe(1);
  });
});

describe('parityLatency', () => {
  const trips = [{ request: 100, exchange: 103, response: 110 }, { request: 200, exchange: 240, response: 245 }];
  const byOrder = new Map([
    ['mm-live-1', { place: { request: 100, exchange: 103, response: 110 }, cancel: { request: 300, exchange: 330, response: 331 } }],
    ['mm-live-2', { place: { request: 400, exchange: undefined, response: 480 } }],
  ]);
  it('brings each order and cancel to the exchange when its live twin reached the venue, or after the twin\'s latency when sent at another time', () => {
    const m = parityLatency(trips, byOrder);
    // Sent 2 ms before the live twin (sent at 100, at the venue at 103): the same decision, arriving at 103.
    expect(m.entry(98, { clientOrderId: 'mm-bt-1', op: 'place' })).toBe(5);
    // Sent 400 ms later: another decision, the twin's own 3 ms.
    expect(m.entry(500, { clientOrderId: 'mm-bt-1', op: 'place' })).toBe(3);
    expect(m.entry(310, { clientOrderId: 'mm-bt-1', op: 'cancel' })).toBe(20);
    // Refused live (no venue stamp) and no recorded crossing known: it arrives when its answer left the venue, 480.
    expect(m.entry(400, { clientOrderId: 'mm-bt-2', op: 'place' })).toBe(80);
    expect(m.entry(1_000, { clientOrderId: 'mm-bt-2', op: 'place' })).toBe(80);
    // With the recorded book's crossing at 450 (arrivalsFromBook): right after it.
    const crossed = parityLatency(trips, byOrder, [], new Set(), new Map(), new Map([['mm-live-2', 451]]));
    expect(crossed.entry(400, { clientOrderId: 'mm-bt-2', op: 'place' })).toBe(51);
    // No twin: the latest trip sent at or before the time.
    expect(m.entry(250, { clientOrderId: 'mm-bt-9', op: 'place' })).toBe(40);
    expect(m.entry(150)).toBe(3);
    expect(m.response(241)).toBe(5);
  });

  it('brings an order after the recorded trades of its millisecond that came before it live: lower ids than its fills, or through its price without filling it', () => {
    const placed = [
      { clientOrderId: 't-l-1', ms: 1_000, buy: true, price: '30' }, { clientOrderId: 't-l-2', ms: 2_000, buy: true, price: '30' },
      { clientOrderId: 't-l-3', ms: 3_000, buy: false, price: '105' }, { clientOrderId: 't-l-4', ms: 4_000, buy: false, price: '105' },
      { clientOrderId: 't-l-5', ms: 5_000, buy: true, price: '100' },
    ];
    const fills = [
      { clientOrderId: 't-l-1', tradeId: '10', maker: false, ts: 1_000 }, { clientOrderId: 't-l-1', tradeId: '11', maker: false, ts: 1_000 },
      { clientOrderId: 't-l-2', tradeId: '20', maker: false, ts: 2_000 },
      // A resting sell filled in its own millisecond: the buy that filled it came after it.
      { clientOrderId: 't-l-4', tradeId: '41', maker: true, ts: 4_000 },
      // Order reports without a trade are no fills.
      { clientOrderId: 't-l-3', tradeId: undefined, maker: false, ts: 3_000 },
    ];
    const trade = (tradeId: string, ts: number, price: string, takerSide: 'BUY' | 'SELL') => ({ tradeId, ts, price, takerSide });
    const trades = [
      // Another's trade numbered 9 came before order 1's fills; 21 came after order 2's.
      trade('9', 1_000, '29', 'BUY'), trade('21', 2_000, '29', 'BUY'),
      // A buy at 106 went through the resting sell at 105 placed in its millisecond and did not fill it: it came first.
      trade('31', 3_000, '106', 'BUY'), trade('40', 4_000, '106', 'BUY'),
      // A buy at 101 does not reach a resting buy at 100.
      trade('50', 5_000, '101', 'BUY'), trade('8', 999, '29', 'BUY'),
    ];
    expect([...ordersAfterTradesOfTheirMs(placed, fills, trades)].sort()).toEqual(['t-l-1', 't-l-3']);
    const m = parityLatency(trips, byOrder, [], new Set(['mm-live-1']));
    // The twin reached the venue at 103, after that millisecond's other trades: the backtest order arrives at 104; its cancel as before.
    expect(m.entry(98, { clientOrderId: 'mm-bt-1', op: 'place' })).toBe(6);
    expect(m.entry(310, { clientOrderId: 'mm-bt-1', op: 'cancel' })).toBe(20);
  });

  it('takes for twin the live order of the same side, price and size sent with it, where the sequences drifted apart by an order', () => {
    const live = new Map([
      ['x-l-1', { place: { request: 1_000, exchange: 1_002, response: 1_003 } }],
      ['x-l-2', { place: { request: 1_000, exchange: 1_040, response: 1_041 }, cancel: { request: 1_500, exchange: 1_540, response: 1_541 } }],
    ]);
    const keys = new Map([['x-l-1', orderKey(true, 100, 1)], ['x-l-2', orderKey(false, 105, 1)]]);
    const m = parityLatency(trips, live, [], new Set(), keys);
    const req = (clientOrderId: string, side: 'BUY' | 'SELL', priceTicks: number) => ({ clientOrderId, side, type: 'LIMIT' as const, priceTicks, lots: 1 });
    // The backtest's first order is the live second (the sell at 105): it arrives when that one did, and its cancel as that one's did.
    expect(m.entry(1_001, { clientOrderId: 'x-b-1', op: 'place', request: req('x-b-1', 'SELL', 105) })).toBe(39);
    expect(m.entry(1_002, { clientOrderId: 'x-b-2', op: 'place', request: req('x-b-2', 'BUY', 100) })).toBe(0);
    expect(m.entry(1_500, { clientOrderId: 'x-b-1', op: 'cancel' })).toBe(40);
    // Each live order is one backtest order's twin: another sell at 105 goes by its place in the sequence (x-l-1's 2 ms).
    expect(m.entry(1_001, { clientOrderId: 'y-b-1', op: 'place', request: req('y-b-1', 'SELL', 105) })).toBe(1);
  });

  it('brings reports back after the user stream\'s recorded delay at that venue time', () => {
    const m = parityLatency(trips, byOrder, [{ ts: 100, recvTs: 104 }, { ts: 200, recvTs: 230 }, { ts: 300, recvTs: 299 }]);
    expect(m.response(150)).toBe(4);
    expect(m.response(260)).toBe(30);
    // A report received before its venue stamp (another clock) is left out.
    expect(m.response(400)).toBe(30);
  });
});

describe('arrivalsFromBook', () => {
  it('brings a refused post-only order right after the recorded book that crossed it, by a window after its answer', () => {
    const orders = [
      { clientOrderId: 'r-1', buy: true, price: '100', request: 1_000, response: 1_040 },
      { clientOrderId: 'r-2', buy: false, price: '105', request: 2_000, response: 2_005 },
      { clientOrderId: 'r-3', buy: true, price: '90', request: 3_000, response: 3_001 },
    ];
    const tops = [
      { t: 990, bid: '99', ask: '101' }, { t: 1_020, bid: '99', ask: '101' },
      // The ask falls to the buy's price in the diff cut after its answer: that is what refused it.
      { t: 1_050, bid: '98', ask: '100' },
      // The book already crossed the sell when it was sent.
      { t: 1_990, bid: '106', ask: '107' }, { t: 2_010, bid: '104', ask: '107' },
      // A crossing long after the answer is another move.
      { t: 3_200, bid: '88', ask: '89' },
    ];
    expect([...arrivalsFromBook(orders, tops)]).toEqual([['r-1', 1_051], ['r-2', 2_000]]);
  });
});

describe('compare', () => {
  const order = (id: string, time: number, side: string, price: string): ParityOrder => ({ time, clientOrderId: id, side, type: 'LIMIT_MAKER', timeInForce: 'GTC', price, qty: '0.002' });
  const fill = (id: string, time: number, side: string, price: string, maker = true, qty = '0.002'): ParityFill => ({ time, clientOrderId: id, side, price, qty, fee: '0', feeAsset: 'USDT', maker });

  it('takes a market-priced contract order for the same order in both runs (no price sent live, "0" in the backtest) and names its fills by the side the strategy sent', () => {
    const mkt = (id: string, side: string, price: string | undefined): ParityOrder => ({ time: 0, clientOrderId: id, side, type: 'STOP', timeInForce: 'IOC', price, qty: '100' });
    const c = compare({
      live: {
        orders: [mkt('b-l-1', 'SELL_OPEN', undefined), mkt('b-l-2', 'BUY_CLOSE', undefined)],
        fills: [fill('b-l-1', 100, 'SELL', '29999', false, '100'), fill('b-l-2', 900, 'BUY', '30013.4', false, '100')],
      },
      backtest: {
        orders: [mkt('b-b-1', 'SELL_OPEN', '0'), mkt('b-b-2', 'BUY_CLOSE', '0')],
        fills: [fill('b-b-1', 104, 'SELL_OPEN', '29999', false, '100'), fill('b-b-2', 905, 'BUY_CLOSE', '30013.4', false, '100')],
      },
      base: 'BTC', money: 'USDT', kind: 'linear', multiplier: '0.0001', mark: '30000',
    });
    expect(c.matched.map((m) => [m.live.clientOrderId, m.backtest.clientOrderId, m.sameOrder, m.live.side, m.backtest.side])).toEqual([
      ['b-l-1', 'b-b-1', true, 'SELL_OPEN', 'SELL_OPEN'],
      ['b-l-2', 'b-b-2', true, 'BUY_CLOSE', 'BUY_CLOSE'],
    ]);
    expect(c.orders.map((o) => [o.live?.price, o.backtest?.price])).toEqual([[undefined, undefined], [undefined, undefined]]);
    expect(c.live.pnl).toBe(c.backtest.pnl);
  });

  it('matches the same order first, then the same price from a shifted order; gives every other fill a cause; counts PnL exactly', () => {
    const c = compare({
      live: {
        orders: [order('m-l-1', 0, 'BUY', '100'), order('m-l-2', 10, 'SELL', '101'), order('m-l-3', 20, 'SELL', '102'), order('m-l-4', 30, 'BUY', '99')],
        fills: [fill('m-l-1', 100, 'BUY', '100'), fill('m-l-2', 200, 'SELL', '101'), fill('m-l-3', 5_000, 'SELL', '102'), fill('m-l-4', 6_000, 'BUY', '99')],
      },
      backtest: {
        orders: [order('m-b-1', 0, 'BUY', '100'), order('m-b-2', 5, 'BUY', '100.5'), order('m-b-3', 10, 'SELL', '101'), order('m-b-4', 20, 'SELL', '102')],
        fills: [fill('m-b-1', 150, 'BUY', '100'), fill('m-b-3', 700, 'SELL', '101'), fill('m-b-2', 3_000, 'BUY', '100.5')],
      },
      base: 'BTC', money: 'USDT', mark: '100',
    });
    expect(c.matched.map((m) => [m.live.clientOrderId, m.backtest.clientOrderId, m.sameOrder, m.timeDiffMs])).toEqual([
      ['m-l-1', 'm-b-1', true, 50],
      ['m-l-2', 'm-b-3', false, 500],
    ]);
    expect(c.unmatched.map((u) => [u.run, u.fill.clientOrderId, u.cause])).toEqual([
      // The backtest's own extra order: live placed another one in its place.
      ['backtest', 'm-b-2', 'diverged'],
      // A maker fill whose twin (same place, side and price) rested without a fill.
      ['live', 'm-l-3', 'queue'],
      ['live', 'm-l-4', 'diverged'],
    ]);
    expect(c.causes).toEqual({ queue: 1, latency: 0, 'own-impact': 0, diverged: 2 });
    expect(c.matchedPct).toBe(50);
    // Live: bought 0.002 at 100 and 99, sold 0.002 at 101 and 102: cash 0.008, flat. Backtest: bought at 100 and 100.5
    // (−0.401), sold at 101 (+0.202), 0.002 left marked at 100 (+0.2): 0.001.
    expect(c.live.pnl).toBe('0.008');
    expect(c.backtest.pnl).toBe('0.001');
    expect(c.pnlDiff).toBe('0.007');
    expect(c.pnlDiffPct).toBe(87.5);
    // The same difference against the 0.804 USDT live traded: 87.06 bp.
    expect(c.live.turnover).toBe('0.804');
    expect(c.pnlDiffBp).toBeCloseTo(87.06, 2);
  });

  it('gives a maker fill whose twin was not in the book yet, or no longer, to latency', () => {
    const c = compare({
      live: { orders: [order('q-l-1', 0, 'BUY', '100'), order('q-l-2', 100, 'BUY', '99')], fills: [fill('q-l-1', 50, 'BUY', '100'), fill('q-l-2', 500, 'BUY', '99')] },
      backtest: { orders: [order('q-b-1', 60, 'BUY', '100'), { ...order('q-b-2', 100, 'BUY', '99'), cancelledAt: 450 }], fills: [] },
      base: 'BTC', money: 'USDT', mark: '100',
    });
    expect(c.unmatched.map((u) => [u.fill.clientOrderId, u.cause])).toEqual([['q-l-1', 'latency'], ['q-l-2', 'latency']]);
    expect(c.unmatched[0]!.detail).toContain('reached the venue 10 ms after it');
    expect(c.unmatched[1]!.detail).toContain('cancelled 50 ms before it');
  });

  it('tells a taker fill the book had moved (latency) from one into a book its own previous fill had changed (own impact)', () => {
    const c = compare({
      live: {
        orders: [order('t-l-1', 0, 'BUY', '105'), order('t-l-2', 300, 'BUY', '105')].map((o) => ({ ...o, timeInForce: 'IOC' })),
        fills: [fill('t-l-1', 10, 'BUY', '100', false), fill('t-l-2', 310, 'BUY', '101', false)],
      },
      backtest: {
        orders: [order('t-b-1', 0, 'BUY', '105'), order('t-b-2', 300, 'BUY', '105')].map((o) => ({ ...o, timeInForce: 'IOC' })),
        fills: [fill('t-b-1', 1_200, 'BUY', '100', false), fill('t-b-2', 315, 'BUY', '101', false, '0.001')],
      },
      base: 'BTC', money: 'USDT', mark: '100',
    });
    expect(c.matched).toHaveLength(0);
    expect(c.unmatched.map((u) => [u.run, u.fill.clientOrderId, u.cause])).toEqual([
      ['live', 't-l-1', 'latency'],
      ['live', 't-l-2', 'own-impact'],
      ['backtest', 't-b-2', 'latency'],
      ['backtest', 't-b-1', 'own-impact'],
    ]);
  });
});

describe('laggedClock', () => {
  it('ticks a strategy interval on its live twin\'s grid, each tick as late as it fired live, dropping ticks a stall skipped', async () => {
    const clock = new VirtualClock(10_000);
    // The live run: a venue interval of 100 ms made long before, the strategy's made 3 ms before the strategies were seen started.
    const lagged = laggedClock(clock, [
      { start: 1_000, period: 100, late: [] },
      { start: 9_997, period: 100, late: [[2, 30], [3, 150]] },
    ], 10_000);
    const fired: number[] = [];
    const h = lagged.setInterval(() => fired.push(clock.now()), 100);
    // Another period has no twin: a plain interval of the clock.
    const other: number[] = [];
    lagged.setInterval(() => other.push(clock.now()), 250);
    await clock.advance(600);
    h.cancel();
    await clock.advance(300);
    // Grid 10 097, 10 197 (+30), 10 297 (+150: fires at 10 447, so the tick due at 10 397 is dropped), then 10 497 and 10 597.
    expect(fired).toEqual([10_097, 10_227, 10_447, 10_497, 10_597]);
    expect(other).toEqual([10_250, 10_500, 10_750]);
  });

  it('pairs a strategy interval with the one the live strategy made, not with the bot\'s own interval of the same period made just before', async () => {
    const clock = new VirtualClock(10_000);
    // The bot's 1 s interval made 335 ms before the strategies started; the strategy's own made 15 ms after (marked in the recording).
    const lagged = laggedClock(clock, [
      { start: 9_665, period: 1_000, late: [] },
      { start: 10_015, period: 1_000, late: [[1, 4]], strategy: true },
    ], 10_000);
    const fired: number[] = [];
    lagged.setInterval(() => fired.push(clock.now()), 1_000);
    await clock.advance(2_100);
    expect(fired).toEqual([11_019, 12_015]);
  });
});

describe('Stalls', () => {
  // A strategy tick due at 1 000 that fired at 1 016, one due at 2 000 that fired at 2 003; a venue interval's late tick does not count.
  const intervals = [
    { start: 900, period: 100, late: [[1, 16], [11, 3]] as [number, number][], strategy: true as const },
    { start: 0, period: 50, late: [[20, 40]] as [number, number][] },
  ];
  const stalls = Stalls.of(intervals, 900);

  it('holds what the venue sent while a strategy tick was overdue until that tick fired, unless a witness read it well before', () => {
    // Sent at 1 007 within the tick's stall and read at 1 015.6 (the recorder's clock, within a ms of the tick's): after the tick.
    expect(stalls.end(1_007, 1_015)).toBe(1_016);
    // Read 10 ms before the tick fired: the loop read its sockets, the bot saw it before.
    expect(stalls.end(1_007, 1_006)).toBeUndefined();
    // Sent before the tick was due, or after it fired: as recorded.
    expect(stalls.end(999, 1_016)).toBeUndefined();
    expect(stalls.end(1_017, 1_017)).toBeUndefined();
    // The venue interval's late tick (due 1 000, fired 1 040) is no strategy's.
    expect(stalls.end(1_030, 1_040)).toBeUndefined();
  });

  it('takes a recording without marked intervals to have the strategies\' made as they started', () => {
    const unmarked = Stalls.of([{ start: 900, period: 100, late: [[1, 16]] }, { start: 0, period: 50, late: [[20, 40]] }], 900);
    expect(unmarked.end(1_007, 1_016)).toBe(1_016);
    expect(unmarked.end(1_030, 1_040)).toBeUndefined();
  });

  it('holds the backtest\'s reports only in stalls in which the user stream brought a live report after the tick', () => {
    const witnessed = stalls.witnessedBy([{ ts: 1_010, recvTs: 1_017 }, { ts: 2_001, recvTs: 2_001 }]);
    expect(witnessed.end(1_005)).toBe(1_016);
    // The report of 2 001 was read before the tick of 2 003 fired: that stall did not hold the stream.
    expect(witnessed.end(2_002)).toBeUndefined();
    // The user stream stamps on the timers' clock: read a millisecond before the tick fired is read before it.
    expect(stalls.witnessedBy([{ ts: 1_010, recvTs: 1_015 }]).end(1_005)).toBeUndefined();
  });
});

describe('streamDelay', () => {
  it('brings a report made after a stall of the user stream ended with the stream\'s delay then, not the stall\'s', () => {
    const delay = streamDelay([{ ts: 1_000, recvTs: 1_001 }, { ts: 1_239, recvTs: 1_344 }, { ts: 1_376, recvTs: 1_377 }]);
    // Made at 1 370, after the report of 1 239 that waited 105 ms was read at 1 344: 1 ms, as the stream's next report had.
    expect(delay(1_370)).toBe(1);
    // Made at 1 300, during that stall: not before the report made before it was read.
    expect(delay(1_300)).toBe(44);
    // Before any report and after the last: the nearest one's delay.
    expect(delay(900)).toBe(1);
    expect(delay(2_000)).toBe(1);
  });
});

describe('removeOwnOrders receive times', () => {
  it('moves a frame stamped before the venue sent it to the venue\'s time, and holds one sent in a stall until the tick fired', async () => {
    const dir = testDir('bh-own-');
    mkdirSync(join(dir, 'rec'));
    const diff = (t: number, v: string): string => JSON.stringify({ symbol: 'BTCUSDT', topic: 'diffDepth', params: { binary: false }, data: [{ e: 0, t, s: 'BTCUSDT', v, b: [['30000.1', '0.5']], a: [] }], f: false });
    const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;
    writeFileSync(join(dir, 'rec', 'market-20231114T221320Z-0000.cap.gz'), gzipSync(
      // Read 23 ms before it was sent (the recorder's clock behind); read as sent; sent at T0 + 50 in a stall that ended at T0 + 56.
      frameLine(ns(T0 + 10) - 23_000_000n, diff(T0 + 10, '1_1')) + frameLine(ns(T0 + 20) + 300_000n, diff(T0 + 20, '2_1')) + frameLine(ns(T0 + 55) + 700_000n, diff(T0 + 50, '3_1')),
    ));
    const stats = await removeOwnOrders(join(dir, 'rec'), join(dir, 'pub'), [], [], (t, recv) => (t >= T0 + 45 && t <= T0 + 56 && recv >= T0 + 55 ? T0 + 56 : undefined));
    const times = gunzipSync(readFileSync(join(dir, 'pub', 'market-public.jsonl.gz'))).toString('utf8').trim().split('\n').map((l) => BigInt(l.slice(0, l.indexOf(' '))));
    expect(times).toEqual([ns(T0 + 10), ns(T0 + 20) + 300_000n, ns(T0 + 56)]);
    expect([stats.early, stats.held]).toEqual([1, 1]);
  });
});

describe('GridClock.forStrategies', () => {
  it('marks the intervals the strategies make, not the others', () => {
    const clock = new GridClock();
    const a = clock.setInterval(() => undefined, 50);
    const b = clock.forStrategies().setInterval(() => undefined, 100);
    a.cancel();
    b.cancel();
    expect(clock.intervals.map((i) => [i.period, i.strategy === true])).toEqual([[50, false], [100, true]]);
  });
});

describe('Stalls.readBefore', () => {
  it('names the tick a message was read before within the millisecond the tick fired, when sent before the tick was due', () => {
    // Ticks due at 1 000 (fired 1 001) and 1 100 (on time).
    const stalls = Stalls.of([{ start: 900, period: 100, late: [[1, 1]], strategy: true }], 900);
    expect(stalls.readBefore(999, 1_001.3)).toBe(1_001);
    expect(stalls.readBefore(1_098, 1_100.2)).toBe(1_100);
    // Sent once the tick was due (a stall: stalls.end holds it), read in another millisecond, or read before the tick was due.
    expect(stalls.readBefore(1_000, 1_001.3)).toBeUndefined();
    expect(stalls.readBefore(999, 1_002.1)).toBeUndefined();
    expect(stalls.readBefore(1_098, 1_099.9)).toBeUndefined();
  });
});

describe('aheadGone', () => {
  const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;
  const diff = (t: number, v: string, qty: string): string => JSON.stringify({ symbol: 'BTCUSDT', topic: 'diffDepth', params: { binary: false }, data: [{ e: 0, t, s: 'BTCUSDT', v, b: [], a: [['30000.1', qty]] }], f: false });
  const trade = (t: number, v: string): string => JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', params: { binary: false }, data: [{ v, t, p: '30000.1', q: '0.002', m: false }], f: false });
  const quote = [
    report({ side: 'SELL', price: '30000.1', ts: T0 + 5 }),
    report({ side: 'SELL', price: '30000.1', status: 'FILLED', executedQty: '0.002', lastQty: '0.002', lastPrice: '30000.1', tradeId: '50', maker: true, ts: T0 + 100 }),
  ];
  const run = async (firstQty: string): Promise<{ times: bigint[]; frames: string[]; moved: number }> => {
    const dir = testDir('bh-queue-');
    mkdirSync(join(dir, 'rec'));
    writeFileSync(join(dir, 'rec', 'market-20231114T221320Z-0000.cap.gz'), gzipSync(
      frameLine(ns(T0), diff(T0, '1_1', firstQty)) + frameLine(ns(T0 + 10), diff(T0 + 10, '2_1', '0.007')) + frameLine(ns(T0 + 100), trade(T0 + 100, '50')) + frameLine(ns(T0 + 101), diff(T0 + 101, '3_1', '0')),
    ));
    const moved = await aheadGone(join(dir, 'rec'), quote, ownChanges(quote));
    const stats = await removeOwnOrders(join(dir, 'rec'), join(dir, 'pub'), quote, [], undefined, moved);
    const lines = gunzipSync(readFileSync(join(dir, 'pub', 'market-public.jsonl.gz'))).toString('utf8').trim().split('\n');
    return { times: lines.map((l) => BigInt(l.slice(0, l.indexOf(' ')))), frames: lines.map((l) => l.slice(l.indexOf(' ') + 1)), moved: stats.queueEvidence };
  };

  it('replays a trade that filled the bot\'s quote after the diff that shows the others ahead of it gone, at its time', async () => {
    // Others had 0.005 there when the quote came (ahead of it); the trade filled the quote all the same: they had left.
    const r = await run('0.005');
    expect(r.moved).toBe(1);
    expect(r.frames.map((f) => (JSON.parse(f) as { topic: string }).topic)).toEqual(['diffDepth', 'diffDepth', 'diffDepth', 'trade']);
    expect((JSON.parse(r.frames[3]!) as { data: { t: number; v: string }[] }).data[0]).toMatchObject({ v: '50', t: T0 + 101 });
    expect(r.times[3]! > r.times[2]!).toBe(true);
  });

  it('leaves the trade where it was when the others came after the quote (behind it in the queue)', async () => {
    const r = await run('0');
    expect(r.moved).toBe(0);
    expect(r.frames.map((f) => (JSON.parse(f) as { topic: string }).topic)).toEqual(['diffDepth', 'diffDepth', 'trade', 'diffDepth']);
  });
});

describe('parityLines of an inverse contract', () => {
  it('counts its own size in contracts and shows its USD volume as the whole number it is, not with the margin asset\'s 8 decimals', () => {
    const fill = (clientOrderId: string, side: string, price: string, qty: string): ParityFill => ({ time: T0, clientOrderId, side, price, qty, fee: '0.0000002', feeAsset: 'BTC', maker: false });
    const order = (clientOrderId: string, side: string): ParityOrder => ({ time: T0, clientOrderId, side, type: 'LIMIT', timeInForce: 'IOC', price: '30000', qty: '10' });
    const run = (prefix: string) => ({ orders: [order(`${prefix}-1`, 'BUY'), order(`${prefix}-2`, 'SELL')], fills: [fill(`${prefix}-1`, 'BUY', '30000', '10'), fill(`${prefix}-2`, 'SELL', '30010', '10')] });
    const comparison = compare({ live: run('t-l'), backtest: run('t-bt'), base: 'BTC', money: 'BTC', kind: 'inverse', multiplier: '1', mark: '30005' });
    const p = {
      symbol: 'BTC-PERP-REV', durationMs: 60_000, comparison, mark: '30005', base: 'BTC', quote: 'BTC',
      units: { volume: 'USDT', position: 'contracts', volumeDecimals: 0 },
      latency: { trips: 2, meanEntryMs: 1, meanResponseMs: 1 },
      ownRemoval: { levelsAdjusted: 3, levelsClamped: 0, removedQty: '7', lines: 10, tradesRemoved: 2, held: 1, early: 0, queueEvidence: 1, before: 0 },
    } as unknown as ParityResult;
    const lines = parityLines(p, 8);
    expect(lines[3]).toBe('  receive times: 1 message held past a late strategy tick, 0 read just before one, 0 stamped before they were sent; 1 trade replayed after the diff that showed the others ahead of the quote gone');
    expect(lines[2]).toBe('  own orders out of the recorded book: 3 levels lowered (0 clamped at zero), 7 contracts in all; 2 own taker trades out of the recorded trades');
    expect(lines.find((l) => l.includes('volume'))).toBe(`  ${'volume (USDT)'.padEnd(22)}${'20'.padStart(18)}${'20'.padStart(18)}`);
    expect(lines.find((l) => l.includes('fees'))).toBe(`  ${'fees (BTC)'.padEnd(22)}${'0.00000040'.padStart(18)}${'0.00000040'.padStart(18)}`);
  });
});
