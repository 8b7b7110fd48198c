/**
 * The wall clock of a parity check's live run: its intervals tick on a fixed grid (start + k × period)
 * instead of Node's, which start each period when the last callback ran and so drift by every late
 * tick. A backtest's VirtualClock ticks on that grid exactly; with the live ticks on it as well, a
 * strategy's timers decide at the same instants in both runs (a late tick is late, never pushes the
 * next). Each interval keeps how late its ticks fired, so a backtest can fire the same ticks as late.
 */
import { LiveClock, type Clock, type TimerHandle } from '../../core/clock.ts';

/** Late ticks kept at most, over all intervals (a 10-minute run of the market maker has a few thousand). */
export const MAX_LATE_TICKS = 1_000_000;

/** One interval of the live run: where its grid starts, its period and its ticks that fired at least 1 ms late ([k, ms late]). */
export interface GridInterval {
  readonly start: number;
  readonly period: number;
  readonly late: [number, number][];
  /** Set on an interval a strategy made (through `forStrategies`), not the venue or the bot's own machinery. */
  readonly strategy?: true;
}

export class GridClock extends LiveClock {
  /** Every interval made so far, in the order made. */
  readonly intervals: GridInterval[] = [];
  private lateCount = 0;

  override setInterval(fn: () => void, ms: number): TimerHandle {
    return this.interval(fn, ms, false);
  }

  /** Returns this clock for the strategies: their intervals are marked as theirs. */
  forStrategies(): Clock {
    return {
      now: () => this.now(),
      setTimeout: (fn, ms) => this.setTimeout(fn, ms),
      sleep: (ms) => this.sleep(ms),
      setInterval: (fn, ms) => this.interval(fn, ms, true),
    };
  }

  private interval(fn: () => void, ms: number, strategy: boolean): TimerHandle {
    const period = Math.max(1, ms);
    const start = this.now();
    const rec: GridInterval = strategy ? { start, period, late: [], strategy } : { start, period, late: [] };
    this.intervals.push(rec);
    let k = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const next = (): void => {
      // After a stall the missed ticks are dropped, not fired in a burst: the next is the first grid point ahead.
      k = Math.max(k + 1, Math.floor((this.now() - start) / period) + 1);
      timer = setTimeout(tick, Math.max(0, start + k * period - this.now()));
      timer.unref?.();
    };
    const tick = (): void => {
      if (!live) return;
      const lag = this.now() - (start + k * period);
      if (lag >= 1 && this.lateCount < MAX_LATE_TICKS) {
        this.lateCount++;
        rec.late.push([k, lag]);
      }
      next();
      fn();
    };
    next();
    return { cancel: () => { live = false; if (timer !== undefined) clearTimeout(timer); } };
  }
}
