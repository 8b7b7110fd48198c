// A cancel or replace must name a working order of its strategy: an unknown id is refused (UNKNOWN_ORDER), a finished one is
// not replaced (ORDER_FINISHED), and a replacement waits for the cancel of the order it replaces, dropped when that order filled first.
// Real parts: the executor, its risk gate, the app's submit and order feed, and the strategy host; only the venue is scripted.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { feedSource, makeSubmit } from '../../src/app/submit.ts';
import { EventBus } from '../../src/bus/index.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { VenueError } from '../../src/core/errors.ts';
import { ClientOrderIds } from '../../src/core/ids.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { ExecutorBudget, OrderExecutor, Portfolio, type ExecutionEvent } from '../../src/execution/index.ts';
import type { OrderLocator, OrderReport, OrderRequest, OrderView, ReportOrderStatus } from '../../src/model/index.ts';
import { RiskGate } from '../../src/risk/index.ts';
import { defineStrategy, StrategyHost, type DenialNotice, type StrategyContext } from '../../src/strategy/index.ts';
import { AnsweringGateway } from '../fixtures/answering-gateway.ts';
import { EMPTY_PORTFOLIO, instruments } from '../strategy/helpers.ts';

/** Answers with `answer()` at once, or (`hold`) when the test releases `queue`; a throw rejects. */
function answerWhen<T>(hold: boolean, queue: (() => void)[], answer: () => T): Promise<T> {
  if (!hold) return new Promise((resolve) => resolve(answer()));
  return new Promise((resolve, reject) => queue.push(() => {
    try {
      resolve(answer());
    } catch (err) {
      reject(err as Error);
    }
  }));
}

/** A venue at the Gateway boundary whose answers the test decides: orders rest (or fill at once), a cancel answers when the test says; the rest as AnsweringGateway. */
class ScriptedGateway extends AnsweringGateway {
  readonly calls: string[] = [];
  /** The venue's status of each order. */
  readonly status = new Map<string, ReportOrderStatus>();
  private readonly reqs = new Map<string, OrderRequest>();
  /** Cancels waiting for `answerCancel`. */
  private readonly pending: (() => void)[] = [];
  /** Whether cancels wait for `answerCancels` (otherwise they answer at once). */
  holdCancels = false;
  /** Placements waiting for `answerPlaces`, and whether new ones wait. */
  private readonly placing: (() => void)[] = [];
  holdPlaces = false;
  /** Placements the venue refuses (-2010). */
  readonly refuse = new Set<string>();

  constructor(private readonly clockNow: () => number) {
    super({ status: 'NEW', now: clockNow });
  }

  private report(id: string): OrderReport {
    const req = this.reqs.get(id)!;
    const status = this.status.get(id)!;
    return {
      account: req.account, symbol: req.symbol, orderId: id.slice(id.lastIndexOf('-') + 1), clientOrderId: id, status, side: req.side, type: 'LIMIT',
      price: req.price ?? '0', origQty: req.quantity, executedQty: status === 'FILLED' ? req.quantity : '0', avgPrice: status === 'FILLED' ? req.price ?? '0' : '0',
      time: this.clockNow(),
    };
  }

  override place(req: OrderRequest): Promise<OrderReport> {
    this.calls.push(`place ${req.clientOrderId}`);
    const answer = (): OrderReport => {
      if (this.refuse.has(req.clientOrderId)) throw new VenueError('VENUE_REJECTED', -2010, 'Account has insufficient balance.', 'definite', 400);
      this.reqs.set(req.clientOrderId, req);
      this.status.set(req.clientOrderId, 'NEW');
      return this.report(req.clientOrderId);
    };
    return answerWhen(this.holdPlaces, this.placing, answer);
  }

  /** Answers the placements sent so far. */
  answerPlaces(): void {
    for (const f of this.placing.splice(0)) f();
  }

