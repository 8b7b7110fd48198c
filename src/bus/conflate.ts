/** Conflation for slow consumers of state-like streams (books, tickers): hold only the newest value, count what was skipped. */
import { from, Observable, type ObservableInput, type OperatorFunction, type Subscription } from 'rxjs';
import { BhError } from '../core/errors.ts';

// Conflate snapshots (depthSnapshot, ticker, position, index): each one is complete on its own, so
// the newest replaces the rest. Never conflate diffs (depthUpdate) or reports (order, trade): skipping
// one corrupts whatever is built from them.

/**
 * A one-slot mailbox read with `for await`: while the reader is busy, each new value replaces the
 * unread one (counted in `dropped`), so a reader that takes seconds per value still gets the newest
 * and memory stays at one value however fast values arrive.
 */
export class Latest<T> implements AsyncIterableIterator<T, undefined> {
  private slot: T | undefined;
  private full = false;
  private ended = false;
  private waiter: ((r: IteratorResult<T, undefined>) => void) | undefined;
  private detach: (() => void) | undefined;
  private droppedCount = 0;
  private receivedCount = 0;

  /** `detach` stops whatever feeds this mailbox; it is called once, on close. */
  constructor(detach?: () => void) {
    this.detach = detach;
  }

  /** Values replaced before the reader took them. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Values offered in all. */
  get received(): number {
    return this.receivedCount;
  }

  /** Values held and not yet read: 0 or 1. */
  get buffered(): number {
    return this.full ? 1 : 0;
  }

  /** Returns the newest unread value without taking it. */
  peek(): T | undefined {
    return this.slot;
  }

  /** Offers a value: hands it to a waiting reader, or keeps it in place of the unread one. */
  offer(v: T): void {
    if (this.ended) return;
    this.receivedCount++;
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w({ value: v, done: false });
      return;
    }
    if (this.full) this.droppedCount++;
    this.slot = v;
    this.full = true;
  }

  /** Returns the newest unread value, waiting for one when none is held; done once closed and drained. */
  next(): Promise<IteratorResult<T, undefined>> {
    if (this.full) {
      const v = this.slot as T;
      this.slot = undefined;
      this.full = false;
      return Promise.resolve({ value: v, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    if (this.waiter) {
      return Promise.reject(new BhError('LATEST_CONCURRENT_READ', 'Latest has one reader: await each next() before the next one', 'config'));
    }
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** Stops the feed; a value still held is read first, then iteration ends. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    const d = this.detach;
    this.detach = undefined;
    d?.();
    const w = this.waiter;
    this.waiter = undefined;
    w?.({ value: undefined, done: true });
  }

  /** Ends iteration early (a `break` out of `for await`). */
  return(): Promise<IteratorResult<T, undefined>> {
    this.close();
    this.slot = undefined;
    this.full = false;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Options of conflateMap. */
export interface ConflateOptions<T> {
  /** Called with each value that was replaced before `project` could take it. */
  onDrop?: (dropped: T) => void;
}

/**
 * Returns an operator that runs `project` on one value at a time, like concatMap, but keeps only the
 * newest value that arrives while `project` is busy (the others are dropped and reported to onDrop).
 * The first value starts at once; when `project` finishes, the newest waiting value starts next.
 */
export function conflateMap<T, R>(project: (v: T) => ObservableInput<R>, opts: ConflateOptions<T> = {}): OperatorFunction<T, R> {
  const onDrop = opts.onDrop;
  return (source) =>
    new Observable<R>((subscriber) => {
      let busy = false;
      let hasPending = false;
      let pending: T | undefined;
      let sourceDone = false;
      let inner: Subscription | undefined;

      const run = (v: T): void => {
        busy = true;
        let input: ObservableInput<R>;
        try {
          input = project(v);
        } catch (err) {
          subscriber.error(err);
          return;
        }
        inner = from(input).subscribe({
          next: (r) => subscriber.next(r),
          error: (err: unknown) => subscriber.error(err),
          complete: () => {
            busy = false;
            inner = undefined;
            if (hasPending) {
              const p = pending as T;
              hasPending = false;
              pending = undefined;
              run(p);
            } else if (sourceDone) {
              subscriber.complete();
            }
          },
        });
      };

      const outer = source.subscribe({
        next: (v) => {
          if (!busy) {
            run(v);
            return;
          }
          if (hasPending) onDrop?.(pending as T);
          pending = v;
          hasPending = true;
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          sourceDone = true;
          if (!busy) subscriber.complete();
        },
      });

      return () => {
        outer.unsubscribe();
        inner?.unsubscribe();
      };
    });
}
