/** The HTTP leg of the REST client: one undici keep-alive Pool, timeouts, and a plain account of what happened to each request. */
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import type { Clock, TimerHandle } from '../core/clock.ts';

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

/** Returns the headers of an answer by lower-case name, a repeated header as an array (as undici's request() gives them). */
function headersOf(raw: readonly Buffer[]): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = Object.create(null) as Record<string, string | string[] | undefined>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i]!.toString('latin1').toLowerCase();
    const v = raw[i + 1]!.toString('latin1');
    const had = out[k];
    if (had === undefined) out[k] = v;
    else if (Array.isArray(had)) had.push(v);
    else out[k] = [had, v];
  }
  return out;
}

/** An answer whose headers are decoded only when someone reads them (the happy path reads the status and the text). */
class Answer implements HttpAnswer {
  private decoded: Record<string, string | string[] | undefined> | undefined;

  constructor(readonly status: number, private readonly raw: readonly Buffer[], readonly text: string) {}

  get headers(): Record<string, string | string[] | undefined> {
    return (this.decoded ??= headersOf(this.raw));
  }
}

/**
 * One request as an undici dispatch handler: collects the answer's bytes and settles once. It skips
 * request()'s stream, async scope and AbortSignal, which cost more than the rest of the client's work.
 */
class Exchange implements Dispatcher.DispatchHandler {
  timedOut = false;
  /** The request timeout on the client's clock; cancelled when the exchange settles. */
  timer: TimerHandle | undefined;
  private abortFn: ((err?: Error) => void) | undefined;
  private status = 0;
  private raw: Buffer[] = [];
  private readonly chunks: Buffer[] = [];

  constructor(private readonly resolve: (a: HttpAnswer) => void, private readonly reject: (e: unknown) => void) {}

  /** Aborts the request on timeout: at once when it holds a connection, else as soon as it gets one. */
  timeout(): void {
    this.timedOut = true;
    this.abortFn?.(new Error('request timeout'));
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.timedOut) abort(new Error('request timeout'));
    else this.abortFn = abort;
  }

  onHeaders(statusCode: number, headers: Buffer[]): boolean {
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.raw = headers;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    const c = this.chunks;
    const text = c.length === 0 ? '' : c.length === 1 ? c[0]!.toString('utf8') : Buffer.concat(c).toString('utf8');
    this.timer?.cancel();
    this.resolve(new Answer(this.status, this.raw, text));
  }

  onError(err: Error): void {
    this.timer?.cancel();
    this.reject(classifyFailure(err, this.timedOut));
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
  send(req: HttpRequest): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const ex = new Exchange(resolve, reject);
      ex.timer = this.clock.setTimeout(() => ex.timeout(), this.timeouts.requestMs);
      this.pool.dispatch({ method: req.method, path: req.path, headers: req.headers, body: req.body ?? null }, ex);
    });
  }

  /** Closes the pool; requests in flight are failed. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
