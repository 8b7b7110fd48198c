/**
 * Bar mode, for data that holds only klines: coarser than L2, with no queue and no depth. Within
 * a bar the price is taken to move open → the nearer extreme → the other extreme → close (on a tie,
 * the extreme against the bar's direction first: low first in a rising bar). Orders fill along that
 * path in full: a market order at the open; a limit where the path touches its price, at its price
 * (at the open when the bar opens through it); a stop where the path reaches its trigger, at the
 * trigger (at the open when the bar gaps through it), then as a market order, or as a limit from
 * there when it has a limit price. A bar reaches the strategy at its close time, never before.
 */

/** One kline in integer ticks; closeTime is when it becomes visible. */
export interface Bar {
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

/** A working order in bar mode. */
export interface BarOrder {
  readonly id: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: 'MARKET' | 'LIMIT' | 'STOP';
  /** Limit price in ticks (LIMIT, and a STOP that becomes a limit once triggered). */
  readonly priceTicks?: number;
  /** Trigger in ticks (STOP). */
  readonly triggerTicks?: number;
}

/** A fill on a bar: the order, its price, where on the path (0 the open, 1–3 the legs), and whether it rested (maker). */
export interface BarFill {
  readonly id: string;
  readonly priceTicks: number;
  readonly leg: number;
  readonly isMaker: boolean;
}

/** Returns the bar's price path: open, the nearer extreme, the other extreme, close. */
export function barPath(bar: Bar): [number, number, number, number] {
  const toHigh = bar.high - bar.open;
  const toLow = bar.open - bar.low;
  const lowFirst = toLow < toHigh || (toLow === toHigh && bar.close >= bar.open);
  return lowFirst ? [bar.open, bar.low, bar.high, bar.close] : [bar.open, bar.high, bar.low, bar.close];
}

/** Returns the time a bar reaches the strategy: its close. */
export function barVisibleAt(bar: Bar): number {
  return bar.closeTime;
}

/** Returns true when a limit at `limit` is reached on a span of prices (buy: at or below; sell: at or above). */
function reaches(side: 'BUY' | 'SELL', limit: number, lo: number, hi: number): boolean {
  return side === 'BUY' ? lo <= limit : hi >= limit;
}

/** Returns the first leg (1–3) from `fromLeg` on which the path reaches `price` from its side, or -1. */
function firstTouch(path: readonly number[], fromLeg: number, test: (lo: number, hi: number) => boolean): number {
  for (let leg = fromLeg; leg <= 3; leg++) {
    const a = path[leg - 1]!;
    const b = path[leg]!;
    if (test(Math.min(a, b), Math.max(a, b))) return leg;
  }
  return -1;
}

/** Returns how `o` fills on `bar`, or undefined when it does not. */
export function fillOnBar(bar: Bar, o: BarOrder): BarFill | undefined {
  return fillFrom(barPath(bar), 0, o);
}

/**
 * Returns how `o` fills on a bar's path when it starts working at point `from` of it (0 the open,
 * 1–2 an extreme: an order that reaches the exchange during a bar works from the start of the leg it
 * arrives in), or undefined when it does not.
 */
export function fillFrom(path: readonly number[], from: number, o: BarOrder): BarFill | undefined {
  const open = path[from]!;
  const buy = o.side === 'BUY';
  switch (o.type) {
    case 'MARKET':
      return { id: o.id, priceTicks: open, leg: from, isMaker: false };
    case 'LIMIT':
      return limitFrom(o, path, from, open);
    case 'STOP': {
      const t = o.triggerTicks!;
      let at: number;
      let leg: number;
      if (buy ? open >= t : open <= t) {
        at = open;
        leg = from;
      } else {
        leg = firstTouch(path, from + 1, (lo, hi) => (buy ? hi >= t : lo <= t));
        if (leg < 0) return undefined;
        at = t;
      }
      if (o.priceTicks === undefined) return { id: o.id, priceTicks: at, leg, isMaker: false };
      // A stop-limit: marketable at the trigger point when its limit allows, else it rests from there.
      if (buy ? o.priceTicks >= at : o.priceTicks <= at) return { id: o.id, priceTicks: at, leg, isMaker: false };
      return limitFrom(o, path, leg, at);
    }
    default:
      throw new Error(`unknown bar order type ${JSON.stringify(o.type satisfies never)}`);
  }
}

/**
 * Fills a limit that starts working on `leg` at price `at` (the open for leg 0): at `at` when it is
 * already through, else where the rest of the path touches it.
 */
function limitFrom(o: BarOrder, path: readonly number[], leg: number, at: number): BarFill | undefined {
  const limit = o.priceTicks!;
  const buy = o.side === 'BUY';
  if (buy ? at <= limit : at >= limit) return { id: o.id, priceTicks: at, leg, isMaker: false };
  // The rest of the leg it started on runs from `at` to that leg's end.
  if (leg >= 1) {
    const end = path[leg]!;
    if (reaches(o.side, limit, Math.min(at, end), Math.max(at, end))) return { id: o.id, priceTicks: limit, leg, isMaker: true };
  }
  const hit = firstTouch(path, leg + 1, (lo, hi) => reaches(o.side, limit, lo, hi));
  return hit < 0 ? undefined : { id: o.id, priceTicks: limit, leg: hit, isMaker: true };
}

/** Returns the fills of `orders` on `bar`, in path order (by leg, then the order given). */
export function fillsOnBar(bar: Bar, orders: readonly BarOrder[]): BarFill[] {
  const out: BarFill[] = [];
  for (const o of orders) {
    const f = fillOnBar(bar, o);
    if (f) out.push(f);
  }
  return out.sort((a, b) => a.leg - b.leg);
}
