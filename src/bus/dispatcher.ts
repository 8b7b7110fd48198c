/** The bus's inner loop: plain synchronous dispatch keyed by kind and symbol, in publish order, each handler's failure caught and logged. */
import type { Logger } from '../core/logger.ts';
import { EVENT_KINDS, symbolOf, type BusEvent, type EventKind } from '../model/events.ts';

/** A plain subscriber: called synchronously, once per matching event. */
export type Handler = (ev: BusEvent) => void;

/** Removes a subscription; calling it twice is harmless. */
export type Unsubscribe = () => void;

interface Entry {
  readonly fn: Handler;
  readonly label: string;
  errors: number;
  live: boolean;
}

interface Slot {
  list: Entry[];
}

interface Route {
  readonly any: Slot;
  readonly bySymbol: Map<string, Slot>;
}

/** Counters a caller can read to see how the bus is doing. */
export interface DispatchStats {
  readonly published: number;
  readonly subscriberErrors: number;
  readonly subscribers: number;
}

/**
 * Subscriber lists are copy-on-write: a dispatch walks the array it started with, so a handler that
 * subscribes or unsubscribes mid-dispatch never disturbs the loop, and a new subscriber sees only
 * later events. A publish from inside a handler is queued and delivered after the current event has
 * reached everyone (a trampoline), so every subscriber sees events in the same, publish, order.
 */
export class Dispatcher {
  private readonly all: Slot = { list: [] };
  private readonly routes: Record<EventKind, Route>;
  private readonly queue: BusEvent[] = [];
  private dispatching = false;
  private published = 0;
  private subscriberErrors = 0;
  private count = 0;

  constructor(private readonly logger: Logger, private readonly freeze: boolean) {
    const routes = {} as Record<EventKind, Route>;
    for (const k of EVENT_KINDS) routes[k] = { any: { list: [] }, bySymbol: new Map() };
    this.routes = routes;
  }

  /** Delivers `ev` to every matching handler before returning (unless called from inside a handler: then after the current event). */
  publish(ev: BusEvent): void {
    if (this.freeze) deepFreeze(ev);
    if (this.dispatching) {
      this.queue.push(ev);
      return;
    }
    this.dispatching = true;
    try {
      this.dispatch(ev);
      for (let i = 0; i < this.queue.length; i++) this.dispatch(this.queue[i]!);
    } finally {
      this.queue.length = 0;
      this.dispatching = false;
    }
  }

  /** Returns an unsubscribe for a handler of every event. */
  addAll(fn: Handler, label: string): Unsubscribe {
    return this.add(this.all, fn, label, noop);
  }

  /** Returns an unsubscribe for a handler of one kind, or of one kind and symbol. */
  addKind(kind: EventKind, symbol: string | undefined, fn: Handler, label: string): Unsubscribe {
    const route = this.routes[kind];
    if (symbol === undefined) return this.add(route.any, fn, label, noop);
    let slot = route.bySymbol.get(symbol);
    if (!slot) {
      slot = { list: [] };
      route.bySymbol.set(symbol, slot);
    }
    const mine = slot;
    return this.add(mine, fn, label, () => {
      if (mine.list.length === 0 && route.bySymbol.get(symbol) === mine) route.bySymbol.delete(symbol);
    });
  }

  /**
   * Returns whether an event of `kind` about `symbol` published now would reach a handler (a producer may
   * then skip making one nobody reads). While an event is being delivered a publish waits its turn, and a
   * handler may subscribe meanwhile: then it answers true.
   */
  reads(kind: EventKind, symbol: string): boolean {
    if (this.dispatching || this.all.list.length > 0) return true;
    const route = this.routes[kind];
    return route.any.list.length > 0 || (route.bySymbol.get(symbol)?.list.length ?? 0) > 0;
  }

  /** Returns the counters. */
  stats(): DispatchStats {
    return { published: this.published, subscriberErrors: this.subscriberErrors, subscribers: this.count };
  }

  private add(slot: Slot, fn: Handler, label: string, afterRemove: () => void): Unsubscribe {
    const entry: Entry = { fn, label, errors: 0, live: true };
    slot.list = [...slot.list, entry];
    this.count++;
    return () => {
      if (!entry.live) return;
      entry.live = false;
      this.count--;
      slot.list = slot.list.filter((e) => e !== entry);
      afterRemove();
    };
  }

  private dispatch(ev: BusEvent): void {
    this.published++;
    const route = this.routes[ev.kind];
    if (this.all.list.length > 0) this.deliver(this.all.list, ev);
    if (route.any.list.length > 0) this.deliver(route.any.list, ev);
    if (route.bySymbol.size > 0) {
      const symbol = symbolOf(ev);
      const slot = symbol === undefined ? undefined : route.bySymbol.get(symbol);
      if (slot) this.deliver(slot.list, ev);
    }
  }

  private deliver(list: Entry[], ev: BusEvent): void {
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (!e.live) continue;
      try {
        e.fn(ev);
      } catch (err) {
        this.fault(e, ev, err);
      }
    }
  }

  // A handler that throws stays subscribed (one bad event must not cost a strategy every later one).
  // Its failures are logged at counts 1, 2, 4, 8, … so a handler failing on every tick cannot flood the log.
  private fault(e: Entry, ev: BusEvent, err: unknown): void {
    e.errors++;
    this.subscriberErrors++;
    if ((e.errors & (e.errors - 1)) === 0) {
      this.logger.error(
        { err, subscriber: e.label, kind: ev.kind, symbol: symbolOf(ev), errors: e.errors },
        'bus subscriber threw; isolated, it stays subscribed',
      );
    }
  }
}

/**
 * Freezes `o` and everything it holds, so a subscriber that mutates a shared event fails at the
 * mutation. Costly on V8 (~0.1 µs a trade, ~6-10 µs a 20+20 level book, mostly in freezing arrays),
 * hence off in production and in backtests.
 */
export function deepFreeze(o: object): void {
  // Typed arrays (a depth batch's columns) cannot be frozen; their events say they are read-only.
  if (Object.isFrozen(o) || ArrayBuffer.isView(o)) return;
  Object.freeze(o);
  if (Array.isArray(o)) {
    // Indexed: for-in over an array doubles the cost.
    for (let i = 0; i < o.length; i++) freezeValue(o[i]);
    return;
  }
  for (const k in o) freezeValue((o as Record<string, unknown>)[k]);
}

function freezeValue(v: unknown): void {
  if (v !== null && typeof v === 'object') deepFreeze(v);
}

function noop(): void {}