  /** Cancels a resting order; a filled or cancelled one is -2013, as the venue answers. */
  override cancel(ref: OrderLocator): Promise<OrderReport> {
    const id = ref.clientOrderId!;
    this.calls.push(`cancel ${id}`);
    const answer = (): OrderReport => {
      if (this.status.get(id) !== 'NEW') throw new VenueError('VENUE_REJECTED', -2013, 'Order does not exist.', 'definite', 400);
      this.status.set(id, 'CANCELED');
      return this.report(id);
    };
    return answerWhen(this.holdCancels, this.pending, answer);
  }

  /** Answers the cancels sent so far. */
  answerCancels(): void {
    for (const f of this.pending.splice(0)) f();
  }

  override getOrder(ref: OrderLocator): Promise<OrderReport> {
    this.calls.push(`getOrder ${ref.clientOrderId ?? ''}`);
    return Promise.resolve(this.report(ref.clientOrderId!));
  }
}

interface Seen {
  readonly ctx: StrategyContext<unknown>;
  readonly denied: DenialNotice[];
  readonly orders: OrderView[];
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** Starts the executor (two calls in flight at once: a replacement could go beside its cancel) and a host with strategies `mm` and `other`. */
async function rig() {
  const clock = new VirtualClock(1_700_000_000_000);
  const inst = instruments();
  const bus = new EventBus({ clock, logger: silentLogger() });
  const gateway = new ScriptedGateway(() => clock.now());
  const ex = new OrderExecutor({
    gateway, bus, clock, portfolio: new Portfolio(inst), instruments: inst, gate: new RiskGate({ instruments: inst, config: { rounding: 'deny' } }),
    ids: new ClientOrderIds('bh', 'x1'), reconcile: { everyMs: 0 }, budget: new ExecutorBudget([]), maxInFlight: 2,
  });
  const events: ExecutionEvent[] = [];
  ex.on((e) => events.push(e));
  await ex.start();
  const host = new StrategyHost({
    bus, clock, log: silentLogger(), instruments: inst, runTag: 'x1', submit: makeSubmit(ex), portfolio: () => EMPTY_PORTFOLIO, orders: feedSource(ex),
  });
  const seen = new Map<string, Seen>();
  for (const id of ['mm', 'other']) {
    host.add({ id, symbols: ['BTCUSDT'], params: {}, definition: defineStrategy({
      manifest: { name: 'probe', apiVersion: '1.0', params: z.strictObject({}) },
      create: (ctx) => {
        const s: Seen = { ctx, denied: [], orders: [] };
        seen.set(id, s);
        return { onDenied: (n) => { s.denied.push(n); }, onOrder: (v) => { s.orders.push(v); } };
      },
    }) });
  }
  await host.start();
  stop = async () => {
    await host.stop();
    ex.stop();
    bus.close();
  };
  /** Lets every queued call and delivery run. */
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) {
      await ex.idle();
      await clock.advance(0);
    }
  };
  /** Lets what can run now run, without waiting for the calls a test holds. */
  const flush = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await clock.advance(0);
  };
  return { clock, gateway, ex, events, mm: seen.get('mm')!, other: seen.get('other')!, settle, flush };
}

const BID = { symbol: 'BTCUSDT', side: 'BUY', price: '11369', quantity: '0.01' } as const;
const BID2 = { ...BID, price: '11370' } as const;

