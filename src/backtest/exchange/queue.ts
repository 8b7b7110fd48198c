/**
 * Queue position of a resting order at a recorded level. The size ahead starts as the level's
 * recorded size when the order arrives; recorded trades at the price eat it; a decrease of the
 * level advances it as the model says. Models follow hftbacktest's: risk-averse (only trades
 * advance) and probabilistic, where the share of a decrease that happened ahead of the order is
 * 1 − p with p = f(back) / (f(back) + f(front)) — the more size behind, the likelier a cancel was
 * behind — for f(x) = x^n (power) or f(x) = ln(1 + x) (log). Expected values, so runs are deterministic.
 */
import { assertNever } from '../../risk/terms.ts';

/** Position state of one resting order. */
export interface QueuePos {
  /** Estimated lots ahead (may go negative within one trade before the fill is taken out). */
  ahead: number;
  /** Lots traded at the level since its last recorded change (so a decrease they caused is not counted twice). */
  tradedSinceDepth: number;
}

/** A queue model: how trades and level decreases move the size ahead. */
export interface QueueModel {
  readonly name: string;
  /** Applies a recorded level change from `prev` to `next` lots. */
  depth(q: QueuePos, prev: number, next: number): void;
}

/** Applies a recorded trade of `lots` at the order's price. */
export function queueTrade(q: QueuePos, lots: number): void {
  q.ahead -= lots;
  q.tradedSinceDepth += lots;
}

/** Only trades advance the order; a level shrinking below the size ahead caps it. */
export const riskAverse: QueueModel = {
  name: 'risk-averse',
  depth(q, _prev, next) {
    q.tradedSinceDepth = 0;
    if (q.ahead > next) q.ahead = next;
  },
};

/** Returns a probabilistic model with `f` weighting the sizes ahead and behind. */
function probabilistic(name: string, f: (x: number) => number): QueueModel {
  return {
    name,
    depth(q, prev, next) {
      // Trades already advanced the order; only the rest of the decrease is cancels.
      const chg = prev - next - q.tradedSinceDepth;
      q.tradedSinceDepth = 0;
      if (chg <= 0) {
        if (q.ahead > next) q.ahead = next;
        return;
      }
      const front = Math.max(q.ahead, 0);
      const back = Math.max(prev - front, 0);
      const fb = f(back);
      const ff = f(front);
      const p = fb + ff > 0 ? fb / (fb + ff) : 1;
      // Share 1 − p of the cancels was ahead; cancels beyond the size behind must have been ahead too.
      const est = front - (1 - p) * chg + Math.min(back - p * chg, 0);
      q.ahead = Math.min(est, next);
    },
  };
}

/** Returns the power model, f(x) = x^n (n = 2 or 3 are common choices). */
export function powerQueue(n: number): QueueModel {
  if (!(n > 0)) throw new Error(`queue model power must be above 0, got ${n}`);
  return probabilistic(`power-${n}`, (x) => Math.pow(x, n));
}

/** The log model, f(x) = ln(1 + x). */
export const logQueue: QueueModel = probabilistic('log', (x) => Math.log1p(x));

/** Returns the queue model a config names: 'risk-averse', 'log', or 'power' with its exponent. */
export function queueModel(spec: { model: 'risk-averse' } | { model: 'log' } | { model: 'power'; n: number }): QueueModel {
  switch (spec.model) {
    case 'risk-averse':
      return riskAverse;
    case 'log':
      return logQueue;
    case 'power':
      return powerQueue(spec.n);
    default:
      return assertNever(spec);
  }
}
