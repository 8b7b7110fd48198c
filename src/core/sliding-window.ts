/** The one sliding-window rate counter (venue budgets, the executor's budget, the risk gate's order rate, strategies' own budgets): never lets more than `limit` units fall inside any span of `windowMs`. */

/**
 * Charges are kept as (time, cost) pairs in arrays read from a moving head, so eviction is O(1)
 * amortised even for a day window of 350 000 orders. A sliding window is stricter than the venue's
 * fixed windows, whatever their alignment, so a request it lets through never breaks a venue limit.
 */
export class SlidingWindow {
  private times: number[] = [];
  private costs: number[] = [];
  private head = 0;
  private used = 0;

  constructor(readonly windowMs: number, readonly limit = Infinity, readonly name = '') {}

  /** Returns the units used in (now − windowMs, now]. */
  count(now: number): number {
    this.evict(now);
    return this.used;
  }

  /** Returns how many ms from `now` until `cost` more fits (0 when it fits now). */
  waitFor(cost: number, now: number): number {
    this.evict(now);
    let excess = this.used + cost - this.limit;
    if (excess <= 0) return 0;
    for (let i = this.head; i < this.times.length; i++) {
      excess -= this.costs[i]!;
      if (excess <= 0) return this.times[i]! + this.windowMs - now;
    }
    return this.windowMs;
  }

  /** Records `cost` units used at `now` (a time before the newest charge counts as that newest time, so the log stays in order). */
  charge(cost: number, at: number): void {
    const last = this.times.length - 1;
    const now = last >= this.head ? Math.max(at, this.times[last]!) : at;
    this.evict(now);
    // Charges of the same millisecond share one entry: the log stays short at thousands of requests a second.
    if (last >= this.head && this.times[last] === now) this.costs[last]! += cost;
    else {
      this.times.push(now);
      this.costs.push(cost);
    }
    this.used += cost;
  }

  /** Takes over the charges of a window being replaced, so a limit change does not forget recent use. */
  inherit(other: SlidingWindow): void {
    for (let i = other.head; i < other.times.length; i++) this.charge(other.costs[i]!, other.times[i]!);
  }

  private evict(now: number): void {
    const edge = now - this.windowMs;
    while (this.head < this.times.length && this.times[this.head]! <= edge) {
      this.used -= this.costs[this.head]!;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.costs = this.costs.slice(this.head);
      this.head = 0;
    }
  }
}
