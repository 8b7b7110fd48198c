/** Time for every component: a live clock on the wall, and a virtual clock that tests and backtests advance by hand. */

/** A scheduled callback that can be cancelled. */
export interface TimerHandle {
  cancel(): void;
}

/** The only source of time and timers below the app layer. */
export interface Clock {
  /** Returns the current time in epoch milliseconds. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Runs `fn` every `ms` milliseconds until cancelled. */
  setInterval(fn: () => void, ms: number): TimerHandle;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** A clock with a reading of its own that keeps another clock's timers (a clock that holds or moves the other's reading). */
export abstract class ReadingClock implements Clock {
  constructor(protected readonly inner: Clock) {}

  abstract now(): number;

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.inner.setTimeout(fn, ms);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.inner.setInterval(fn, ms);
  }

  sleep(ms: number): Promise<void> {
    return this.inner.sleep(ms);
  }
}

/** The wall clock, backed by Node's timers. Timers are unref'd so they never keep a process alive on their own. */
export class LiveClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    const t = setInterval(fn, Math.max(1, ms));
    t.unref?.();
    return { cancel: () => clearInterval(t) };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
}

/** A timer of the VirtualClock, and its own handle (no handle object nor closure per timer: a backtest makes one per order, cancel and report). */
class VirtualTimer implements TimerHandle {
  live = true;

  constructor(
    public at: number,
    public seq: number,
    readonly fn: () => void,
    readonly every: number,
  ) {}

  cancel(): void {
    this.live = false;
  }
}

/**
 * A clock that moves only when told to. Timers fire in (time, creation) order, so a run is
 * deterministic; `advance` lets pending promise continuations settle between timers, so async code
 * written against `Clock` behaves as it would live.
 */
export class VirtualClock implements Clock {
  private t: number;
  private seq = 0;
  private heap: VirtualTimer[] = [];

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.schedule(fn, Math.max(0, ms), 0);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.schedule(fn, Math.max(1, ms), Math.max(1, ms));
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Returns how many timers are waiting. */
  pending(): number {
    return this.heap.filter((x) => x.live).length;
  }

  /** Returns the time of the next live timer, or undefined when none waits. */
  nextAt(): number | undefined {
    this.dropDead();
    return this.heap[0]?.at;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting promise continuations run after each. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.t + ms);
  }

  /** Moves time to `target`, firing due timers in order and letting promise continuations run after each. */
  async advanceTo(target: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.nextAt();
      if (next === undefined || next > target) break;
      this.fireNext();
      await settle();
    }
    if (target > this.t) this.t = target;
    await settle();
  }

  /** Moves time to `target` firing due timers synchronously (for hot loops such as backtests). */
  advanceToSync(target: number): void {
    for (;;) {
      const next = this.nextAt();
      if (next === undefined || next > target) break;
      this.fireNext();
    }
    if (target > this.t) this.t = target;
  }

  private fireNext(): void {
    const timer = this.pop();
    if (!timer) return;
    if (timer.at > this.t) this.t = timer.at;
    if (timer.every > 0) {
      timer.at += timer.every;
      timer.seq = this.seq++;
      this.push(timer);
    } else {
      timer.live = false;
    }
    timer.fn();
  }

  private schedule(fn: () => void, delay: number, every: number): TimerHandle {
    const timer = new VirtualTimer(this.t + delay, this.seq++, fn, every);
    this.push(timer);
    return timer;
  }

  private dropDead(): void {
    while (this.heap.length > 0 && !this.heap[0]!.live) this.pop();
  }

  private push(x: VirtualTimer): void {
    const h = this.heap;
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const x = h[i]!;
      const y = h[p]!;
      if (!before(x, y)) break;
      h[i] = y;
      h[p] = x;
      i = p;
    }
  }

  private pop(): VirtualTimer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!)) m = l;
        if (r < h.length && before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        const x = h[i]!;
        h[i] = h[m]!;
        h[m] = x;
        i = m;
      }
    }
    return top;
  }
}

function before(a: VirtualTimer, b: VirtualTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** Lets queued promise continuations and I/O callbacks run (a few macrotask turns). */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
}

/** Waits for `p` at most `ms` on `clock`; returns false when the time ran out first (`p` goes on unawaited). A rejection of `p` passes through. */
export async function withinTime(clock: Clock, p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: TimerHandle | undefined;
  const late = new Promise<false>((r) => { t = clock.setTimeout(() => r(false), ms); });
  try {
    return await Promise.race([p.then(() => true as const), late]);
  } finally {
    t?.cancel();
  }
}
