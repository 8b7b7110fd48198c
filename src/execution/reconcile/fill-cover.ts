/**
 * Which part of an order's executed quantity the bot has counted as fills, as ranges of cumulative
 * quantity (lo, hi]. A stream report names its fill as (z − l, z]; myTrades names the k-th trade of an
 * order as (sum of the earlier ones, + its qty]. A fill is counted only for the part of its range not
 * covered yet, so a fill seen both ways, or twice either way, is counted once, and the counted
 * quantities of an order add up to its executed quantity once every fill was seen. Pure; exact scaled
 * integers (it runs on every fill, on the way to the strategy).
 */
import { compareScaled, maxScaled, minScaled, SCALED_ZERO, subScaled, type Scaled } from '../../core/fixed.ts';

/** Disjoint covered ranges of one order, ascending. */
export type Cover = readonly (readonly [Scaled, Scaled])[];

/** Returns the quantity of (lo, hi] that `cover` does not hold. */
export function uncoveredQty(cover: Cover, lo: Scaled, hi: Scaled): Scaled {
  let left = subScaled(hi, lo);
  for (const [a, b] of cover) {
    // Ranges wholly below lo (the usual case: fills arrive in order) take nothing away.
    if (compareScaled(b, lo) <= 0) continue;
    const from = maxScaled(a, lo);
    const to = minScaled(b, hi);
    if (compareScaled(to, from) > 0) left = subScaled(left, subScaled(to, from));
  }
  return maxScaled(left, SCALED_ZERO);
}

/** Returns `cover` with (lo, hi] added, merged with the ranges it touches. */
export function addCover(cover: Cover, lo: Scaled, hi: Scaled): Cover {
  if (compareScaled(hi, lo) <= 0) return cover;
  const last = cover[cover.length - 1];
  // In order: the new range starts where the last one ended (or after it), so no range moves.
  if (last === undefined || compareScaled(last[1], lo) < 0) return [...cover, [lo, hi]];
  if (compareScaled(last[1], lo) === 0) return [...cover.slice(0, -1), [last[0], hi]];
  const out: [Scaled, Scaled][] = [];
  let a = lo;
  let b = hi;
  for (const [x, y] of cover) {
    if (compareScaled(y, a) < 0 || compareScaled(x, b) > 0) out.push([x, y]);
    else {
      a = minScaled(a, x);
      b = maxScaled(b, y);
    }
  }
  out.push([a, b]);
  out.sort((p, q) => compareScaled(p[0], q[0]));
  return out;
}
