// A replayed symbol's book as the bus carries it live (depthUpdate, depthSnapshot), made from the replay's depth batches: the runner reads batches and makes text for the strategies only.
import { StepFormatter } from '../../data/instruments.ts';
import { SIDE } from '../../data/tables.ts';
import { depthSnapshotEvent, depthUpdateEvent, type BusEvent, type DepthBatchEvent, type Level } from '../../model/index.ts';

/**
 * One side of the view: its prices in ticks and lots best first, and the text of the levels an event
 * shows (all of them uncapped, the first `cap` capped). A message's changes are merged into new lists in
 * one pass (no insertion per level), and the shown levels into a new list only when one of them changed:
 * a list given to an event is never written again, so events share it instead of copying it. A level
 * gets its text only once it is shown: most of a deep book's changes never are.
 */
class ViewSide {
  /** The text of the shown levels (the first min(cap, length) slots), the list the last event got or the next one gets. */
  private levels: Level[] = [];
  /** The side's length (slots of `prices` and `lots` in use). */
  private len = 0;
  /** The prices in ticks and lots, best first; the spares are the buffers the next lists are made in. */
  private prices = new Float64Array(1024);
  private spare = new Float64Array(1024);
  private lots = new Float64Array(1024);
  private spareLots = new Float64Array(1024);
  /** The current message's changes to this side (the first `n`): price in ticks, lots (0 removes) and level, in message order. */
  private n = 0;
  private cPrice = new Float64Array(64);
  private cLots = new Float64Array(64);
  private readonly cLevel: Level[] = [];
  /** Indexes of the changes, sorted best first. */
  private order = new Int32Array(64);
  /** The sorted changes' prices times the side's direction (ascending is best first), beside `order`. */
  private key = new Float64Array(64);
  /** Where each slot of the next list comes from (see apply); buffers are reused, never shrunk: no allocation per message but the shown list. */
  private from = new Int32Array(1024);

  /** dir 1: asks (lowest best); -1: bids (highest best). `cap`: the most levels an event shows (Infinity: all). */
  constructor(private readonly dir: 1 | -1, private readonly cap: number) {}

  /** The levels an event shows now. */
  shown(): Level[] {
    return this.levels;
  }

  /** Adds a change; `level` is its text when the message's update was made (shared with it), else apply makes it. */
  change(price: number, lots: number, level: Level | undefined): void {
    const n = this.n;
    if (n === this.cPrice.length) {
      const cap = 2 * n;
      const price = new Float64Array(cap);
      const lots = new Float64Array(cap);
      price.set(this.cPrice);
      lots.set(this.cLots);
      this.cPrice = price;
      this.cLots = lots;
      this.order = new Int32Array(cap);
      this.key = new Float64Array(cap);
    }
    this.cPrice[n] = price;
    this.cLots[n] = lots;
    if (level !== undefined) this.cLevel[n] = level;
    this.n = n + 1;
  }

  /**
   * Applies the message's changes (a snapshot's replace every level) and makes the side's new lists. `given`:
   * change() was given the changes' text; `text` makes the rest of what is shown.
   */
  apply(replace: boolean, text: LevelText, given: boolean): void {
    const n = this.n;
    if (n === 0 && !replace) return;
    this.n = 0;
    const cp = this.cPrice;
    const dir = this.dir;
    // Insertion sort of the few changes, best first; of two changes to one price the later sorts after (and wins).
    const order = this.order;
    const key = this.key;
    for (let j = 0; j < n; j++) {
      const q = cp[j]! * dir;
      let k = j;
      while (k > 0 && key[k - 1]! > q) {
        key[k] = key[k - 1]!;
        order[k] = order[k - 1]!;
        k--;
      }
      key[k] = q;
      order[k] = j;
    }
    const oldP = this.prices;
    const oldLots = this.lots;
    const m = replace ? 0 : this.len;
    if (this.spare.length < m + n) {
      this.spare = new Float64Array(2 * (m + n));
      this.spareLots = new Float64Array(2 * (m + n));
      this.from = new Int32Array(2 * (m + n));
    }
    // The merge runs on prices and lots; each new slot notes where it comes from (an old slot, or change j as ~j).
    const prices = this.spare;
    const lots = this.spareLots;
    const cLots = this.cLots;
    const from = this.from;
    let out = 0;
    let i = 0;
    for (let k = 0; k < n; k++) {
      const j = order[k]!;
      const p = cp[j]!;
      if (k + 1 < n && cp[order[k + 1]!] === p) continue;
      while (i < m && (oldP[i]! - p) * dir < 0) {
        from[out] = i;
        lots[out] = oldLots[i]!;
        prices[out++] = oldP[i++]!;
      }
      if (i < m && oldP[i] === p) i++;
      const q = cLots[j]!;
      if (q !== 0) {
        from[out] = ~j;
        lots[out] = q;
        prices[out++] = p;
      }
    }
    // The levels past the last change (most of a deep side) are copied whole; only the shown ones need their origin.
    if (i < m) {
      prices.set(oldP.subarray(i, m), out);
      lots.set(oldLots.subarray(i, m), out);
      const stop = Math.min(m, i + Math.max(0, this.cap - out));
      for (let f = i; f < stop; f++) from[out + f - i] = f;
      out += m - i;
    }
    this.spare = oldP;
    this.prices = prices;
    this.spareLots = oldLots;
    this.lots = lots;
    this.len = out;
    const oldL = this.levels;
    const shownN = Math.min(this.cap, out);
    // The first shown slot whose level is not the old one at the same slot: none (and the same length) keeps the old list.
    let first = 0;
    while (first < shownN && from[first] === first) first++;
    if (first === shownN && shownN === oldL.length) return;
    const levels = new Array<Level>(shownN);
    for (let o = 0; o < first; o++) levels[o] = oldL[o]!;
    const changed = this.cLevel;
    for (let o = first; o < shownN; o++) {
      const f = from[o]!;
      if (f >= 0 && f < oldL.length) levels[o] = oldL[f]!;
      else if (f < 0 && given) levels[o] = changed[~f]!;
      else levels[o] = text.level(prices[o]!, lots[o]!);
    }
    this.levels = levels;
  }
}

