/** Executor test rig: the simulated venue's real server on 127.0.0.1 port 0, our REST client and RestGateway, a bus, a gate, a portfolio and the executor, all on one virtual clock. */
import { request } from 'undici';
import { EventBus } from '../../src/bus/index.ts';
import type { Clock, TimerHandle, VirtualClock } from '../../src/core/clock.ts';
import { ClientOrderIds } from '../../src/core/ids.ts';
import { silentLogger } from '../../src/core/logger.ts';
import {
  instrumentsOf, type AccountKind, type Balances, type BrokerInfo, type FillReport, type Gateway, type OrderLocator, type OrderReport, type OrderRequest, type Position,
} from '../../src/model/index.ts';
import { RiskGate } from '../../src/risk/index.ts';
import { RestGateway, UserStreamClient, VenueRestClient } from '../../src/venue/index.ts';
import { OrderExecutor, Portfolio, isTerminal, type ExecutionEvent, type ExecutorOptions } from '../../src/execution/index.ts';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { KEY, SECRET, startTest, type TestVenue } from '../sim/server/helpers.ts';
import { z } from 'zod';
import { feedSource, makeSubmit } from '../../src/app/submit.ts';
import { defineStrategy, StrategyHost, type StrategyContext, type StrategyHandlers } from '../../src/strategy/index.ts';
import { EMPTY_PORTFOLIO } from '../strategy/helpers.ts';

/** A second account on the venue that quotes against the bot (the server runs no market agents of its own). */
export const COUNTER_KEY = 'C'.repeat(64);
export const COUNTER_SECRET = 'S'.repeat(64);

/** Returns the shipped accounts plus the counterparty. */
function accounts(): unknown[] {
  const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { accounts: unknown[] };
  return [...raw.accounts, {
    name: 'counter', keys: [{ apiKey: COUNTER_KEY, secret: COUNTER_SECRET, permissions: 'all' }],
    balances: { spot: { USDT: '1000000', BTC: '100' }, contract: { BTC: '100', USDT: '1000000' } },
  }];
}

/** The venue's virtual clock as the executor sees it, counting the one-shot timers the executor holds (live until fired or cancelled). */
export class CountingClock implements Clock {
  private live = new Set<object>();

  constructor(readonly inner: VirtualClock) {}

  /** Returns how many of the executor's one-shot timers are waiting. */
  pendingTimeouts(): number {
    return this.live.size;
  }

  now(): number {
    return this.inner.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const key = {};
    this.live.add(key);
    const h = this.inner.setTimeout(() => {
      this.live.delete(key);
      fn();
    }, ms);
    return { cancel: () => { this.live.delete(key); h.cancel(); } };
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.inner.setInterval(fn, ms);
  }

  sleep(ms: number): Promise<void> {
    return this.inner.sleep(ms);
  }
}

/** The executor's gateway: the real RestGateway, with each call it makes written down (name, what it named) and the most calls at once. */
export class RecordingGateway implements Gateway {
  readonly calls: string[] = [];
  private active = 0;
  maxConcurrent = 0;

  constructor(private readonly inner: Gateway) {}

  place(req: OrderRequest): Promise<OrderReport> {
    return this.track(`place ${req.clientOrderId}`, () => this.inner.place(req));
  }

  cancel(ref: OrderLocator): Promise<OrderReport> {
    return this.track(`cancel ${ref.clientOrderId ?? ref.orderId ?? ''}`, () => this.inner.cancel(ref));
  }

  getOrder(ref: OrderLocator): Promise<OrderReport> {
    return this.track(`getOrder ${ref.clientOrderId ?? ref.orderId ?? ''}`, () => this.inner.getOrder(ref));
  }

  openOrders(account: AccountKind, symbol?: string): Promise<readonly OrderReport[]> {
    return this.track(`openOrders ${account}`, () => this.inner.openOrders(account, symbol));
  }

  tradesSince(account: AccountKind, afterTradeId?: string): Promise<readonly FillReport[]> {
    return this.track(`tradesSince ${account}`, () => this.inner.tradesSince(account, afterTradeId));
  }

  positions(): Promise<readonly Position[]> {
    return this.track('positions', () => this.inner.positions());
  }

  balances(): Promise<Balances> {
    return this.track('balances', () => this.inner.balances());
  }

  exchangeInfo(): Promise<BrokerInfo> {
    return this.track('exchangeInfo', () => this.inner.exchangeInfo());
  }

  private async track<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.calls.push(name);
    this.active += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.active);
    try {
      return await fn();
    } finally {
      this.active -= 1;
    }
  }
}

export interface Rig {
  readonly t: TestVenue;
  readonly rest: VenueRestClient;
  readonly gateway: RestGateway;
  readonly bus: EventBus;
  readonly portfolio: Portfolio;
  readonly ex: OrderExecutor;
  readonly events: ExecutionEvent[];
  /** The counterparty's REST client. */
  readonly counter: VenueRestClient;
  /** The executor's clock (the venue's, with its timers counted). */
  readonly exClock: CountingClock;
  /** The executor's gateway, recording its calls. */
  readonly seen: RecordingGateway;
  close(): Promise<void>;
}

