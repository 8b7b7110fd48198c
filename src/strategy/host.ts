/**
 * The strategy host: builds each strategy's scoped context, routes bus events to its handlers (its
 * symbols' market events, its own orders' reports), and isolates failures: a handler or timer that
 * throws (or whose promise rejects) stops that strategy, logs why and cancels its orders, while the
 * others go on.
 */
import { filter, Subject, takeUntil } from 'rxjs';
import { withinTime, type Clock, type TimerHandle } from '../core/clock.ts';
import { BhError } from '../core/errors.ts';
import { ClientOrderIds } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import type { EventBus, Unsubscribe } from '../bus/index.ts';
import type { EventKind, EventOf, Instrument, SymbolEventKind } from '../model/index.ts';
import { parseParams } from './define.ts';
import { createOrderApi } from './orders.ts';
import { marketRoutes, resolveStreams, streamRequestSchema, type HistoryApi, type StreamRequest, type Streams } from './streams.ts';
import type { DenialNotice, FeeRates, OrderSource, PortfolioView, StrategyContext, StrategyDefinition, StrategyHandlers, SubmitIntent } from './types.ts';

/** One strategy of a run: its definition, the id its orders carry, its symbols and raw params. */
export interface StrategySpec {
  readonly id: string;
  readonly definition: StrategyDefinition;
  readonly symbols: readonly string[];
  readonly params: unknown;
  /** Where its params sit in the config, for error paths (default `strategies.<id>.params`). */
  readonly paramsPath?: string;
  /** The config entry's streams, over the manifest's (field by field). */
  readonly streams?: StreamRequest;
}

/** The market streams one strategy receives, for the app to subscribe. */
export interface StrategyStreams {
  readonly id: string;
  readonly symbols: readonly string[];
  readonly streams: Streams;
}

export interface StrategyHostOptions {
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly log: Logger;
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** Sends an intent through the risk gate to the executor. */
  readonly submit: SubmitIntent;
  /** Returns the read-only portfolio view scoped to one strategy. */
  readonly portfolio: (strategyId: string) => PortfolioView;
  /** The executor's order feed: each strategy's onOrder, onFill and ctx.orders.get read it (none: no order events). */
  readonly orders?: OrderSource;
  /** Told when a strategy fails (after it was stopped and its orders cancelled). */
  readonly onFailed?: (id: string, error: string, thrown: unknown) => void;
  /** The venue's fee rates of a symbol (ctx.fees). */
  readonly fees?: (symbol: string) => FeeRates | undefined;
  /** Where `ctx.history` reads (the app's REST client); without it, history calls reject. */
  readonly history?: HistoryApi;
  /** Run tag in clientOrderIds (1-12 letters or digits): unique per run so ids never repeat across restarts. */
  readonly runTag: string;
  /** Cancel a failed strategy's open orders (default true). */
  readonly cancelOnFailure?: boolean;
  /** A denial is logged at most once per code in this many ms of the clock; the ones between are counted into the next line (default 5000). */
  readonly denialLogEveryMs?: number;
}

/** The life of one strategy: `stopping` from its stop until the run's end, while its orders' last events still come. */
export type StrategyState = 'created' | 'running' | 'stopping' | 'stopped' | 'failed';

/** What the host reports of one strategy. */
export interface StrategyStatus {
  readonly id: string;
  readonly name: string;
  readonly state: StrategyState;
  readonly error?: string;
}

const ID_RE = /^[A-Za-z0-9_]{1,12}$/;
/**
 * STRATEGY_STOPPED notices a stopping strategy gets; later ones are only logged. A strategy that answers
 * each refusal with a new order would otherwise be refused and told again on every microtask, and the
 * run would never end.
 */
export const MAX_STOPPED_NOTICES = 100;

// Which handler receives which bus event kind; market kinds are routed per symbol and declared stream.
const MARKET_HANDLERS = {
  depthSnapshot: 'onDepthSnapshot', depthUpdate: 'onDepthUpdate', trade: 'onTrade', kline: 'onKline', ticker: 'onTicker',
  index: 'onIndex', funding: 'onFunding',
} as const satisfies Partial<Record<SymbolEventKind, keyof StrategyHandlers>>;
const SYMBOL_HANDLERS = { position: 'onPosition' } as const satisfies Partial<Record<SymbolEventKind, keyof StrategyHandlers>>;
const ACCOUNT_HANDLERS = { balance: 'onBalance', connection: 'onConnection', reconnected: 'onReconnected' } as const satisfies Partial<Record<EventKind, keyof StrategyHandlers>>;

