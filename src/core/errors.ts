/** Typed errors: every failure carries a stable code, its context, its cause and how a caller may retry it. */

/**
 * How a caller may react:
 * - `definite`: the venue refused; nothing happened; do not retry unchanged.
 * - `unknown`: sent, outcome not known (timeout, disconnect, 5xx, 504); settle by reconciliation, never resend under a new id.
 * - `rate-limit`: wait `retryAfterMs` then retry.
 * - `banned`: all signed traffic stops until `until`.
 * - `transport`: not sent (connection refused before writing); safe to retry.
 * - `auth`: key, signature or permission problem; fix configuration.
 * - `config`: bad configuration or input; fix and restart.
 * - `denied`: refused locally (risk gate or budget); nothing was sent.
 */
export type RetryClass = 'definite' | 'unknown' | 'rate-limit' | 'banned' | 'transport' | 'auth' | 'config' | 'denied';

export interface ErrorOptions {
  context?: Record<string, unknown>;
  cause?: unknown;
}

/** The base of every bhtrade error. */
export class BhError extends Error {
  readonly code: string;
  readonly retry: RetryClass;
  readonly context: Record<string, unknown>;

  constructor(code: string, message: string, retry: RetryClass, opts: ErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.retry = retry;
    this.context = opts.context ?? {};
  }
}

/** A venue answer `{code, msg}`: definite unless the code says the outcome is unknown. */
export class VenueError extends BhError {
  readonly venueCode: number;
  readonly httpStatus: number | undefined;

  constructor(code: string, venueCode: number, message: string, retry: RetryClass, httpStatus?: number, opts: ErrorOptions = {}) {
    super(code, message, retry, { ...opts, context: { venueCode, httpStatus, ...opts.context } });
    this.venueCode = venueCode;
    this.httpStatus = httpStatus;
  }
}

/** A request whose effect on the venue is not known (timeout, dropped connection, 5xx, 504). */
export class UnknownOutcomeError extends BhError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super('UNKNOWN_OUTCOME', message, 'unknown', opts);
  }
}

/** The venue answered 429: wait, then retry. */
export class RateLimitedError extends BhError {
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number, opts: ErrorOptions = {}) {
    super('RATE_LIMITED', message, 'rate-limit', { ...opts, context: { retryAfterMs, ...opts.context } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** The venue answered 418: signed traffic is stopped until `until` (epoch ms). */
export class BannedError extends BhError {
  readonly until: number;

  constructor(message: string, until: number, opts: ErrorOptions = {}) {
    super('BANNED', message, 'banned', { ...opts, context: { until, ...opts.context } });
    this.until = until;
  }
}

/** A local budget would be broken and the caller asked to fail fast instead of waiting. */
export class BudgetExceededError extends BhError {
  readonly budget: string;
  readonly waitMs: number;

  constructor(budget: string, waitMs: number) {
    super('BUDGET_EXCEEDED', `${budget} budget exhausted; next slot in ${waitMs} ms`, 'denied', { context: { budget, waitMs } });
    this.budget = budget;
    this.waitMs = waitMs;
  }
}

/** The request never left: connection refused or aborted before it was written. Safe to retry. */
export class TransportError extends BhError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super('TRANSPORT', message, 'transport', opts);
  }
}

/** Bad configuration: names the path of the bad key and the rule it breaks. */
export class ConfigError extends BhError {
  readonly path: string;

  constructor(path: string, rule: string, opts: ErrorOptions = {}) {
    super('CONFIG', `${path || '<root>'}: ${rule}`, 'config', { ...opts, context: { path, rule, ...opts.context } });
    this.path = path;
  }
}

/** A payload that does not fit the model: names the field and the rule. */
export class ParseError extends BhError {
  readonly field: string;

  constructor(field: string, rule: string, opts: ErrorOptions = {}) {
    super('PARSE', `${field}: ${rule}`, 'definite', { ...opts, context: { field, rule, ...opts.context } });
    this.field = field;
  }
}

/** Returns true when `err` is a BhError of the given retry class. */
export function isRetryClass(err: unknown, retry: RetryClass): boolean {
  return err instanceof BhError && err.retry === retry;
}
