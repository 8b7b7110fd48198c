/** Reconnect delays: exponential growth with a cap and seeded jitter, so a fleet of clients never retries in lockstep yet a test run repeats exactly. */
import { ConfigError } from '../core/errors.ts';
import { Rng } from '../core/random.ts';

export interface BackoffOptions {
  /** Delay before the first retry (default 500 ms). */
  readonly initialMs?: number;
  /** Upper bound of any delay (default 30 s). */
  readonly maxMs?: number;
  /** Growth per attempt (default 2). */
  readonly factor?: number;
  /** Relative spread of the jitter: 0.2 draws each delay from ±20 % of its base (default 0.2). */
  readonly jitter?: number;
  /** Seed of the jitter (default 1). */
  readonly seed?: number;
}

/** Successive delays for one link: initial, initial×factor, … up to maxMs, each spread by the seeded jitter. */
export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly rng: Rng;
  private n = 0;

  constructor(o: BackoffOptions = {}) {
    this.initialMs = o.initialMs ?? 500;
    this.maxMs = o.maxMs ?? 30_000;
    this.factor = o.factor ?? 2;
    this.jitter = o.jitter ?? 0.2;
    if (!(this.initialMs >= 0)) throw new ConfigError('backoff.initialMs', `must be ≥ 0, got ${this.initialMs}`);
    if (!(this.maxMs >= this.initialMs)) throw new ConfigError('backoff.maxMs', `must be ≥ initialMs (${this.initialMs}), got ${this.maxMs}`);
    if (!(this.factor >= 1)) throw new ConfigError('backoff.factor', `must be ≥ 1, got ${this.factor}`);
    if (!(this.jitter >= 0 && this.jitter < 1)) throw new ConfigError('backoff.jitter', `must be in [0, 1), got ${this.jitter}`);
    this.rng = new Rng(o.seed ?? 1);
  }

  /** Returns how many delays were handed out since the last reset. */
  get attempts(): number {
    return this.n;
  }

  /** Returns the next delay in ms and counts the attempt. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.n);
    this.n += 1;
    const spread = 1 - this.jitter + 2 * this.jitter * this.rng.next();
    return Math.min(this.maxMs, Math.round(base * spread));
  }

  /** Starts again from the initial delay (after a link proved stable). */
  reset(): void {
    this.n = 0;
  }
}
