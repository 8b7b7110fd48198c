/**
 * What a strategy emits, and from which handler: a wrapper around a strategy's definition that notes
 * every call of its order API with the clock's time and the handler it came from (onDepthUpdate,
 * onTrade, onTimer for ctx.every and clock timers, bus:KIND for its own bus subscriptions), followed
 * across awaits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Observable } from 'rxjs';
import type { Clock } from '../../core/clock.ts';
import type { EventKind, SymbolEventKind } from '../../model/index.ts';
import type { OrderApi, StrategyContext, StrategyDefinition, StrategyHandlers } from '../../strategy/index.ts';

/** One call of a strategy's order API. */
export interface Emission {
  /** Clock time, ms. */
  readonly time: number;
  readonly strategy: string;
  readonly handler: string;
  /** place, cancel, replace, cancelAll or closePosition, with its arguments and what it returned, as JSON. */
  readonly call: string;
}

/** The order API calls that emit intents. */
const EMITTING = ['place', 'cancel', 'replace', 'cancelAll', 'closePosition'] as const satisfies readonly (keyof OrderApi)[];

// Every handler a strategy may have (a Record, so a handler added to the API must be listed here).
const HANDLERS = Object.keys({
  start: 1, stop: 1, onDepthSnapshot: 1, onDepthUpdate: 1, onTrade: 1, onKline: 1, onTicker: 1, onIndex: 1, onFunding: 1,
  onOrder: 1, onFill: 1, onPosition: 1, onBalance: 1, onConnection: 1, onReconnected: 1, onDenied: 1,
} satisfies Record<keyof StrategyHandlers, 1>) as (keyof StrategyHandlers)[];

/** Most emissions one log holds by default: a long run's order calls are many, and each is kept until the check ends. */
export const MAX_EMISSIONS = 1_000_000;

/** Collects the emissions of the strategies it wraps, in the order they were made, up to a bound. */
export class EmissionLog {
  readonly emissions: Emission[] = [];
  /** Emissions not kept because the log was full. */
  dropped = 0;

  constructor(private readonly max = MAX_EMISSIONS) {}

  /** Returns `def` with its context and handlers wrapped to note each emission (pass it as runBacktest's wrapStrategy). */
  readonly wrap = (def: StrategyDefinition, id: string): StrategyDefinition => ({
    manifest: def.manifest,
    create: (ctx: StrategyContext) => {
      const current = new AsyncLocalStorage<string>();
      const orders = { ...ctx.orders };
      for (const name of EMITTING) {
        const fn = ctx.orders[name] as (...a: unknown[]) => unknown;
        (orders as Record<string, unknown>)[name] = (...args: unknown[]): unknown => {
          const result = fn.apply(ctx.orders, args);
          if (this.emissions.length >= this.max) this.dropped++;
          else this.emissions.push({ time: ctx.clock.now(), strategy: id, handler: current.getStore() ?? 'unknown', call: JSON.stringify({ [name]: args, returned: result ?? null }) });
          return result;
        };
      }
      const inTimer = (fn: () => void | Promise<void>) => (): void | Promise<void> => current.run('onTimer', fn);
      const clock: Clock = {
        now: () => ctx.clock.now(),
        setTimeout: (fn, ms) => ctx.clock.setTimeout(inTimer(fn) as () => void, ms),
        setInterval: (fn, ms) => ctx.clock.setInterval(inTimer(fn) as () => void, ms),
        sleep: (ms) => ctx.clock.sleep(ms),
      };
      const tagged = <T>(src: Observable<T>, kind: string): Observable<T> => new Observable<T>((sub) => src.subscribe({
        next: (v) => current.run(`bus:${kind}`, () => sub.next(v)),
        error: (e: unknown) => sub.error(e),
        complete: () => sub.complete(),
      }));
      const handlers = def.create({
        ...ctx,
        orders,
        clock,
        every: (ms, fn) => ctx.every(ms, inTimer(fn)),
        bus: {
          on: <K extends EventKind>(kind: K) => tagged(ctx.bus.on(kind), kind),
          forSymbol: <K extends SymbolEventKind>(kind: K, symbol: string) => tagged(ctx.bus.forSymbol(kind, symbol), kind),
        },
      });
      const wrapped: Record<string, unknown> = {};
      for (const name of HANDLERS) {
        const fn = handlers[name] as ((...a: unknown[]) => unknown) | undefined;
        if (typeof fn === 'function') wrapped[name] = (...args: unknown[]): unknown => current.run(name, () => fn.apply(handlers, args));
      }
      return wrapped as StrategyHandlers;
    },
  });
}
