/**
 * When the live bot could first have read what the venue sent during a stall of its event loop: a book
 * change, a trade, a report of its own orders. The embedded venue and the bot share one process: a
 * strategy tick due at d that fired late at f says the loop was busy until f, and what the venue sent
 * at t within [d, f] went out in that stretch. The strategy's tick, already due, ran before the bot's
 * sockets were read, so it decided on what the bot knew before. The backtest's bot gets such a message
 * after that tick, not at the venue's time.
 *
 * Only the strategies' ticks count, and only with a witness that the loop did not read in between: a
 * timer can also fire late while the loop still reads its sockets. The recorder's socket and the user
 * stream's stamp each message as read, on clocks within a millisecond of the timers'; read more than
 * that before the tick fired, the message was read before it.
 *
 * The other way round, within one millisecond: a message sent before a tick was due and read after it
 * was due, in the millisecond the tick fired, was read as the loop polled its sockets, which comes
 * before the timers that fell due meanwhile. The backtest takes a timer before the events of its
 * millisecond, so such a message is received just before that millisecond.
 */
import type { GridInterval } from './grid-clock.ts';

/** Recorder and timers stamp with two clocks: a message read more than this before a tick fired was read before it. */
export const CLOCKS_APART_MS = 1;

/** The strategies' late ticks of a live run, each as [due, fired] (ms), by due time. */
export class Stalls {
  private readonly spans: [number, number][];
  private readonly longest: number;

  constructor(spans: [number, number][], private readonly intervals: readonly GridInterval[] = []) {
    this.spans = [...spans].sort((a, b) => a[0] - b[0]);
    this.longest = this.spans.reduce((m, s) => Math.max(m, s[1] - s[0]), 0);
  }

  /**
   * Returns the fire time of a strategy tick a message sent at `t` and read at `recv` (ms, with its fraction)
   * came before, though read in the millisecond the tick fired: the message was sent before the tick was
   * due and read after (undefined when none). Read after the tick was due and before it had fired, it was
   * read as the loop polled its sockets, which it does before it runs the timers that fell due meanwhile.
   */
  readBefore(t: number, recv: number): number | undefined {
    const ms = Math.floor(recv);
    for (const i of this.intervals) {
      const late = this.lateOf(i);
      const k1 = Math.floor((ms - i.start) / i.period);
      for (const k of [k1, k1 - 1]) {
        if (k < 1) continue;
        const due = i.start + k * i.period;
        const fired = due + (late.get(k) ?? 0);
        if (fired === ms && t < due && recv >= due) return fired;
      }
    }
    return undefined;
  }

  private readonly lates = new Map<GridInterval, Map<number, number>>();

  private lateOf(i: GridInterval): Map<number, number> {
    let m = this.lates.get(i);
    if (m === undefined) this.lates.set(i, (m = new Map(i.late)));
    return m;
  }

  /**
   * Returns the strategies' late ticks of `intervals`: those marked as theirs; a recording made before they
   * were marked counts those made as the strategies started (`from`, ms).
   */
  static of(intervals: readonly GridInterval[], from: number): Stalls {
    const marked = intervals.filter((i) => i.strategy === true);
    const theirs = marked.length > 0 ? marked : intervals.filter((i) => i.start >= from - 1 && i.start <= from);
    return new Stalls(theirs.flatMap((i) => i.late.map(([k, lag]): [number, number] => [i.start + k * i.period, i.start + k * i.period + lag])), theirs);
  }

  /**
   * Returns when the bot could first have read a message the venue sent at `t` and a witness read at
   * `recv` (ms): the latest fire time of a late tick due at or before t that fired at or after t and
   * no later than just after `recv` (undefined when none: the message is read as recorded).
   */
  end(t: number, recv = Infinity): number | undefined {
    let end: number | undefined;
    this.each(t, (s) => {
      if (recv >= s[1] - CLOCKS_APART_MS && (end === undefined || s[1] > end)) end = s[1];
    });
    return end;
  }

  /**
   * Returns the stalls in which the bot read at least one of its own order reports (venue time `ts`,
   * read at `recvTs`) only after the tick: the user stream witnessed them, so a report the backtest
   * makes in one of them reaches its bot after that tick as well. The user stream stamps with the
   * timers' own clock: a report read in an earlier millisecond than the tick fired was read before it.
   */
  witnessedBy(reports: readonly { ts: number; recvTs: number }[]): Stalls {
    const seen = new Set<[number, number]>();
    for (const r of reports) {
      this.each(r.ts, (s) => {
        if (r.recvTs >= s[1]) seen.add(s);
      });
    }
    return new Stalls([...seen]);
  }

  /** Calls `fn` with each span that holds `t` (due at or before it, fired at or after it). */
  private each(t: number, fn: (s: [number, number]) => void): void {
    const spans = this.spans;
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]![0] <= t) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0 && spans[i]![0] >= t - this.longest; i--) if (spans[i]![1] >= t) fn(spans[i]!);
  }
}
