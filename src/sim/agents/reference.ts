/** The agents' reference price: a seeded mean-reverting random walk in whole ticks. */
import type { Rng } from '../../core/random.ts';

/**
 * A reference price in ticks: a seeded random walk with mean reversion toward its start
 * (log-price step = volatility × N(0,1) − meanReversion × log(p / p0)), never below one tick.
 */
export class ReferencePrice {
  private logP: number;
  private readonly log0: number;

  constructor(private readonly rng: Rng, startTicks: number, private readonly volatility: number, private readonly reversion: number) {
    this.log0 = Math.log(startTicks);
    this.logP = this.log0;
  }

  /** Advances one step and returns the new price in whole ticks. */
  step(): number {
    this.logP += this.volatility * this.rng.normal() - this.reversion * (this.logP - this.log0);
    return this.ticks();
  }

  /** Returns the current price in whole ticks. */
  ticks(): number {
    return Math.max(1, Math.round(Math.exp(this.logP)));
  }
}
