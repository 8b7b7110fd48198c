/** The HTTP leg of the REST client: one undici keep-alive Pool, timeouts, and a plain account of what happened to each request. */
import { Pool, errors as undiciErrors } from 'undici';
import type { Clock } from '../core/clock.ts';

/** Timeouts in ms. undici enforces connect/headers/body on its own timers; `requestMs` runs on the injected clock. */
export interface HttpTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  /** The whole request, from sending to the last byte of the answer. */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, requestMs: 15_000 };

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Why a request got no answer. `written` is false only when the connection never opened, so
 * nothing can have reached the venue; every other failure may have been seen by the venue.
 */
export class HttpFailure extends Error {
  constructor(
    readonly reason: 'refused' | 'timeout' | 'dropped' | 'closed',
    readonly written: boolean,
    message: string,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = 'HttpFailure';
  }
}

const NOT_WRITTEN_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function errCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = e.cause;
  }
  return undefined;
}

/** Returns the HttpFailure that describes an undici error. */
export function classifyFailure(err: unknown, timedOut: boolean): HttpFailure {
  const code = errCode(err) ?? '';
  const text = err instanceof Error ? err.message : String(err);
  if (timedOut) return new HttpFailure('timeout', true, 'no answer within the request timeout', err);
  if (NOT_WRITTEN_CODES.has(code)) return new HttpFailure('refused', false, `connection not opened (${code}): ${text}`, err);
  if (TIMEOUT_CODES.has(code)) return new HttpFailure('timeout', true, `${code}: ${text}`, err);
  if (err instanceof undiciErrors.ClientDestroyedError || err instanceof undiciErrors.ClientClosedError) {
    return new HttpFailure('closed', false, `client closed: ${text}`, err);
  }
  return new HttpFailure('dropped', true, `connection lost (${code || 'no code'}): ${text}`, err);
}

export interface HttpOptions {
  clock: Clock;
  timeouts?: Partial<HttpTimeouts>;
  /** Connections kept open to the venue (default 4). */
  connections?: number;
  /** How long an idle connection stays open (default 30 s). */
  keepAliveMs?: number;
}

/**
 * The abort signal of one request, as undici accepts it (an EventTarget-like object). Node's
 * AbortController costs about 10 µs a request with its listener; this one holds a single listener.
 */
class RequestSignal {
  aborted = false;
  reason: unknown = undefined;
  private listener: (() => void) | undefined;

  addEventListener(_type: 'abort', fn: () => void): void {
    this.listener = fn;
  }

  removeEventListener(_type: 'abort', fn: () => void): void {
    if (this.listener === fn) this.listener = undefined;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const fn = this.listener;
    this.listener = undefined;
    fn?.();
  }
}

/** Sends requests to one origin over a keep-alive pool. */
export class HttpTransport {
  private readonly pool: Pool;
  private readonly clock: Clock;
  readonly timeouts: HttpTimeouts;

  constructor(origin: string, opts: HttpOptions) {
    this.clock = opts.clock;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
    this.pool = new Pool(origin, {
      connections: opts.connections ?? 4,
      pipelining: 1,
      keepAliveTimeout: opts.keepAliveMs ?? 30_000,
      keepAliveMaxTimeout: Math.max(opts.keepAliveMs ?? 30_000, 60_000),
      connectTimeout: this.timeouts.connectMs,
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.bodyMs,
    });
  }

  /** Returns the answer, or throws HttpFailure saying whether the request may have reached the venue. */
  async send(req: HttpRequest): Promise<HttpAnswer> {
    const signal = new RequestSignal();
    let timedOut = false;
    const timer = this.clock.setTimeout(() => {
      timedOut = true;
      signal.abort(new Error(`no answer within ${this.timeouts.requestMs} ms`));
    }, this.timeouts.requestMs);
    try {
      const res = await this.pool.request({
        method: req.method,
        path: req.path,
        headers: req.headers,
        body: req.body,
        signal,
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      throw classifyFailure(err, timedOut);
    } finally {
      timer.cancel();
    }
  }

  /** Closes the pool; requests in flight are failed. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