// A host built without a history source (unit tests) answers every history call with this.
/** What guard returns for a handler that returned nothing. */
const DONE: Promise<void> = Promise.resolve();

const NO_HISTORY: HistoryApi = {
  klines: () => Promise.reject(new BhError('NO_HISTORY', 'this run has no history source', 'definite')),
  trades: () => Promise.reject(new BhError('NO_HISTORY', 'this run has no history source', 'definite')),
};

class Instance {
  state: StrategyState = 'created';
  error: string | undefined;
  handlers: StrategyHandlers = {};
  /** Its market and account subscriptions, which end at its stop. */
  readonly offs: Unsubscribe[] = [];
  /** Its own orders' events (onOrder, onFill), which go on after its stop until the host finishes. */
  readonly orderOffs: Unsubscribe[] = [];
  readonly timers = new Set<TimerHandle>();
  readonly stop$ = new Subject<void>();
  /** Per denial code: when it was last logged and how many were not logged since. */
  readonly denials = new Map<string, { at: number; unlogged: number }>();
  /** STRATEGY_STOPPED notices delivered so far (at most MAX_STOPPED_NOTICES). */
  stoppedNotices = 0;
  /** True while the stop() the host runs after a failure has not returned: like any stop(), it may still place a closing order. */
  closingAfterFailure = false;
  /** Depth of the strategy's own order calls in progress (an order cancelled before it was sent ends inside the call). */
  calls = 0;
  /** Its order events held back until its own call returned, oldest first; later ones queue behind them so none overtakes another. */
  held: (() => void)[] | undefined;

  constructor(readonly spec: StrategySpec, readonly log: Logger, readonly streams: Streams) {}

  get running(): boolean {
    return this.state === 'running' || this.state === 'created';
  }

  /** Whether its own orders' events reach it: while it runs and while the run winds down after its stop. */
  get following(): boolean {
    return this.state === 'running' || this.state === 'stopping';
  }
}

/** Holds the strategies of one run. */
export class StrategyHost {
  private readonly instances: Instance[] = [];

  constructor(private readonly o: StrategyHostOptions) {}

  /**
   * Validates the spec (id, symbols, params: ConfigError names the bad key), builds the strategy's
   * context and calls its factory. Returns the strategy's id.
   */
  add(spec: StrategySpec): string {
    const base = `strategies.${spec.id}`;
    if (!ID_RE.test(spec.id)) throw new BhError('CONFIG', `${base}: a strategy id is 1-12 letters, digits or _ (it prefixes its clientOrderIds)`, 'config');
    if (this.instances.some((i) => i.spec.id === spec.id)) throw new BhError('CONFIG', `${base}: duplicate strategy id`, 'config');
    spec.symbols.forEach((s, i) => {
      if (!this.o.instruments.has(s)) throw new BhError('CONFIG', `${base}.symbols[${i}]: unknown symbol ${s}`, 'config', { context: { symbol: s } });
    });
    const params = parseParams(spec.definition, spec.params, spec.paramsPath ?? `${base}.params`);
    const log = this.o.log.child({ strategy: spec.id, plugin: spec.definition.manifest.name });
    const streams = resolveStreams(checkStreams(spec.definition.manifest.streams, `${spec.definition.manifest.name}: manifest.streams`), spec.streams);
    const inst = new Instance(spec, log, streams);
    const ctx = this.contextOf(inst, params);
    inst.handlers = spec.definition.create(ctx);
    this.instances.push(inst);
    return spec.id;
  }

  /** Subscribes every strategy to its events and runs its `start`; one that fails to start is stopped and logged. */
  async start(): Promise<void> {
    for (const inst of this.instances) {
      if (inst.state !== 'created') continue;
      inst.state = 'running';
      this.route(inst);
      await this.guard(inst, () => inst.handlers.start?.());
      if (inst.state === 'running') inst.log.info({ symbols: inst.spec.symbols }, 'strategy started');
    }
  }

  /**
   * Stops every running strategy: its timers and market and account events end, then its `stop` runs
   * (it may cancel or close). It is then `stopping`: its orders' events (onOrder, onFill, onDenied) still
   * come, so the orders the run's stop cancels and the fills of the wind-down reach it, until finish().
   */
  async stop(limitMs?: number): Promise<void> {
    for (const inst of this.instances) {
      if (inst.state !== 'running') continue;
      this.detach(inst);
      const r = this.callStop(inst);
      // A stop() that returned at once is over now: an order event its own calls held back comes on a microtask, and an order placed from it is refused.
      if (r !== undefined) await this.bounded(inst, r, limitMs);
      if (inst.state === 'running') inst.state = 'stopping';
    }
  }

