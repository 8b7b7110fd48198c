/**
 * The wall clock of a parity check's live run: its intervals tick on a fixed grid (start + k × period)
 * instead of Node's, which start each period when the last callback ran and so drift by every late
 * tick. A backtest's VirtualClock ticks on that grid exactly; with the live ticks on it as well, a
 * strategy's timers decide at the same instants in both runs (a late tick is late, never pushes the next).
 */
import { LiveClock, type TimerHandle } from '../../core/clock.ts';

export class GridClock extends LiveClock {
  override setInterval(fn: () => void, ms: number): TimerHandle {
    const period = Math.max(1, ms);
    const start = this.now();
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
      next();
      fn();
    };
    next();
    return { cancel: () => { live = false; if (timer !== undefined) clearTimeout(timer); } };
  }
}