describe('replace of an order that is not working', { timeout: 10_000 }, () => {
  it('an id never placed: refused with UNKNOWN_ORDER on the id replace returned, and nothing is sent', async () => {
    const { gateway, mm, settle } = await rig();
    const id = mm.ctx.orders.replace('mm-x1-99', BID2);
    await settle();
    expect(mm.denied).toHaveLength(1);
    expect(mm.denied[0]).toMatchObject({ code: 'UNKNOWN_ORDER', text: 'UNKNOWN_ORDER: clientOrderId=mm-x1-99 strategy=mm', clientOrderId: id });
    expect(gateway.calls.filter((c) => c.startsWith('place') || c.startsWith('cancel'))).toEqual([]);
  });

  it('a filled order: refused with ORDER_FINISHED naming it and its status, and no second order is sent', async () => {
    const { gateway, ex, mm, settle } = await rig();
    const a = mm.ctx.orders.place(BID);
    await settle();
    // The venue's fill reaches the bot (here by a query, as after a reconnect).
    gateway.status.set(a, 'FILLED');
    await ex.reconcile();
    await settle();
    expect(ex.order(a)?.phase).toBe('FILLED');
    const before = gateway.calls.length;
    const b = mm.ctx.orders.replace(a, BID2);
    await settle();
    expect(mm.denied.map((n) => [n.code, n.text, n.clientOrderId])).toEqual([['ORDER_FINISHED', `ORDER_FINISHED: clientOrderId=${a} status=FILLED`, b]]);
    expect(gateway.calls.slice(before)).toEqual([]);
    expect(ex.order(b)).toBeUndefined();
  });

  it('a cancelled order: refused with ORDER_FINISHED status=CANCELED', async () => {
    const { gateway, ex, mm, settle } = await rig();
    const a = mm.ctx.orders.place(BID);
    await settle();
    mm.ctx.orders.cancel('BTCUSDT', a);
    await settle();
    expect(ex.order(a)?.phase).toBe('CANCELED');
    const b = mm.ctx.orders.replace(a, BID2);
    await settle();
    expect(mm.denied.map((n) => [n.code, n.text, n.clientOrderId])).toEqual([['ORDER_FINISHED', `ORDER_FINISHED: clientOrderId=${a} status=CANCELED`, b]]);
    expect(gateway.calls).not.toContain(`place ${b}`);
  });

  it('another strategy\'s order is still NOT_OWNER', async () => {
    const { gateway, other, mm, settle } = await rig();
    const theirs = other.ctx.orders.place(BID);
    await settle();
    const b = mm.ctx.orders.replace(theirs, BID2);
    await settle();
    expect(mm.denied.map((n) => [n.code, n.text, n.clientOrderId])).toEqual([['NOT_OWNER', `NOT_OWNER: clientOrderId=${theirs} strategy=mm`, b]]);
    expect(gateway.calls).not.toContain(`place ${b}`);
    expect(gateway.calls).not.toContain(`cancel ${theirs}`);
  });
});

describe('cancel of an order that is not working', { timeout: 10_000 }, () => {
  it('an id never placed: refused with UNKNOWN_ORDER naming it; its own finished order stays a silent no-op', async () => {
    const { gateway, ex, mm, settle } = await rig();
    mm.ctx.orders.cancel('BTCUSDT', 'mm-x1-42');
    await settle();
    expect(mm.denied.map((n) => [n.code, n.text, n.clientOrderId])).toEqual([['UNKNOWN_ORDER', 'UNKNOWN_ORDER: clientOrderId=mm-x1-42 strategy=mm', 'mm-x1-42']]);
    expect(gateway.calls.filter((c) => c.startsWith('cancel'))).toEqual([]);

    const a = mm.ctx.orders.place(BID);
    await settle();
    mm.ctx.orders.cancel('BTCUSDT', a);
    await settle();
    expect(ex.order(a)?.phase).toBe('CANCELED');
    const calls = gateway.calls.length;
    mm.ctx.orders.cancel('BTCUSDT', a);
    await settle();
    expect(mm.denied).toHaveLength(1);
    expect(gateway.calls.slice(calls)).toEqual([]);
  });
});