  /** Runs the strategy's stop(); returns its promise when it returned one (settling, never rejecting: a throw, at once or later, is logged). */
  private callStop(inst: Instance): Promise<void> | undefined {
    const threw = (e: unknown): void => inst.log.error({ err: e }, 'strategy stop handler threw');
    try {
      const r = inst.handlers.stop?.();
      return r instanceof Promise ? r.catch(threw) : undefined;
    } catch (e) {
      threw(e);
      return undefined;
    }
  }

  /** Waits for a stop handler's promise, at most `limitMs`: a stop() that never settles must not keep the run (and the other strategies' stops) from ending. */
  private async bounded(inst: Instance, p: Promise<void>, limitMs: number | undefined): Promise<void> {
    if (limitMs === undefined) return p;
    if (!(await withinTime(this.o.clock, p, limitMs))) inst.log.warn({ limitMs }, `stop() did not return within ${limitMs} ms (stop.timeout): the run stops without waiting for it`);
  }

  /** Ends the stopped strategies' order events, at the run's end (after its last reports and fills came in): they are `stopped`. */
  finish(): void {
    for (const inst of this.instances) {
      if (inst.state !== 'stopping') continue;
      this.detachOrders(inst);
      inst.state = 'stopped';
      inst.log.info('strategy stopped');
    }
  }

  /** Returns the market streams each strategy receives on its symbols (the app subscribes them). */
  streams(): readonly StrategyStreams[] {
    return this.instances.map((i) => ({ id: i.spec.id, symbols: i.spec.symbols, streams: i.streams }));
  }

  /** Returns each strategy's id, plugin name and state. */
  status(): readonly StrategyStatus[] {
    return this.instances.map((i) => ({
      id: i.spec.id, name: i.spec.definition.manifest.name, state: i.state, ...(i.error === undefined ? {} : { error: i.error }),
    }));
  }

  private contextOf(inst: Instance, params: unknown): StrategyContext {
    const { bus, clock, instruments } = this.o;
    const instrument = (symbol: string): Instrument => {
      const x = instruments.get(symbol);
      if (x === undefined) {
        const listed = [...instruments.keys()].sort().join(', ');
        throw new BhError('UNKNOWN_SYMBOL', `symbol: unknown symbol ${symbol}; the venue lists: ${listed}`, 'denied', { context: { symbol } });
      }
      return x;
    };
    const orders = createOrderApi({
      strategyId: inst.spec.id,
      ids: new ClientOrderIds(inst.spec.id, this.o.runTag),
      instrument,
      submit: (intent) => {
        inst.calls += 1;
        try {
          return this.o.submit(intent);
        } finally {
          inst.calls -= 1;
          if (inst.calls === 0 && inst.held !== undefined) queueMicrotask(() => this.release(inst));
        }
      },
      denied: (n: DenialNotice) => {
        this.logDenial(inst, n);
        if (n.code === 'STRATEGY_STOPPED' && ++inst.stoppedNotices > MAX_STOPPED_NOTICES) return;
        if (inst.following) void this.guard(inst, () => inst.handlers.onDenied?.(n));
      },
      phase: () => (inst.running || inst.closingAfterFailure ? 'running' : inst.state === 'stopping' ? 'stopping' : 'ended'),
      lookup: {
        get: (id) => {
          const v = this.o.orders?.get(id);
          return v?.strategyId === inst.spec.id ? v : undefined;
        },
        open: (symbol) => this.o.orders?.open(inst.spec.id, symbol, true) ?? [],
      },
    });
    return {
      id: inst.spec.id,
      params,
      symbols: inst.spec.symbols,
      bus: {
        // The bus's order reports are the venue's own, raw: a strategy sees those of its own orders only.
        on: <K extends EventKind>(kind: K) => (kind === 'order'
          ? bus.on(kind).pipe(filter((ev) => (ev as EventOf<'order'>).clientOrderId.startsWith(`${inst.spec.id}-`)))
          : bus.on(kind)).pipe(takeUntil(inst.stop$)),
        forSymbol: <K extends SymbolEventKind>(kind: K, symbol: string) => bus.forSymbol(kind, symbol).pipe(takeUntil(inst.stop$)),
      },
      instrument,
      portfolio: this.o.portfolio(inst.spec.id),
      clock,
      log: inst.log,
      orders,
      fees: (symbol) => {
        instrument(symbol);
        return this.o.fees?.(symbol);
      },
      history: this.o.history ?? NO_HISTORY,
      every: (ms, fn) => {
        const t = clock.setInterval(() => {
          if (inst.state === 'running') void this.guard(inst, fn);
        }, ms);
        const handle: TimerHandle = { cancel: () => { t.cancel(); inst.timers.delete(handle); } };
        inst.timers.add(handle);
        return handle;
      },
    };
  }

