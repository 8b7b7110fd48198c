/** An RxJS scheduler driven by a core Clock, so time-based operators run in virtual time in tests and backtests. */
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import type { Clock, TimerHandle } from '../core/clock.ts';

// One action per schedule() call, as RxJS's own AsyncAction: rescheduling it from inside its work
// (what interval() and the throttle/debounce operators do) replaces its timer rather than adding one.
class ClockAction<T> extends Subscription implements SchedulerAction<T> {
  private timer: TimerHandle | undefined;

  constructor(private readonly clock: Clock, private readonly work: (this: SchedulerAction<T>, state?: T) => void) {
    super(() => {
      this.timer?.cancel();
      this.timer = undefined;
    });
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.timer?.cancel();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.work.call(this, state);
    }, delay);
    return this;
  }
}

/** Returns an RxJS scheduler whose now() is the clock's time and whose timers are the clock's timers. */
export function schedulerFromClock(clock: Clock): SchedulerLike {
  return {
    now: () => clock.now(),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      return new ClockAction<T>(clock, work).schedule(state, delay);
    },
  };
}
