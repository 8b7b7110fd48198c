/**
 * Which part of an order's executed quantity the bot has counted as fills, as ranges of cumulative
 * quantity (lo, hi]. A stream report names its fill as (z − l, z]; myTrades names the k-th trade of an
 * order as (sum of the earlier ones, + its qty]. A fill is counted only for the part of its range not
 * covered yet, so a fill seen both ways, or twice either way, is counted once, and the counted
 * quantities of an order add up to its executed quantity once every fill was seen. Pure.
 */
import { Decimal } from '../../core/fixed.ts';

/** Disjoint covered ranges of one order, ascending. */
export type Cover = readonly (readonly [Decimal, Decimal])[];

/** Returns the quantity of (lo, hi] that `cover` does not hold. */
export function uncoveredQty(cover: Cover, lo: Decimal, hi: Decimal): Decimal {
  let left = hi.minus(lo);
  for (const [a, b] of cover) {
    const from = Decimal.max(a, lo);
    const to = Decimal.min(b, hi);
    if (to.gt(from)) left = left.minus(to.minus(from));
  }
  return Decimal.max(left, 0);
}

/** Returns `cover` with (lo, hi] added, merged with the ranges it touches. */
export function addCover(cover: Cover, lo: Decimal, hi: Decimal): Cover {
  if (!hi.gt(lo)) return cover;
  const out: [Decimal, Decimal][] = [];
  let a = lo;
  let b = hi;
  for (const [x, y] of cover) {
    if (y.lt(a) || x.gt(b)) out.push([x, y]);
    else {
      a = Decimal.min(a, x);
      b = Decimal.max(b, y);
    }
  }
  out.push([a, b]);
  out.sort((p, q) => p[0].comparedTo(q[0]));
  return out;
}
