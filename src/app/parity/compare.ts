/**
 * The comparison of a parity check: the live run's orders and fills against the backtest's on the same
 * recording. Fills are matched one to one: first the same order of the strategy's sequence (the n-th
 * order each side placed, at the same side, limit price and quantity) within 1 s; then, for the rest, the same side, price and
 * quantity within 1 s from another order (the sequences drifted apart by an order). Each fill left over
 * is given the cause of the difference.
 */
import { Decimal } from '../../core/fixed.ts';

/** A fill as both sides are compared: venue/exchange time in ms. */
export interface ParityFill {
  readonly time: number;
  readonly clientOrderId: string;
  readonly side: string;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  readonly feeAsset: string;
  readonly maker: boolean;
}

/** An order as both sides are compared: the time it was placed (ms). */
export interface ParityOrder {
  readonly time: number;
  readonly clientOrderId: string;
  readonly side: string;
  readonly type: string;
  readonly timeInForce: string | undefined;
  readonly price: string | undefined;
  readonly qty: string;
  /** When it ended unfilled or partly filled (cancelled, expired, refused), ms; undefined while open or once filled. */
  readonly cancelledAt?: number | undefined;
}

export type UnmatchedCause = 'queue' | 'latency' | 'own-impact' | 'diverged';

export interface MatchedFill {
  readonly live: ParityFill;
  readonly backtest: ParityFill;
  /** Whether the two came from the same order of the strategy's sequence. */
  readonly sameOrder: boolean;
  /** Backtest price less live price. */
  readonly priceDiff: string;
  /** Backtest time less live time, ms. */
  readonly timeDiffMs: number;
}

export interface UnmatchedFill {
  /** Which run had the fill the other did not. */
  readonly run: 'live' | 'backtest';
  readonly fill: ParityFill;
  readonly cause: UnmatchedCause;
  /** What was found: the other run's order of this place in the sequence and what it did. */
  readonly detail: string;
}

/** One run's money, in the money asset of the comparison. */
export interface RunMoney {
  readonly orders: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly volume: string;
  /** Fees in the money asset (a fee in the base valued at its fill's price). */
  readonly fees: string;
  /** Net position the fills left (base, or contracts). */
  readonly position: string;
  /** Cash flow of the fills less fees plus the position marked at the mark price. */
  readonly pnl: string;
  /** Value traded in the money asset (an inverse contract's fills at qty × multiplier ÷ price). */
  readonly turnover: string;
}

/** The n-th order of each run's sequence, side by side. */
export interface OrderPair {
  readonly seq: number;
  readonly live: ParityOrder | undefined;
  readonly backtest: ParityOrder | undefined;
}

export interface Comparison {
  readonly orders: readonly OrderPair[];
  readonly live: RunMoney;
  readonly backtest: RunMoney;
  readonly matched: readonly MatchedFill[];
  readonly unmatched: readonly UnmatchedFill[];
  /** Matched fills as a share of the live fills, percent (100 with no live fill). */
  readonly matchedPct: number;
  /** |backtest PnL − live PnL| as a share of |live PnL|, percent (undefined when live PnL is zero). */
  readonly pnlDiffPct: number | undefined;
  /** |backtest PnL − live PnL| in the money asset. */
  readonly pnlDiff: string;
  /** |backtest PnL − live PnL| in basis points of the live value traded (undefined when live traded nothing). */
  readonly pnlDiffBp: number | undefined;
  readonly causes: Readonly<Record<UnmatchedCause, number>>;
  /** Largest |price difference| of matched fills. */
  readonly maxPriceDiff: string;
  /** Mean |price difference| of matched fills. */
  readonly meanAbsPriceDiff: string;
}

export interface CompareInput {
  readonly live: { readonly orders: readonly ParityOrder[]; readonly fills: readonly ParityFill[] };
  readonly backtest: { readonly orders: readonly ParityOrder[]; readonly fills: readonly ParityFill[] };
  readonly base: string;
  /** The asset fees and PnL are counted in: the quote (spot, linear) or the margin asset (inverse). */
  readonly money: string;
  /** spot, linear or inverse (default spot). */
  readonly kind?: string;
  /** Quote units per contract (default 1). */
  readonly multiplier?: string;
  /** The price both runs' end positions are marked at. */
  readonly mark: string;
}

