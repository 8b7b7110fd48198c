/**
 * The backtest's event loop: the catalog's replay feeds each recorded event to the backtest exchange
 * at its exchange time and to the bus at its local (receive) time, on one VirtualClock whose timers
 * (strategy timers, latencies, reports) fire in between, in time order.
 */
import type { VirtualClock } from '../../core/clock.ts';
import { replay, type ReplayStats } from '../../data/replay.ts';
import type { TableName } from '../../data/tables.ts';
import type { BusEvent, DepthBatchEvent, KlineEvent } from '../../model/index.ts';
import type { Bar } from '../bars.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
import { BarExchange } from '../bar-exchange.ts';
import type { BacktestExchange } from '../exchange/exchange.ts';
import type { BookSide } from '../exchange/types.ts';
import { DepthView } from './depth-view.ts';
import { batchScale, recordBatch, recordTrade, type BatchScale } from './replayed.ts';

/** One symbol the strategies trade: the exchange that sees its recorded book, trades and marks (L2), or its bars (bar mode). */
export interface DrivenMarket {
  readonly inst: SimInstrument;
  readonly exchange: BacktestExchange | BarExchange;
}

export interface DriveOptions {
  readonly catalog: string;
  /** Symbols replayed (their events reach the bus). */
  readonly symbols: readonly string[];
  readonly tables?: readonly TableName[];
  /** Local-time range, ns (from inclusive, to exclusive). */
  readonly from?: bigint;
  readonly to?: bigint;
  readonly clock: VirtualClock;
  /** Where market events go at their local time (the bus). */
  readonly publish: (ev: BusEvent) => void;
  /** Traded symbols' exchanges by symbol. */
  readonly markets: ReadonlyMap<string, DrivenMarket>;
  /** Contracts marked at another symbol's recorded index, by that symbol (replayed for its index alone when not in `symbols`). */
  readonly marks?: ReadonlyMap<string, readonly DrivenMarket[]>;
  /** Called after each event reached the bus, with how many have. */
  readonly onEvent?: (events: number) => void;
  /** Publish the book after every diff too (what a strategy asking for book snapshots gets live). */
  readonly snapshotEveryUpdate?: boolean;
  /**
   * The most levels a side of a symbol's book snapshot shows (default: all): live, a strategy asking for
   * snapshots reads the venue's depth pushes, which carry at most the depth topic's limit.
   */
  readonly snapshotLevels?: (symbol: string) => number;
  /**
   * Whether anything reads a symbol's depthUpdate events now (the bus's subscribers; default: always). A
   * diff nobody reads is not made into one: it would reach no one. It still counts as an event reaching the bus.
   */
  readonly readsUpdates?: (symbol: string) => boolean;
  /** Reads in flight that time must wait for (the history's). */
  readonly busy?: Busy;
  /** Events held between the replay and the clock before the replay waits (default 4096). */
  readonly window?: number;
}

/** Work started inside the simulation that finishes outside it (ctx.history's file reads): time waits for it. */
export type Busy = () => Promise<unknown> | undefined;

/** Turns between two that go through the event loop (see turner). */
const LOOP_EVERY = 1024;
let turns = 0;

/** Settled once: `.then` on it queues a microtask for a promise reaction, far less than queueMicrotask's AsyncResource and bound function. */
const resolved = Promise.resolve();

/**
 * Returns a function that calls `then` after a turn, made once so that a turn makes no closure of its
 * own. A tick queued from a microtask runs only once the microtask queue is empty, chains included,
 * and `then` runs as a microtask after the ticks queued with it: that is all a turn must wait for, at
 * a fraction of an event-loop pass (whose poll was a fifth of a backtest's wall time). A turn asked for
 * outside a microtask (`inMicrotask` false) first hops into one, so that it is so there too. Every
 * LOOP_EVERY-th turn still goes through the event loop, so that signals, I/O and a worker's messages
 * are not starved.
 */
function turner(then: () => void): (inMicrotask: boolean) => void {
  const queueThen = (): void => void resolved.then(then);
  const tick = (): void => process.nextTick(queueThen);
  return (inMicrotask) => {
    if (++turns % LOOP_EVERY === 0) setImmediate(queueThen);
    else if (inMicrotask) tick();
    else void resolved.then(tick);
  };
}

/** Resolves once every promise continuation queued before it has run, however long its chain. */
function turn(): Promise<void> {
  return new Promise<void>((resolve) => turner(resolve)(false));
}

/**
 * Lets the bot finish what an instant started before time moves on: every promise continuation
 * (a turn drains them all, however long the chain), then any reads in flight. Nothing
 * depends on how fast the machine is: time only moves when the bot has nothing left to do now.
 */
async function settle(busy?: Busy): Promise<void> {
  await turn();
  for (let p = busy?.(); p !== undefined; p = busy?.()) await p.then(turn);
}

/**
 * Runs the replay through the clock. The exchange sees an event at its exchange time (never after its
 * local time: a recording whose exchange stamp is later than its receive stamp is seen at receive
 * time); the bus sees it at its local time. The bot's timers and reports fire between events at
 * their own times; after each instant the bot's promise continuations run before time moves on.
 */
