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

/** The largest answer body taken by default: far above any list the venue answers (1000 orders, klines or trades). */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with its query string. */
  path: string;
  headers: Readonly<Record<string, string>>;
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

/** Returns the HttpFailure that describes an undici error (`tooLarge`: the client cut an answer past its size limit). */
export function classifyFailure(err: unknown, timedOut: boolean, tooLarge?: number): HttpFailure {
  const code = errCode(err) ?? '';
  const text = err instanceof Error ? err.message : String(err);
  if (timedOut) return new HttpFailure('timeout', true, 'no answer within the request timeout', err);
  if (tooLarge !== undefined) return new HttpFailure('dropped', true, `answer cut at more than ${tooLarge} bytes`, err);
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
  /** The largest answer body read; a longer one is cut and fails as dropped (default DEFAULT_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
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

/** What the caller makes of the outcome of one request; exactly one of the two is called, once. */
export interface OutcomeHandler<T> {
  /** Returns the value of an answer, or a promise of it; a throw rejects the request with what was thrown. */
  answer(a: HttpAnswer): T | PromiseLike<T>;
  /** Returns what the request is rejected with when no answer came. */
  failure(f: HttpFailure): unknown;
}

const AS_ANSWER: OutcomeHandler<HttpAnswer> = { answer: (a) => a, failure: (f) => f };

/** A request in flight as the transport's timeout list sees it (ordered by sending, so by deadline). */
interface InFlight {
  readonly deadline: number;
  prev: InFlight | undefined;
  next: InFlight | undefined;
  timeout(): void;
}

/**
 * One request as an undici dispatch handler: collects the answer's bytes and settles once, with what
 * its OutcomeHandler makes of them. It skips request()'s stream, async scope and AbortSignal, which
 * cost more than the rest of the client's work.
 */
class Exchange<T> implements Dispatcher.DispatchHandler, InFlight {
  timedOut = false;
  /** Set once the answer passed the size limit: the connection is cut and the request fails. */
  private tooLarge = false;
  private size = 0;
  prev: InFlight | undefined;
  next: InFlight | undefined;
  private abortFn: ((err?: Error) => void) | undefined;
  private status = 0;
  private raw: Buffer[] = [];
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly owner: HttpTransport,
    readonly deadline: number,
    private readonly maxBytes: number,
    private readonly handler: OutcomeHandler<T>,
    private readonly resolve: (v: T | PromiseLike<T>) => void,
    private readonly reject: (e: unknown) => void,
  ) {}

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
    if (this.tooLarge) return false;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      // A venue streaming without end would otherwise fill the bot's memory before any timeout.
      this.tooLarge = true;
      this.chunks.length = 0;
      this.abortFn?.(new Error(`answer over ${this.maxBytes} bytes`));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.tooLarge) {
      this.onError(new Error(`answer over ${this.maxBytes} bytes`));
      return;
    }
    const c = this.chunks;
    const text = c.length === 0 ? '' : c.length === 1 ? c[0]!.toString('utf8') : Buffer.concat(c).toString('utf8');
    this.owner.settled(this);
    let value: T | PromiseLike<T>;
    try {
      value = this.handler.answer(new Answer(this.status, this.raw, text));
    } catch (err) {
      this.reject(err);
      return;
    }
    this.resolve(value);
  }

  onError(err: Error): void {
    this.owner.settled(this);
    this.reject(this.handler.failure(classifyFailure(err, this.timedOut, this.tooLarge ? this.maxBytes : undefined)));
  }
}

/**
 * Sends requests to one origin over a keep-alive pool. Request timeouts share one timer on the clock,
 * armed for the earliest deadline in flight, instead of one timer set and cancelled per request.
 */
export class HttpTransport {
  private readonly pool: Pool;
  private readonly clock: Clock;
  readonly timeouts: HttpTimeouts;
  private first: InFlight | undefined;
  private last: InFlight | undefined;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private readonly onTimer = (): void => this.expire();
  private readonly maxAnswerBytes: number;

  constructor(origin: string, opts: HttpOptions) {
    this.clock = opts.clock;
    this.maxAnswerBytes = opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
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
    return this.exchange(req, AS_ANSWER);
  }

  /** Returns what `handler` makes of the answer, or rejects with what it makes of the failure (one promise per request). */
  exchange<T>(req: HttpRequest, handler: OutcomeHandler<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const ex = new Exchange<T>(this, this.clock.now() + this.timeouts.requestMs, this.maxAnswerBytes, handler, resolve, reject);
      this.track(ex);
      this.pool.dispatch({ method: req.method, path: req.path, headers: req.headers, body: req.body ?? null }, ex);
    });
  }

  /** Takes a settled exchange off the list in flight. */
  settled(ex: InFlight): void {
    if (ex.prev === undefined && this.first !== ex) return;
    if (ex.prev) ex.prev.next = ex.next;
    else this.first = ex.next;
    if (ex.next) ex.next.prev = ex.prev;
    else this.last = ex.prev;
    ex.prev = ex.next = undefined;
  }

  /** Closes the pool; requests in flight are failed. */
  async close(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
    await this.pool.destroy();
  }

  private track(ex: InFlight): void {
    ex.prev = this.last;
    if (this.last) this.last.next = ex;
    else this.first = ex;
    this.last = ex;
    if (ex.deadline < this.timerAt) this.arm(ex.deadline);
  }

  private arm(at: number): void {
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(this.onTimer, at - this.clock.now());
  }

  /** Times out every request past its deadline, then re-arms for the earliest one left (none: the timer rests). */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    let earliest = Infinity;
    for (let ex = this.first; ex !== undefined; ) {
      const next = ex.next;
      if (ex.deadline <= now) {
        this.settled(ex);
        ex.timeout();
      } else if (ex.deadline < earliest) earliest = ex.deadline;
      ex = next;
    }
    if (earliest < Infinity) this.arm(earliest);
  }
}
