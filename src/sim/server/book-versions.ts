/** Book versions of the market stream: the changes of each symbol's book not yet cut into a diff, and the count of diffs cut, moved past pauses in listening. */
import type { WsLevel } from './market-source.ts';

/** Levels changed since the symbol's last diff, by price. */
interface PendingDiff {
  readonly b: Map<string, string>;
  readonly a: Map<string, string>;
}

/**
 * Versions read `<n>_<id>` like the venue's "112801745_18": `n` counts the diffs cut from the symbol's
 * book and `id` is the symbol's fixed number on the venue. Changes are kept for every symbol, listened
 * to or not, so that versions count the same diffs for everyone. After a pause (no connection, nothing
 * followed) the first use of a symbol's version skips one: a version never names two books.
 */
export class BookVersions {
  private readonly diffs = new Map<string, PendingDiff>();
  /** The number of diffs cut per symbol, and the listening period it was last used in. */
  private readonly counters = new Map<string, { n: number; period: number }>();
  /** Counts the pauses with no connection open. */
  private period = 0;

  /** Notes a level's new total (qty "0" removes it) for the symbol's next diff. */
  note(symbol: string, side: 'BID' | 'ASK', price: string, qty: string): void {
    let d = this.diffs.get(symbol);
    if (!d) this.diffs.set(symbol, (d = { b: new Map(), a: new Map() }));
    (side === 'BID' ? d.b : d.a).set(price, qty);
  }

  /** Returns the symbols with uncut changes. */
  pending(): string[] {
    return [...this.diffs.keys()];
  }

  /** Cuts the symbol's pending changes into its next diff; returns the diff's levels, or undefined when nothing changed. */
  cut(symbol: string): { b: WsLevel[]; a: WsLevel[] } | undefined {
    const d = this.diffs.get(symbol);
    if (d === undefined) return undefined;
    this.diffs.delete(symbol);
    this.counter(symbol).n += 1;
    return { b: [...d.b] as WsLevel[], a: [...d.a] as WsLevel[] };
  }

  /** Returns the symbol's book version: diffs cut so far, then `bookId`. */
  version(symbol: string, bookId: number | string): string {
    return `${this.counter(symbol).n}_${bookId}`;
  }

  /** Starts a pause: uncut changes are inside any later snapshot, and the versions go on past it. */
  pause(): void {
    this.diffs.clear();
    this.period += 1;
  }

  private counter(symbol: string): { n: number; period: number } {
    let c = this.counters.get(symbol);
    if (!c) this.counters.set(symbol, (c = { n: 0, period: 0 }));
    if (c.period !== this.period) {
      c.n += 1;
      c.period = this.period;
    }
    return c;
  }
}