export async function drive(o: DriveOptions): Promise<ReplayStats> {
  const window = o.window ?? 512;
  const clock = o.clock;
  // The replay's books come as integer batches (the exchange reads them as they are); the bus gets the live client's events made from them.
  const views = new Map<string, DepthView>();
  const viewOf = (ev: DepthBatchEvent): DepthView => {
    let v = views.get(ev.symbol);
    if (v === undefined) views.set(ev.symbol, (v = new DepthView(ev.symbol, ev.tick, ev.lot, o.snapshotEveryUpdate === true, o.snapshotLevels?.(ev.symbol))));
    return v;
  };
  // Read from the replay, not yet applied (the first `inN`): events and their local and exchange times (ms).
  // The lists are kept and overwritten, not made anew each window; the replay waits while they are worked through.
  // An event's slot is emptied as it moves on, so that the list does not keep it alive through a collection.
  const inEv: (BusEvent | undefined)[] = [];
  const inLocal: number[] = [];
  const inExch: number[] = [];
  let inN = 0;
  // Applied to the exchange, waiting for their local time to reach the bus (in local-time order).
  // The first `outN` slots are in use and never shrink (a shorter array would be grown again: a new backing store each
  // window); a slot is emptied once its event reached the bus, so that a collection does not keep what nothing reads.
  const outEv: (BusEvent | undefined)[] = [];
  const outLocal: number[] = [];
  let outHead = 0;
  let outN = 0;
  let delivered = 0;

  const count = (): void => {
    delivered++;
    o.onEvent?.(delivered);
  };
  const deliver = (ev: BusEvent): void => {
    o.publish(ev);
    count();
  };

  /**
   * Moves the clock to the first instant up to `t` when a bus delivery or a timer falls due, and delivers
   * and fires what is due then; returns false, the clock unmoved, when nothing falls due up to `t`.
   */
  const instant = (t: number): boolean => {
    const bus = outHead < outN ? outLocal[outHead]! : Infinity;
    const timer = clock.nextAt() ?? Infinity;
    const next = Math.min(bus, timer);
    if (next > t) return false;
    clock.advanceToSync(next);
    while (outHead < outN && outLocal[outHead]! <= next) {
      const ev = outEv[outHead]!;
      outEv[outHead] = undefined;
      outHead++;
      // A book message's text is made as it reaches the bus: what waits in the window stays small.
      if (ev.kind === 'depthBatch') {
        const updates = o.readsUpdates?.(ev.symbol) ?? true;
        if (!updates && !ev.snapshot) count();
        viewOf(ev).events(ev, deliver, updates);
      } else deliver(ev);
    }
    return true;
  };

  /** Ends a move of the clock at `t` (after its instants), dropping what reached the bus from the window's head. */
  const reach = (t: number): void => {
    clock.advanceToSync(t);
    if (outHead > 512) {
      // Moved down in place: splice would return the dropped events as a new array.
      outEv.copyWithin(0, outHead, outN);
      outLocal.copyWithin(0, outHead, outN);
      outN -= outHead;
      outEv.fill(undefined, outN, outN + outHead);
      outHead = 0;
    }
  };

  // The window's events are worked through by a synchronous loop (run) that stops after each instant
  // and is resumed by pre-bound callbacks once the bot's continuations have run and its reads in flight
  // have ended (settle, written out so that an instant costs no promise and no async call).
  let i = 0;
  let n = 0;
  // Whether run is moving the clock to `until` (event i's time), instant by instant, before event i is applied.
  let moving = false;
  let until = 0;
  // Whether run was resumed by settled, in a microtask: its next turn needs no hop into one.
  let resumed = false;
  let resolveWork: () => void = noop;
  let rejectWork: (e: unknown) => void = noop;
  const fail = (e: unknown): void => rejectWork(e);
  const run = (): void => {
    try {
      for (;;) {
        if (moving) {
          if (instant(until)) {
            turnThenSettle(resumed);
            return;
          }
          reach(until);
          moving = false;
        } else if (i < n) {
          const t = Math.min(inExch[i]!, inLocal[i]!);
          // Time moves without a turn of the event loop when nothing falls due on the way (most events).
          if (t > clock.now()) {
            until = t;
            moving = true;
            continue;
          }
        } else {
          inN = 0;
          resolveWork();
          return;
        }
        const e = inEv[i]!;
        inEv[i] = undefined;
        applyToExchange(o.markets, o.marks, e, clock.now());
        outEv[outN] = e;
        outLocal[outN] = inLocal[i]!;
        outN++;
        i++;
      }
    } catch (e) {
      rejectWork(e);
    }
  };
  // After an instant's turn: time waits for the reads in flight, a turn after each, then run goes on.
  const settled = (): void => {
    let p: Promise<unknown> | undefined;
    try {
      p = o.busy?.();
    } catch (e) {
      rejectWork(e);
      return;
    }
    resumed = true;
    if (p === undefined) run();
    else p.then(turnAfterRead, fail);
  };
  const turnThenSettle = turner(settled);
  const turnAfterRead = (): void => turnThenSettle(true);
  const work = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      resolveWork = resolve;
      rejectWork = reject;
      i = 0;
      n = inN;
      resumed = false;
      run();
    });

  const stats = await replay({
    catalog: o.catalog,
    symbols: o.symbols,
    ...(o.tables ? { tables: o.tables } : {}),
    ...(o.marks ? { indexOnly: [...o.marks.keys()].filter((s) => !o.symbols.includes(s)) } : {}),
    depth: 'batches',
    ...(o.from === undefined ? {} : { from: o.from }),
    ...(o.to === undefined ? {} : { to: o.to }),
    sink: (ev, localUs, exchangeUs) => {
      inEv[inN] = ev;
      inLocal[inN] = Math.floor(localUs / 1000);
      // A bar starts at its open at the exchange (bar mode walks its path from there); the strategy still sees it at its close.
      inExch[inN] = ev.kind === 'kline' && o.markets.get(ev.symbol)?.exchange instanceof BarExchange ? ev.openTime : Math.floor(exchangeUs / 1000);
      inN++;
    },
    pace: () => (inN >= window ? work() : undefined),
  });
  await work();
  const end = outN > outHead ? outLocal[outN - 1]! : clock.now();
  while (instant(end)) await settle(o.busy);
  reach(end);
  return stats;
}