/** Fills further apart than this are never the same fill. */
export const MATCH_WINDOW_MS = 1_000;

/** Returns the strategy's sequence number of an order: the `n` of `<prefix>-<run>-<n>`. */
export function orderSeq(clientOrderId: string): number | undefined {
  const m = /-(\d+)$/.exec(clientOrderId);
  return m ? Number(m[1]) : undefined;
}

const isBuy = (side: string): boolean => side.startsWith('BUY');

/** Returns an order's limit price, undefined for one priced by the venue (market or MARKET-priced: no price is sent live, the backtest's results say "0"). */
function limitPrice(price: string | undefined): string | undefined {
  return price === undefined || new Decimal(price).isZero() ? undefined : price;
}

/**
 * Returns a run's orders with market prices alike, and its fills with the side of their order as the
 * strategy sent it (a contract's report names a fill BUY or SELL where the order was SELL_OPEN).
 */
function alike(run: CompareInput['live']): CompareInput['live'] {
  const orders = run.orders.map((o) => (o.price === limitPrice(o.price) ? o : { ...o, price: undefined }));
  const sides = new Map(orders.map((o) => [o.clientOrderId, o.side]));
  const fills = run.fills.map((f) => {
    const side = sides.get(f.clientOrderId);
    return side === undefined || side === f.side ? f : { ...f, side };
  });
  return { orders, fills };
}

/** Compares the two runs. */
export function compare(input: CompareInput): Comparison {
  const i = { ...input, live: alike(input.live), backtest: alike(input.backtest) };
  const live = [...i.live.fills].sort((a, b) => a.time - b.time);
  const bt = [...i.backtest.fills].sort((a, b) => a.time - b.time);
  const usedL = new Set<number>();
  const usedB = new Set<number>();
  const matched: MatchedFill[] = [];
  const pair = (li: number, bi: number, sameOrder: boolean): void => {
    usedL.add(li);
    usedB.add(bi);
    const l = live[li]!;
    const b = bt[bi]!;
    matched.push({ live: l, backtest: b, sameOrder, priceDiff: new Decimal(b.price).minus(l.price).toFixed(), timeDiffMs: b.time - l.time });
  };
  const near = (l: ParityFill, b: ParityFill): boolean => Math.abs(b.time - l.time) <= MATCH_WINDOW_MS && isBuy(l.side) === isBuy(b.side) && new Decimal(l.qty).eq(b.qty);
  // Pass 1: the same order of the sequence (same side, limit price and quantity), nearest in time first; a taker's fill price may differ.
  const limitOf = (orders: readonly ParityOrder[]): Map<string, string | undefined> => new Map(orders.map((o) => [o.clientOrderId, o.price]));
  const liveLimit = limitOf(i.live.orders);
  const btLimit = limitOf(i.backtest.orders);
  const sameLimit = (l: ParityFill, b: ParityFill): boolean => {
    const x = liveLimit.get(l.clientOrderId);
    const y = btLimit.get(b.clientOrderId);
    return x === undefined || y === undefined ? x === y : new Decimal(x).eq(y);
  };
  live.forEach((l, li) => {
    const seq = orderSeq(l.clientOrderId);
    let best = -1;
    bt.forEach((b, bi) => {
      if (usedB.has(bi) || orderSeq(b.clientOrderId) !== seq || !near(l, b) || !sameLimit(l, b)) return;
      if (best < 0 || Math.abs(b.time - l.time) < Math.abs(bt[best]!.time - l.time)) best = bi;
    });
    if (best >= 0) pair(li, best, true);
  });
  // Pass 2: the same side, price and quantity from another order of the sequence.
  live.forEach((l, li) => {
    if (usedL.has(li)) return;
    let best = -1;
    bt.forEach((b, bi) => {
      if (usedB.has(bi) || !near(l, b) || !new Decimal(l.price).eq(b.price)) return;
      if (best < 0 || Math.abs(b.time - l.time) < Math.abs(bt[best]!.time - l.time)) best = bi;
    });
    if (best >= 0) pair(li, best, false);
  });
  matched.sort((a, b) => a.live.time - b.live.time);

  const unmatched: UnmatchedFill[] = [
    ...live.filter((_, k) => !usedL.has(k)).map((f) => explain('live', f, live, i.live.orders, i.backtest.orders, bt)),
    ...bt.filter((_, k) => !usedB.has(k)).map((f) => explain('backtest', f, bt, i.backtest.orders, i.live.orders, live)),
  ].sort((a, b) => a.fill.time - b.fill.time);
  const causes: Record<UnmatchedCause, number> = { queue: 0, latency: 0, 'own-impact': 0, diverged: 0 };
  for (const u of unmatched) causes[u.cause]++;

  const lm = money(i.live.orders.length, live, i);
  const bm = money(i.backtest.orders.length, bt, i);
  const diff = new Decimal(bm.pnl).minus(lm.pnl).abs();
  const diffs = matched.map((m) => new Decimal(m.priceDiff).abs());
  return {
    orders: pairOrders(i.live.orders, i.backtest.orders), live: lm, backtest: bm, matched, unmatched, causes,
    matchedPct: live.length === 0 ? 100 : (100 * matched.length) / live.length,
    pnlDiffPct: new Decimal(lm.pnl).isZero() ? undefined : diff.div(new Decimal(lm.pnl).abs()).times(100).toNumber(),
    pnlDiff: diff.toFixed(),
    pnlDiffBp: new Decimal(lm.turnover).isZero() ? undefined : diff.div(lm.turnover).times(10_000).toNumber(),
    maxPriceDiff: diffs.reduce((a, b) => Decimal.max(a, b), new Decimal(0)).toFixed(),
    meanAbsPriceDiff: diffs.length === 0 ? '0' : diffs.reduce((a, b) => a.plus(b), new Decimal(0)).div(diffs.length).toDecimalPlaces(6).toFixed(),
  };
}