  private logDenial(inst: Instance, n: DenialNotice): void {
    this.logRefusal(inst, n.code, n.clientOrderId, `denied ${n.text}`);
  }

  /**
   * Logs a refusal (a local denial, or the venue's rejection) unless its code was logged less than
   * `denialLogEveryMs` ago: a strategy that keeps hitting a limit gives one line per interval, with a count.
   */
  private logRefusal(inst: Instance, code: string, clientOrderId: string | undefined, text: string): void {
    const now = this.o.clock.now();
    const last = inst.denials.get(code);
    if (last !== undefined && now - last.at < (this.o.denialLogEveryMs ?? 5_000)) {
      last.unlogged += 1;
      return;
    }
    const more = last !== undefined && last.unlogged > 0 ? { notLogged: last.unlogged, sinceMs: now - last.at } : {};
    inst.log[refusalLevel(code)]({ code, clientOrderId, ...more }, text);
    inst.denials.set(code, { at: now, unlogged: 0 });
  }

  /** Logs the count of denials not logged yet, once the strategy stops. */
  private flushDenials(inst: Instance): void {
    const now = this.o.clock.now();
    for (const [code, d] of inst.denials) {
      if (d.unlogged > 0) {
        inst.log[refusalLevel(code)]({ code, notLogged: d.unlogged, sinceMs: now - d.at },
          `${code.startsWith('venue') ? `order rejected (${code})` : `denied ${code}`} ${d.unlogged} more times since the last line`);
      }
    }
    inst.denials.clear();
  }

  private route(inst: Instance): void {
    const { bus } = this.o;
    const h = inst.handlers;
    const deliver = <K extends EventKind>(name: keyof StrategyHandlers) => (ev: EventOf<K>): void => {
      const fn = h[name] as ((e: EventOf<K>) => void | Promise<void>) | undefined;
      if (fn !== undefined && inst.state === 'running') this.handle(inst, fn, ev);
    };
    for (const [kind, name] of Object.entries(SYMBOL_HANDLERS) as [SymbolEventKind, keyof StrategyHandlers][]) {
      if (h[name] === undefined) continue;
      for (const symbol of inst.spec.symbols) inst.offs.push(bus.subscribe(kind, deliver(name), { symbol, label: `${inst.spec.id}.${name}` }));
    }
    const intervals = new Set<string>(inst.streams.klines);
    const onKline = deliver<'kline'>('onKline');
    for (const r of marketRoutes(inst.spec.symbols, inst.streams, this.o.instruments)) {
      const name = MARKET_HANDLERS[r.kind as keyof typeof MARKET_HANDLERS] as keyof StrategyHandlers | undefined;
      if (name === undefined || h[name] === undefined) continue;
      // Another strategy's intervals of the same symbol share the bus: only the declared ones pass.
      const fn = r.kind === 'kline' ? (ev: EventOf<'kline'>) => { if (intervals.has(ev.interval)) onKline(ev); } : deliver(name);
      inst.offs.push(bus.subscribe(r.kind, fn as (ev: EventOf<SymbolEventKind>) => void, { symbol: r.symbol, label: `${inst.spec.id}.${name}` }));
    }
    for (const [kind, name] of Object.entries(ACCOUNT_HANDLERS) as [EventKind, keyof StrategyHandlers][]) {
      if (h[name] !== undefined) inst.offs.push(bus.subscribe(kind, deliver(name), { label: `${inst.spec.id}.${name}` }));
    }
    const src = this.o.orders;
    if (src !== undefined) {
      const id = inst.spec.id;
      inst.orderOffs.push(src.follow({
        order: (v) => {
          if (v.strategyId !== id) return;
          // A refusal by the venue is logged as a local denial is, whether or not the strategy reads onOrder: it is often a bug of the strategy's.
          if (v.outcome === 'rejected' && v.status === 'REJECTED') {
            this.logRefusal(inst, venueCode(v.reason), v.clientOrderId, `order rejected: ${v.reason ?? 'the venue gave no reason'}`);
          }
          if (h.onOrder === undefined || !inst.following) return;
          if (inst.calls === 0 && inst.held === undefined) this.handle(inst, h.onOrder, v);
          else this.hold(inst, () => this.handle(inst, h.onOrder!, v));
        },
        fill: (f) => {
          if (f.strategyId !== id || h.onFill === undefined || !inst.following) return;
          if (inst.calls === 0 && inst.held === undefined) this.handle(inst, h.onFill, f);
          else this.hold(inst, () => this.handle(inst, h.onFill!, f));
        },
      }));
    }
  }

