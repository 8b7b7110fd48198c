/**
 * The clock a parity backtest's strategies run on: the backtest's VirtualClock, except that their
 * intervals tick on the live run's grid, each tick as late as the live one fired (a busy event loop
 * delays a live timer by tens of ms, and the strategy then decides on a book that has moved).
 * The n-th interval of a period a strategy makes is the n-th the live run's strategies made with that
 * period: a recording marks the intervals strategies made, and only those are twins (the venue's and
 * the bot's own intervals of the same period start within the same second). A recording without marks
 * falls back to the intervals made within `windowMs` before the strategies started.
 */
import type { Clock, TimerHandle, VirtualClock } from '../../core/clock.ts';
import type { GridInterval } from './grid-clock.ts';

/** Returns `clock` with its intervals on the live run's `intervals` (the strategies', or those made within `windowMs` before `startedAt` when none is marked). */
export function laggedClock(clock: VirtualClock, intervals: readonly GridInterval[], startedAt: number, windowMs = 1_000): Clock {
  const marked = intervals.filter((i) => i.strategy === true);
  const candidates = marked.length > 0 ? marked : intervals.filter((i) => i.start <= startedAt && i.start >= startedAt - windowMs);
  const used = new Set<GridInterval>();
  return {
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    sleep: (ms) => clock.sleep(ms),
    setInterval: (fn, ms): TimerHandle => {
      const period = Math.max(1, ms);
      const twin = candidates.find((i) => i.period === period && !used.has(i));
      if (twin === undefined) return clock.setInterval(fn, ms);
      used.add(twin);
      const late = new Map(twin.late);
      let k = 0;
      let live = true;
      let timer: TimerHandle | undefined;
      const next = (): void => {
        // As live: after a tick later than a period the missed ones are dropped, the next is the first grid point ahead.
        k = Math.max(k + 1, Math.floor((clock.now() - twin.start) / period) + 1);
        const due = twin.start + k * period + (late.get(k) ?? 0);
        timer = clock.setTimeout(() => {
          if (!live) return;
          next();
          fn();
        }, due - clock.now());
      };
      next();
      return { cancel: () => { live = false; timer?.cancel(); } };
    },
  };
}