function pairOrders(live: readonly ParityOrder[], bt: readonly ParityOrder[]): OrderPair[] {
  const by = new Map<number, { live?: ParityOrder; backtest?: ParityOrder }>();
  for (const o of live) by.set(orderSeq(o.clientOrderId) ?? -1, { ...by.get(orderSeq(o.clientOrderId) ?? -1), live: o });
  for (const o of bt) by.set(orderSeq(o.clientOrderId) ?? -1, { ...by.get(orderSeq(o.clientOrderId) ?? -1), backtest: o });
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([seq, x]) => ({ seq, live: x.live, backtest: x.backtest }));
}

/** Returns a run's orders, fills, fees and PnL in the money asset, its position marked at `mark`. */
function money(orders: number, fills: readonly ParityFill[], i: CompareInput): RunMoney {
  const mult = new Decimal(i.multiplier ?? '1');
  let cash = new Decimal(0);
  let fees = new Decimal(0);
  let pos = new Decimal(0);
  let volume = new Decimal(0);
  let turnover = new Decimal(0);
  for (const f of fills) {
    const qty = new Decimal(f.qty);
    // An inverse contract's quantity is contracts of `multiplier` quote units: worth qty × multiplier ÷ price in the base.
    const notional = i.kind === 'inverse' ? qty.times(mult).div(f.price) : qty.times(mult).times(f.price);
    volume = volume.plus(i.kind === 'inverse' ? qty.times(mult) : notional);
    turnover = turnover.plus(notional);
    const buy = isBuy(f.side);
    pos = buy ? pos.plus(qty) : pos.minus(qty);
    // Spot and linear: a buy pays the notional and a sell receives it; inverse: a long gains as 1/price falls, so the signs turn.
    cash = (i.kind === 'inverse') === buy ? cash.plus(notional) : cash.minus(notional);
    // A fee in the base asset is valued at the fill's price; one in the money asset as it is.
    const fee = f.feeAsset === i.money || f.feeAsset === '' ? new Decimal(f.fee || '0') : f.feeAsset === i.base ? new Decimal(f.fee).times(f.price) : new Decimal(0);
    fees = fees.plus(fee);
  }
  const held = i.kind === 'inverse' ? pos.times(mult).div(i.mark).neg() : pos.times(mult).times(i.mark);
  const pnl = new Decimal(i.mark).isZero() ? cash.minus(fees) : cash.minus(fees).plus(held);
  return { orders, fills: fills.length, makerFills: fills.filter((f) => f.maker).length, volume: volume.toFixed(), fees: fees.toFixed(), position: pos.toFixed(), pnl: pnl.toFixed(), turnover: turnover.toFixed() };
}

