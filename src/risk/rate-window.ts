/** Per-strategy sliding windows of accepted orders (the core's one rate counter), kept outside the checks so they stay pure; time comes from the snapshot's clock. */
import { SlidingWindow } from '../core/sliding-window.ts';

/** The longest window any order-rate limit uses (per minute). */
export const LONGEST_WINDOW_MS = 60_000;

/** The window lengths the gate's order-rate check reads. */
const WINDOWS_MS = [1_000, LONGEST_WINDOW_MS] as const;

/** Orders the gate accepted, per strategy, counted over the last second and the last minute. */
export class RateWindow {
  private readonly windows = new Map<string, Map<number, SlidingWindow>>();

  /** Returns how many orders `strategyId` placed in the window (now − windowMs, now]; windowMs is 1,000 or 60,000. */
  count(strategyId: string, now: number, windowMs: number): number {
    return this.windows.get(strategyId)?.get(windowMs)?.count(now) ?? 0;
  }

  /** Records an accepted order of `strategyId` at `now`. */
  record(strategyId: string, now: number): void {
    let ws = this.windows.get(strategyId);
    if (ws === undefined) this.windows.set(strategyId, (ws = new Map(WINDOWS_MS.map((ms) => [ms, new SlidingWindow(ms)]))));
    for (const w of ws.values()) w.charge(1, now);
  }
}