const noop = (): void => undefined;

/** Applies a market event to its symbol's exchange at the clock's (exchange) time. */
function applyToExchange(markets: ReadonlyMap<string, DrivenMarket>, marks: ReadonlyMap<string, readonly DrivenMarket[]> | undefined, ev: BusEvent, time: number): void {
  if (ev.kind === 'index' && marks !== undefined) {
    for (const c of marks.get(ev.symbol) ?? []) if (!(c.exchange instanceof BarExchange)) c.exchange.onRecorded({ kind: 'mark', time, price: ev.index });
  }
  const m = 'symbol' in ev ? markets.get(ev.symbol) : undefined;
  if (m === undefined) return;
  const ex = m.exchange;
  if (ex instanceof BarExchange) {
    if (ev.kind === 'kline' && ev.closed) ex.onBar(barOf(m.inst, ev));
    return;
  }
  switch (ev.kind) {
    case 'depthBatch':
      applyDepth(m, ex, ev);
      return;
    case 'trade':
      recordTrade(ev, m.inst, ex);
      return;
    case 'index':
      // A recorded index of a contract is its mark (as the portfolio takes it): funding and liquidation follow it.
      if (m.inst.contract) ex.onRecorded({ kind: 'mark', time, price: ev.index });
      return;
    // drive asks the replay for batches, never for levels.
    case 'depthSnapshot':
    case 'depthUpdate':
    case 'kline':
    case 'ticker':
    case 'funding':
    case 'order':
    case 'position':
    case 'balance':
    case 'connection':
    case 'reconnected':
      return;
    default: {
      const never: never = ev;
      throw new Error(`unknown event ${String(never)}`);
    }
  }
}

/** Returns a kline as a bar in ticks; it closes (and reaches the strategy) 1 ms after its close time, at the next bar's open. */
function barOf(inst: SimInstrument, k: KlineEvent): Bar {
  const t = (s: string): number => decimalUnits(s, inst.tick);
  return { openTime: k.openTime, closeTime: k.ts + 1, open: t(k.open), high: t(k.high), low: t(k.low), close: t(k.close) };
}

/** What the runner keeps of each market's recorded book: the scale from its batches' steps to its instrument's, how a snapshot lists its prices, and the version last applied. */
interface DepthState {
  readonly scale: BatchScale;
  readonly levels: (side: BookSide) => Iterable<number>;
  /** The book version the exchange was last brought to, so that a snapshot published beside its diff is not applied twice. */
  version: string | undefined;
}

const depthStates = new WeakMap<DrivenMarket, DepthState>();

function applyDepth(m: DrivenMarket, ex: BacktestExchange, ev: DepthBatchEvent): void {
  let st = depthStates.get(m);
  if (st === undefined) depthStates.set(m, (st = { scale: batchScale(m.inst, ev.tick, ev.lot), levels: (side) => ex.book.levels(side), version: undefined }));
  if (ev.snapshot && st.version === ev.version) return;
  recordBatch(ev, st.scale, st.levels, ex);
  st.version = ev.version;
}

/**
 * Moves the clock to `t` firing its timers in order, the bot's continuations running after each instant (the end of a run:
 * cancels and last reports); with `done`, stops at the first instant after which it holds.
 */
export async function advanceClock(clock: VirtualClock, t: number, busy?: Busy, done?: () => boolean): Promise<void> {
  await settle(busy);
  for (;;) {
    if (done?.() === true) return;
    const next = clock.nextAt();
    if (next === undefined || next > t) break;
    clock.advanceToSync(next);
    await settle(busy);
  }
  clock.advanceToSync(t);
  await settle(busy);
}