describe('replace racing a fill the bot has not heard of', { timeout: 10_000 }, () => {
  it('the replacement waits for the cancel\'s answer and is sent once the old order is cancelled', async () => {
    const { gateway, ex, mm, settle, flush } = await rig();
    const a = mm.ctx.orders.place(BID);
    await settle();
    gateway.holdCancels = true;
    const b = mm.ctx.orders.replace(a, BID2);
    await flush();
    // Two calls may be in flight, yet only the cancel went: the replacement waits for its outcome.
    expect(gateway.calls.slice(-1)).toEqual([`cancel ${a}`]);
    expect(ex.order(b)?.phase).toBe('PENDING_NEW');
    gateway.answerCancels();
    await settle();
    expect(gateway.calls.slice(-2)).toEqual([`cancel ${a}`, `place ${b}`]);
    expect(ex.order(a)?.phase).toBe('CANCELED');
    expect(ex.order(b)?.phase).toBe('NEW');
    expect(mm.denied).toEqual([]);
  });

  it('the old order filled before the cancel reached it: the cancel answers -2013, the read-back says FILLED, and the replacement is never sent', async () => {
    const { gateway, ex, events, mm, settle, flush } = await rig();
    const a = mm.ctx.orders.place(BID);
    await settle();
    gateway.holdCancels = true;
    const b = mm.ctx.orders.replace(a, BID2);
    await flush();
    expect(gateway.calls.slice(-1)).toEqual([`cancel ${a}`]);
    gateway.status.set(a, 'FILLED'); // filled at the venue; the bot has not heard yet
    gateway.answerCancels();
    await settle();
    expect(ex.order(a)?.phase).toBe('FILLED');
    expect(gateway.calls).toContain(`getOrder ${a}`);
    expect(gateway.calls).not.toContain(`place ${b}`);
    expect(ex.order(b)).toMatchObject({ phase: 'REJECTED', outcome: 'not-placed', reason: `ORDER_FINISHED: clientOrderId=${a} status=FILLED` });
    expect(events.filter((e) => e.type === 'denied')).toEqual([
      { type: 'denied', clientOrderId: b, strategyId: 'mm', denial: { code: 'ORDER_FINISHED', values: { clientOrderId: a, status: 'FILLED' } }, text: `ORDER_FINISHED: clientOrderId=${a} status=FILLED` },
    ]);
    // The strategy hears of it as its replacement's end (a denial after the call returned does not reach onDenied).
    expect(mm.orders.filter((v) => v.clientOrderId === b).map((v) => [v.status, v.outcome, v.reason])).toEqual([
      ['REJECTED', 'not-placed', `ORDER_FINISHED: clientOrderId=${a} status=FILLED`],
    ]);
    expect(ex.queued()).toBe(0);
  });

  it('a replacement of a replacement still waiting waits for the first order too: nothing is sent when that one filled', async () => {
    const { gateway, ex, mm, settle, flush } = await rig();
    const a = mm.ctx.orders.place(BID);
    await settle();
    gateway.holdCancels = true;
    const b = mm.ctx.orders.replace(a, BID2);
    const c = mm.ctx.orders.replace(b, { ...BID, price: '11371' });
    await flush();
    expect(ex.order(b)).toMatchObject({ phase: 'CANCELED', outcome: 'not-placed' });
    expect(gateway.calls.slice(-1)).toEqual([`cancel ${a}`]);
    gateway.status.set(a, 'FILLED');
    gateway.answerCancels();
    await settle();
    expect(gateway.calls.filter((x) => x.startsWith('place')).slice(-1)).toEqual([`place ${a}`]);
    expect(ex.order(c)).toMatchObject({ phase: 'REJECTED', outcome: 'not-placed', reason: `ORDER_FINISHED: clientOrderId=${a} status=FILLED` });
    expect(ex.queued()).toBe(0);
  });

  it('the old order was rejected by the venue (it never rested): the replacement is sent', async () => {
    const { gateway, ex, mm, settle, flush } = await rig();
    gateway.holdPlaces = true;
    const a = mm.ctx.orders.place(BID);
    await flush();
    gateway.refuse.add(a);
    const b = mm.ctx.orders.replace(a, BID2);
    await flush();
    expect(gateway.calls.slice(-1)).toEqual([`place ${a}`]);
    gateway.holdPlaces = false;
    gateway.answerPlaces();
    await settle();
    expect(ex.order(a)?.phase).toBe('REJECTED');
    expect(gateway.calls.slice(-1)).toEqual([`place ${b}`]);
    expect(ex.order(b)?.phase).toBe('NEW');
    expect(mm.denied).toEqual([]);
  });
});