const REMOVAL_SLOTS = 1 << 12;

/** Makes a level's text from ticks and lots. */
interface LevelText {
  level(price: number, lots: number): Level;
}

/**
 * The events the live client's LocalBook publishes for the messages the replay's TickBook applied:
 * a diff's levels in message order as a depthUpdate (and the whole book after it when every update is
 * to carry one), a snapshot's whole book as a depthSnapshot. The TickBook already kept the book's
 * rules (versions, gaps, buffering), so every batch here applies; text is made once per changed level.
 */
export class DepthView {
  private readonly price: StepFormatter;
  private readonly qty: StepFormatter;
  /** Removal levels ([price, "0"]) of recent prices, a slot per price modulo the size: levels are immutable, so events share them. */
  private readonly removalTicks = new Float64Array(REMOVAL_SLOTS).fill(NaN);
  private readonly removals = new Array<Level>(REMOVAL_SLOTS);
  private readonly bids: ViewSide;
  private readonly asks: ViewSide;

  /** `levels`: the most levels a side of a snapshot event shows (the venue's depth push limit), Infinity for the whole book. */
  constructor(readonly symbol: string, tick: string, lot: string, private readonly snapshotEveryUpdate: boolean, levels = Infinity) {
    this.price = new StepFormatter(tick);
    this.qty = new StepFormatter(lot);
    this.bids = new ViewSide(-1, levels);
    this.asks = new ViewSide(1, levels);
  }

  /**
   * Calls `publish` with the bus events of one batch, in order. `updates` false: nobody reads this
   * symbol's depthUpdate now, so none is made (the book it would carry still moves the snapshots).
   */
  events(ev: DepthBatchEvent, publish: (ev: BusEvent) => void, updates = true): void {
    // The whole book is shown after a snapshot (its rows are the book) and, when asked, after every diff: only then is it kept.
    const keep = ev.snapshot || this.snapshotEveryUpdate;
    if (!ev.snapshot && updates) this.update(ev, keep, publish);
    else if (keep) {
      const { side, price, qty } = ev;
      for (let i = 0; i < side.length; i++) {
        const s = side[i]!;
        if (s === SIDE.BID) this.bids.change(price[i]!, qty[i]!, undefined);
        else if (s !== SIDE.NONE) this.asks.change(price[i]!, qty[i]!, undefined);
      }
    }
    if (!keep) return;
    const given = !ev.snapshot && updates;
    this.bids.apply(ev.snapshot, this, given);
    this.asks.apply(ev.snapshot, this, given);
    publish(depthSnapshotEvent({ symbol: this.symbol, version: ev.version, bids: this.bids.shown(), asks: this.asks.shown(), ts: ev.ts, recvTs: ev.recvTs }));
  }

  /** Returns the level of `p` ticks with `lots` (a new tuple: a kept list never holds a removal). */
  level(p: number, lots: number): Level {
    return [this.price.format(p), this.qty.format(lots)];
  }

  /** Publishes a diff's levels in message order as a depthUpdate, and hands them to the sides when the book is kept. */
  private update(ev: DepthBatchEvent, keep: boolean, publish: (ev: BusEvent) => void): void {
    const { side, price, qty } = ev;
    // The update's lists at their length from the start (no growing them level by level).
    let nb = 0;
    let na = 0;
    for (let i = 0; i < side.length; i++) {
      if (side[i] === SIDE.BID) nb++;
      else if (side[i] !== SIDE.NONE) na++;
    }
    const bids = new Array<Level>(nb);
    const asks = new Array<Level>(na);
    nb = 0;
    na = 0;
    for (let i = 0; i < side.length; i++) {
      const s = side[i]!;
      if (s === SIDE.NONE) continue;
      const p = price[i]!;
      const lots = qty[i]!;
      const l = lots === 0 ? this.removal(p) : this.level(p, lots);
      if (s === SIDE.BID) {
        if (keep) this.bids.change(p, lots, l);
        bids[nb++] = l;
      } else {
        if (keep) this.asks.change(p, lots, l);
        asks[na++] = l;
      }
    }
    publish(depthUpdateEvent({ symbol: this.symbol, version: ev.version, bids, asks, ts: ev.ts, recvTs: ev.recvTs }));
  }

  private removal(p: number): Level {
    const slot = p & (REMOVAL_SLOTS - 1);
    if (this.removalTicks[slot] === p) return this.removals[slot]!;
    const l: Level = [this.price.format(p), '0'];
    this.removalTicks[slot] = p;
    this.removals[slot] = l;
    return l;
  }
}
