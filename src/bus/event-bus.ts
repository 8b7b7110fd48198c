/** The event bus: one place every normalised event is published, read as RxJS streams per kind and symbol, dispatched synchronously inside. */
import { Observable, type SchedulerLike } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { BhError } from '../core/errors.ts';
import { createLogger, type Logger } from '../core/logger.ts';
import type { BusEvent, EventKind, EventOf, SymbolEventKind } from '../model/events.ts';
import { Latest } from './conflate.ts';
import { Dispatcher, type DispatchStats, type Handler, type Unsubscribe } from './dispatcher.ts';
import { routeRxErrorsTo } from './rx-errors.ts';
import { schedulerFromClock } from './scheduler.ts';

/** How to build a bus. */
export interface EventBusOptions {
  /** Where isolated subscriber failures are logged (default: a `bus` logger). */
  logger?: Logger;
  /**
   * Deep-freeze every published event so a subscriber that mutates one throws at the mutation.
   * Default: on unless NODE_ENV is "production". Backtests switch it off: it costs ~0.1 µs a trade
   * and ~6-10 µs a 20+20 level book (bench/bus.bench.ts).
   */
  freeze?: boolean;
  /** The clock whose time `scheduler` follows (default: none, and `scheduler` throws). */
  clock?: Clock;
}

/** What the bus reports about itself. */
export interface BusStats extends DispatchStats {
  readonly closed: boolean;
}

/**
 * One bus per process (or per backtest). Producers call `publish`; readers take RxJS streams
 * (`events$`, `on`, `forSymbol`), a conflating mailbox (`latest`), or, on hot paths, a plain handler
 * (`subscribe`), which skips Rx altogether.
 *
 * Guarantees: every stream is hot and cold-safe (a subscriber sees only events published after it
 * subscribed, never a replay); every subscriber sees events in publish order, also when a handler
 * publishes; one event reaches `events$` subscribers first, then those of its kind, then those of its
 * kind and symbol, each group in subscription order; a subscriber that throws is isolated: the bus,
 * the other subscribers and the thrower itself keep receiving later events, and the failure is
 * logged. An error thrown inside an Rx operator chain follows RxJS's contract instead: that one chain
 * ends with the error, the rest carries on. Errors RxJS cannot deliver are logged to the newest open
 * bus (see rx-errors.ts). `close()` completes every stream and ends every `latest` mailbox.
 */
export class EventBus {
  /** Every event, in publish order. */
  readonly events$: Observable<BusEvent>;
  private readonly dispatcher: Dispatcher;
  private readonly completers = new Set<() => void>();
  private readonly logger: Logger;
  private readonly clock: Clock | undefined;
  private rxScheduler: SchedulerLike | undefined;
  private readonly detachRxErrors: () => void;
  private closed = false;

  constructor(opts: EventBusOptions = {}) {
    this.logger = opts.logger ?? createLogger({ name: 'bus' });
    this.clock = opts.clock;
    this.dispatcher = new Dispatcher(this.logger, opts.freeze ?? process.env['NODE_ENV'] !== 'production');
    this.events$ = this.stream((h) => this.dispatcher.addAll(h, 'events$'));
    this.detachRxErrors = routeRxErrorsTo(this.logger);
  }

  /** An RxJS scheduler on the bus's clock, for debounceTime, throttleTime, timeout, interval and friends. */
  get scheduler(): SchedulerLike {
    if (!this.clock) throw new BhError('BUS_NO_CLOCK', 'EventBus.scheduler needs a clock: pass { clock } to the constructor', 'config');
    this.rxScheduler ??= schedulerFromClock(this.clock);
    return this.rxScheduler;
  }

  /** Delivers `ev` to every matching subscriber; events published after close() are ignored. */
  publish(ev: BusEvent): void {
    if (this.closed) return;
    this.dispatcher.publish(ev);
  }

  /** Returns whether an event of `kind` about `symbol` published now would reach a subscriber (false once closed). */
  reads(kind: SymbolEventKind, symbol: string): boolean {
    return !this.closed && this.dispatcher.reads(kind, symbol);
  }

  /** Returns a stream of one kind of event. */
  on<K extends EventKind>(kind: K): Observable<EventOf<K>> {
    return this.stream((h) => this.dispatcher.addKind(kind, undefined, h, `on(${kind})`));
  }

  /** Returns a stream of one kind of event for one symbol. */
  forSymbol<K extends SymbolEventKind>(kind: K, symbol: string): Observable<EventOf<K>> {
    return this.stream((h) => this.dispatcher.addKind(kind, symbol, h, `forSymbol(${kind},${symbol})`));
  }

  /**
   * Returns a plain synchronous subscription of one kind (and symbol, when given): the cheapest way
   * to read the bus, for hot paths. `label` names the subscriber in error logs.
   */
  subscribe<K extends EventKind>(kind: K, handler: (ev: EventOf<K>) => void, opts: { symbol?: string; label?: string } = {}): Unsubscribe {
    if (this.closed) return noop;
    const label = opts.label ?? `subscribe(${kind}${opts.symbol === undefined ? '' : `,${opts.symbol}`})`;
    return this.dispatcher.addKind(kind, opts.symbol, handler as Handler, label);
  }

  /**
   * Returns a one-slot mailbox of one kind and symbol for a slow async reader (`for await`): it
   * always reads the newest event, intermediate ones are dropped and counted. For snapshots only
   * (depthSnapshot, ticker, index, position): never for diffs or reports.
   */
  latest<K extends SymbolEventKind>(kind: K, symbol: string): Latest<EventOf<K>> {
    let off: Unsubscribe = noop;
    let complete: () => void = noop;
    const box = new Latest<EventOf<K>>(() => {
      off();
      this.completers.delete(complete);
    });
    if (this.closed) {
      box.close();
      return box;
    }
    complete = () => box.close();
    this.completers.add(complete);
    off = this.dispatcher.addKind(kind, symbol, (ev) => box.offer(ev as EventOf<K>), `latest(${kind},${symbol})`);
    return box;
  }

  /** Completes every stream, ends every mailbox and ignores later publishes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const complete of [...this.completers]) complete();
    this.completers.clear();
    this.detachRxErrors();
  }

  /** Returns the bus's counters. */
  stats(): BusStats {
    return { ...this.dispatcher.stats(), closed: this.closed };
  }

  private stream<E>(register: (h: Handler) => Unsubscribe): Observable<E> {
    return new Observable<E>((subscriber) => {
      if (this.closed) {
        subscriber.complete();
        return undefined;
      }
      const off = register((ev) => subscriber.next(ev as E));
      const complete = (): void => subscriber.complete();
      this.completers.add(complete);
      return () => {
        off();
        this.completers.delete(complete);
      };
    });
  }
}

function noop(): void {}