/** Returns why `f` of run `run` has no counterpart in the other run. */
function explain(run: 'live' | 'backtest', f: ParityFill, ownFills: readonly ParityFill[], ownOrders: readonly ParityOrder[], otherOrders: readonly ParityOrder[], otherFills: readonly ParityFill[]): UnmatchedFill {
  const other = run === 'live' ? 'backtest' : 'live';
  const mine = ownOrders.find((o) => o.clientOrderId === f.clientOrderId);
  const seq = orderSeq(f.clientOrderId);
  const sameIntent = (o: ParityOrder): boolean => isBuy(o.side) === isBuy(f.side) && (o.price === undefined || mine?.price === undefined || new Decimal(o.price).eq(mine.price));
  // The other run's order in the same place of the sequence, else one of the same side and price placed within the window.
  const bySeq = otherOrders.find((o) => orderSeq(o.clientOrderId) === seq);
  const twin = bySeq !== undefined && sameIntent(bySeq) ? bySeq
    : otherOrders.find((o) => sameIntent(o) && mine !== undefined && Math.abs(o.time - mine.time) <= MATCH_WINDOW_MS);
  if (twin === undefined) {
    const at = bySeq === undefined ? `${other} placed no order #${seq}` : `${other}'s order #${seq} was ${bySeq.side} ${bySeq.qty} at ${bySeq.price ?? 'market'}`;
    return { run, fill: f, cause: 'diverged', detail: `the strategy's orders differ here (${at}): an earlier fill, or a book seen at another instant, changed its decisions` };
  }
  const twinFills = otherFills.filter((x) => x.clientOrderId === twin.clientOrderId);
  const did = twinFills.length === 0 ? 'did not fill' : `filled ${twinFills.map((x) => `${x.qty}@${x.price} at ${x.time - f.time} ms`).join(', ')}`;
  if (f.maker) {
    // The twin was not in the book when this fill happened: it came later, or its cancel (a replace) came earlier.
    if (twin.time > f.time) {
      return { run, fill: f, cause: 'latency', detail: `resting maker fill; ${other}'s order ${twin.clientOrderId} at the same price reached the venue ${twin.time - f.time} ms after it: the order was sent at another instant` };
    }
    if (twin.cancelledAt !== undefined && twin.cancelledAt <= f.time && twinFills.length === 0) {
      return { run, fill: f, cause: 'latency', detail: `resting maker fill; ${other}'s order ${twin.clientOrderId} at the same price was cancelled ${f.time - twin.cancelledAt} ms before it: its replace was sent at another instant` };
    }
    return { run, fill: f, cause: 'queue', detail: `resting maker fill; ${other}'s order ${twin.clientOrderId} at the same price ${did}: the queue position differs (${run === 'live' ? 'the backtest estimated more size ahead' : 'the backtest estimated less size ahead'})` };
  }
  // A taker fill shortly after one of the run's own fills traded into a book that fill had already changed.
  const recentOwn = ownFills.some((x) => x !== f && x.clientOrderId !== f.clientOrderId && x.time <= f.time && f.time - x.time <= MATCH_WINDOW_MS);
  if (recentOwn) {
    return { run, fill: f, cause: 'own-impact', detail: `taker fill within 1 s of the run's own previous fill; ${other}'s order ${twin.clientOrderId} ${did}: the book the order met had been changed by the strategy itself` };
  }
  return { run, fill: f, cause: 'latency', detail: `taker fill; ${other}'s order ${twin.clientOrderId} ${did}: it reached the book at another instant (sent ${twin.time - (mine?.time ?? f.time)} ms apart)` };
}