  /**
   * Holds an order event that came while the strategy was inside one of its own order calls (docs: a call
   * returns at once and its outcomes come later), or behind one held already, so that events stay in order.
   */
  private hold(inst: Instance, deliver: () => void): void {
    (inst.held ??= []).push(deliver);
  }

  /** Delivers the held order events in order, once the strategy's own call has returned. */
  private release(inst: Instance): void {
    const held = inst.held;
    if (held === undefined || inst.calls > 0) return;
    inst.held = undefined;
    for (const deliver of held) {
      if (inst.following) deliver();
    }
  }

  /** Calls the handler `fn` of `inst` with `ev` as guard() does, without a closure per event (handlers run on every event). */
  private handle<E>(inst: Instance, fn: (ev: E) => void | Promise<void>, ev: E): void {
    try {
      const r = fn.call(inst.handlers, ev);
      if (r !== undefined && typeof (r as Promise<void>).then === 'function') Promise.resolve(r).catch((e: unknown) => this.fail(inst, e));
    } catch (e) {
      this.fail(inst, e);
    }
  }

  /** Runs `fn` for `inst`; a throw or a rejection fails the strategy. */
  private guard(inst: Instance, fn: () => void | Promise<void>): Promise<void> {
    try {
      const r = fn();
      // A handler that returns nothing costs no promise: handlers run on every event.
      if (r !== undefined && typeof (r as Promise<void>).then === 'function') return Promise.resolve(r).catch((e: unknown) => this.fail(inst, e));
    } catch (e) {
      this.fail(inst, e);
    }
    return DONE;
  }

  private fail(inst: Instance, err: unknown): void {
    if (!inst.following) return;
    const wasRunning = inst.state === 'running';
    inst.state = 'failed';
    inst.error = err instanceof Error ? err.message : String(err);
    this.detach(inst);
    this.detachOrders(inst);
    inst.log.error({ err }, 'strategy threw: stopped; the other strategies go on');
    if (this.o.cancelOnFailure ?? true) this.o.submit({ kind: 'cancelAll', strategyId: inst.spec.id });
    // A strategy that fails in the wind-down ran its stop already.
    if (!wasRunning) {
      this.o.onFailed?.(inst.spec.id, inst.error, err);
      return;
    }
    inst.closingAfterFailure = true;
    const r = this.callStop(inst);
    if (r === undefined) inst.closingAfterFailure = false;
    else void r.finally(() => { inst.closingAfterFailure = false; });
    this.o.onFailed?.(inst.spec.id, inst.error, err);
  }

  private detach(inst: Instance): void {
    this.flushDenials(inst);
    for (const off of inst.offs.splice(0)) off();
    for (const t of [...inst.timers]) t.cancel();
    inst.stop$.next();
    inst.stop$.complete();
  }

  private detachOrders(inst: Instance): void {
    this.flushDenials(inst);
    for (const off of inst.orderOffs.splice(0)) off();
  }
}

/** Returns a manifest's stream request after checking it; throws a config error naming the bad field and the rule. */
function checkStreams(raw: StreamRequest | undefined, path: string): StreamRequest | undefined {
  if (raw === undefined) return undefined;
  const r = streamRequestSchema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new BhError('CONFIG', `${path}${issue.path.length > 0 ? `.${issue.path.join('.')}` : ''}: ${issue.message}`, 'config');
}

/** The venue's refusal of a post-only (LIMIT_MAKER) order that would have taken: the outcome post-only asks for, logged as information. */
const POST_ONLY_REFUSED = 'venue -1158';

/** Returns the level a refusal's log lines take: a warning, except the post-only refusal. */
function refusalLevel(code: string): 'info' | 'warn' {
  return code === POST_ONLY_REFUSED ? 'info' : 'warn';
}

/** Returns the code of a venue's rejection reason ("venue -1148: Market order amount ..." gives "venue -1148"), the key its log lines are counted by. */
function venueCode(reason: string | undefined): string {
  const m = reason === undefined ? null : /^venue -?\d+/.exec(reason);
  return m === null ? 'venue rejection' : m[0];
}
