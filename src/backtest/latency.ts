/** Latencies of the simulated links in milliseconds of the injected clock: constant, or drawn from a seeded distribution. */
import { ConfigError } from '../core/errors.ts';
import { Rng } from '../core/random.ts';

/**
 * One link's latency: a constant number of ms, `{min, max}` drawn uniformly, or `{base, meanExtra}`
 * (base plus an exponential extra of that mean: most messages near the base, a long tail).
 */
export type LatencySpec = number | { readonly min: number; readonly max: number } | { readonly base: number; readonly meanExtra: number };

/** Draws the latencies of one link; the same seed gives the same draws. */
export class Latency {
  private readonly draw: () => number;

  constructor(spec: LatencySpec, rng: Rng, field: string) {
    if (typeof spec === 'number') {
      check(spec, `${field}`);
      this.draw = () => spec;
    } else if ('min' in spec) {
      check(spec.min, `${field}.min`);
      check(spec.max, `${field}.max`);
      if (spec.max < spec.min) throw new ConfigError(`${field}.max`, `must be at least min (${spec.min}), got ${spec.max}`);
      this.draw = () => spec.min + rng.next() * (spec.max - spec.min);
    } else {
      check(spec.base, `${field}.base`);
      check(spec.meanExtra, `${field}.meanExtra`);
      this.draw = () => spec.base + (spec.meanExtra > 0 ? rng.exponential(spec.meanExtra) : 0);
    }
  }

  /** Returns the next latency in whole ms (≥ 0). */
  next(): number {
    return Math.max(0, Math.round(this.draw()));
  }
}

function check(ms: number, field: string): void {
  if (!(Number.isFinite(ms) && ms >= 0)) throw new ConfigError(field, `must be a finite number of ms ≥ 0, got ${ms}`);
}