export interface RigHooks {
  /** Runs on the venue before the executor starts (e.g. orders the bot will find at start-up). */
  readonly beforeStart?: (x: { rest: VenueRestClient; counter: VenueRestClient }) => Promise<void>;
  /** Connects our user stream client to the bus before the executor starts (off: the executor hears nothing from the stream). */
  readonly userStream?: boolean;
  /** Risk config sections laid over the rig's (`tradingState: active`, `rounding: deny`). */
  readonly risk?: Record<string, unknown>;
}

/** Starts the venue (with `venueOver` config sections, and a counterparty account) and an executor on it. */
export async function startRig(venueOver: Record<string, unknown> = {}, exOver: Partial<ExecutorOptions> = {}, hooks: RigHooks = {}): Promise<Rig> {
  const t = await startTest({ accounts: accounts(), ...venueOver });
  const counter = new VenueRestClient({ baseUrl: t.url, apiKey: COUNTER_KEY, secret: COUNTER_SECRET, clock: t.clock });
  const rest = new VenueRestClient({ baseUrl: t.url, apiKey: KEY, secret: SECRET, clock: t.clock });
  const gateway = new RestGateway(rest, () => t.clock.now());
  const info = await gateway.exchangeInfo();
  const instruments = instrumentsOf(info);
  const bus = new EventBus({ clock: t.clock, logger: silentLogger() });
  const ex: { current?: OrderExecutor } = {};
  const portfolio = new Portfolio(instruments, (orderId) => ex.current?.store.byVenueId(orderId)?.strategyId);
  const gate = new RiskGate({ instruments, config: { tradingState: 'active', rounding: 'deny', ...hooks.risk } });
  const exClock = new CountingClock(t.clock);
  const seen = new RecordingGateway(gateway);
  ex.current = new OrderExecutor({
    gateway: seen, bus, clock: exClock, gate, portfolio, instruments, ids: new ClientOrderIds('bh', 'run1'),
    reconcile: { everyMs: 0 }, ...exOver,
  });
  const events: ExecutionEvent[] = [];
  ex.current.on((e) => events.push(e));
  await hooks.beforeStart?.({ rest, counter });
  const user = hooks.userStream === true
    ? new UserStreamClient({ rest, wsUrl: t.ws, clock: t.clock, sink: (ev) => bus.publish(ev) })
    : undefined;
  if (user !== undefined) {
    await user.start();
    await until({ ex: ex.current, t }, () => user.state === 'ready', 5_000, 50);
  }
  await ex.current.start();
  return {
    t, rest, gateway, bus, portfolio, ex: ex.current, events, counter, exClock, seen,
    close: async () => {
      await user?.stop();
      ex.current?.stop();
      bus.close();
      await rest.close();
      await counter.close();
      await t.close();
    },
  };
}

/** Advances the clock in steps until `done()` or `maxMs` passed; returns whether it is done. */
export async function until(r: Pick<Rig, 'ex' | 't'>, done: () => boolean, maxMs = 20_000, stepMs = 250): Promise<boolean> {
  for (let waited = 0; waited <= maxMs; waited += stepMs) {
    await r.ex.idle();
    if (done()) return true;
    await r.t.clock.advance(stepMs);
  }
  return done();
}

/** Returns true when every order of the executor is terminal or acknowledged by the venue. */
export function allSettled(r: Rig): boolean {
  return r.ex.orders().every((o) => isTerminal(o.phase) || (o.phase !== 'PENDING_NEW' && o.phase !== 'UNKNOWN'));
}

/** Switches the venue's faults on (POST /admin/faults on loopback). */
export async function setFaults(t: TestVenue, body: unknown): Promise<void> {
  const res = await request(`${t.url}/admin/faults`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`faults: HTTP ${res.statusCode}`);
}

/**
 * Starts a strategy host on the rig's bus, clock and executor (its submit and order feed) with one strategy `id` on
 * BTCUSDT whose handlers `handlers` makes; returns the host and the strategy's context.
 */
export async function rigStrategy(x: Rig, id: string, handlers: (ctx: StrategyContext) => StrategyHandlers): Promise<{ host: StrategyHost; ctx: StrategyContext }> {
  let ctx!: StrategyContext;
  const host = new StrategyHost({
    bus: x.bus, clock: x.t.clock, log: silentLogger(), instruments: instrumentsOf(await x.gateway.exchangeInfo()), runTag: 'r1',
    submit: makeSubmit(x.ex), portfolio: () => EMPTY_PORTFOLIO, orders: feedSource(x.ex),
  });
  host.add({
    id, symbols: ['BTCUSDT'], params: {},
    definition: defineStrategy({
      manifest: { name: id, apiVersion: '1.0', params: z.strictObject({}) },
      create: (c) => {
        ctx = c;
        return handlers(c);
      },
    }),
  });
  await host.start();
  return { host, ctx };
}
