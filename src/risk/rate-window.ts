/** Per-strategy sliding windows of accepted order times, kept outside the checks so they stay pure; time comes from the snapshot's clock. */

/** The longest window any order-rate limit uses (per minute). */
export const LONGEST_WINDOW_MS = 60_000;

/** Times of orders the gate accepted, per strategy, in ascending order. */
export class RateWindow {
  private readonly times = new Map<string, number[]>();

  /** Returns how many orders `strategyId` placed in the window (now − windowMs, now]. */
  count(strategyId: string, now: number, windowMs: number): number {
    const ts = this.times.get(strategyId);
    if (ts === undefined) return 0;
    const from = now - windowMs;
    // Binary search for the first time inside the window: the list is sorted.
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ts[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    return ts.length - lo;
  }

  /** Records an accepted order of `strategyId` at `now` and forgets times older than the longest window. */
  record(strategyId: string, now: number): void {
    let ts = this.times.get(strategyId);
    if (ts === undefined) {
      ts = [];
      this.times.set(strategyId, ts);
    }
    // A snapshot older than the newest entry keeps the list sorted by taking the newest time instead.
    ts.push(Math.max(now, ts[ts.length - 1] ?? now));
    const from = now - LONGEST_WINDOW_MS;
    let drop = 0;
    while (drop < ts.length && ts[drop]! <= from) drop++;
    if (drop > 0) ts.splice(0, drop);
  }
}
