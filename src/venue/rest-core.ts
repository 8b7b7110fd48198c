/** The request pipeline of the REST client: budget, sign, send over the pool, interpret; clock offset and the -1021 retry. */
import type { Clock } from '../core/clock.ts';
import { ConfigError, VenueError } from '../core/errors.ts';
import { redactText, silentLogger, type Logger } from '../core/logger.ts';
import type { RateLimit } from '../model/index.ts';
import { failureError, interpretAnswer, type RequestContext } from './answer.ts';
import { ENDPOINTS } from './catalogue.ts';
import { RateBudgets, type BudgetOptions, type Charge, type RateLimitSpec } from './budgets.ts';
import { chargedWeight, isSigned, type Endpoint } from './endpoint.ts';
import { HttpTransport, type HttpAnswer, type HttpFailure, type HttpRequest, type HttpTimeouts, type OutcomeHandler } from './http.ts';
import { encodeParams, signRequest, Signer, DEFAULT_SPLIT_QUERY_KEYS, type Params, type Placement } from './signing.ts';

export interface RestClientOptions {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:8080`; paths of venue-api.md are appended to it. */
  baseUrl: string;
  /** Needed for signed endpoints. Taken from the caller (the environment), never logged. */
  apiKey?: string;
  secret?: string;
  clock: Clock;
  /** Sent with signed requests when set; the venue defaults to 5000. */
  recvWindow?: number;
  /** Where parameters of POST, PUT and DELETE requests go (default 'body'); GET always uses the query. */
  placement?: Placement;
  /** Keys kept in the query under 'split' placement (default symbol, side, type, timeInForce). */
  splitQueryKeys?: Iterable<string>;
  timeouts?: Partial<HttpTimeouts>;
  connections?: number;
  keepAliveMs?: number;
  /** Rate budgets to share, or options for the client's own. */
  budgets?: RateBudgets | (BudgetOptions & { limits?: readonly RateLimitSpec[] });
  logger?: Logger;
}

const CODE_INVALID_TIMESTAMP = -1021;

/** The machinery behind every typed endpoint method. */
export class RestCore {
  readonly budgets: RateBudgets;
  protected readonly clock: Clock;
  private readonly http: HttpTransport;
  private readonly apiKey: string | undefined;
  private readonly signer: Signer | undefined;
  private readonly recvWindow: number | undefined;
  private readonly placement: Placement;
  private readonly splitQueryKeys: ReadonlySet<string>;
  private readonly log: Logger;
  private offsetMs = 0;
  private readonly origin: string;
  private readonly signedHeaders: Readonly<Record<string, string>>;
  private readonly signedFormHeaders: Readonly<Record<string, string>>;
  private readonly deps: OutcomeDeps;

  constructor(opts: RestClientOptions) {
    let origin: URL;
    try {
      origin = new URL(opts.baseUrl);
    } catch (err) {
      throw new ConfigError('baseUrl', `must be an absolute http(s) URL, got ${JSON.stringify(opts.baseUrl)}`, { cause: err });
    }
    if (origin.protocol !== 'http:' && origin.protocol !== 'https:') throw new ConfigError('baseUrl', `must use http or https, got ${origin.protocol}`);
    if (origin.pathname !== '/' && origin.pathname !== '') throw new ConfigError('baseUrl', 'must not carry a path (the endpoint paths are absolute)');
    if ((opts.apiKey === undefined) !== (opts.secret === undefined)) throw new ConfigError('apiKey', 'apiKey and secret must be given together');
    if (opts.recvWindow !== undefined && (!Number.isInteger(opts.recvWindow) || opts.recvWindow <= 0 || opts.recvWindow > 60_000)) {
      throw new ConfigError('recvWindow', `must be an integer number of ms in 1..60000 (5000 or less recommended), got ${opts.recvWindow}`);
    }
    this.clock = opts.clock;
    this.origin = origin.origin;
    this.apiKey = opts.apiKey;
    this.signer = opts.secret === undefined ? undefined : new Signer(opts.secret);
    this.recvWindow = opts.recvWindow;
    this.placement = opts.placement ?? 'body';
    this.splitQueryKeys = opts.splitQueryKeys ? new Set(opts.splitQueryKeys) : DEFAULT_SPLIT_QUERY_KEYS;
    this.log = opts.logger ?? silentLogger();
    this.budgets = opts.budgets instanceof RateBudgets ? opts.budgets : new RateBudgets(opts.clock, opts.budgets?.limits, opts.budgets);
    this.http = new HttpTransport(origin.origin, { clock: opts.clock, timeouts: opts.timeouts, connections: opts.connections, keepAliveMs: opts.keepAliveMs });
    // Built once: every request of a kind sends the same header object.
    this.signedHeaders = Object.freeze({ 'x-bh-apikey': opts.apiKey ?? '' });
    this.signedFormHeaders = Object.freeze({ 'x-bh-apikey': opts.apiKey ?? '', ...FORM_HEADERS });
    this.deps = {
      budgets: this.budgets,
      log: this.log,
      clock: this.clock,
      retry: async <T>(ep: Endpoint<unknown, T>, params: Params): Promise<T> => {
        await this.syncTime();
        return this.attempt(ep, params, false);
      },
    };
  }

  /** Keeps the key and the secret out of logs and serialisation. */
  toJSON(): Record<string, unknown> {
    return { venue: this.origin, signed: this.signer !== undefined, placement: this.placement, clockOffsetMs: this.offsetMs };
  }

  /** Returns the current estimate of serverTime − local time in ms. */
  clockOffsetMs(): number {
    return this.offsetMs;
  }

  /** Measures the clock offset from GET /openapi/v1/time against the midpoint of the round trip; returns it. */
  async syncTime(): Promise<number> {
    const t0 = this.clock.now();
    const { serverTime } = await this.call(ENDPOINTS.time, {});
    const t1 = this.clock.now();
    this.offsetMs = Math.round(serverTime - (t0 + t1) / 2);
    this.log.debug({ offsetMs: this.offsetMs, rttMs: t1 - t0 }, 'venue clock offset');
    return this.offsetMs;
  }

  /** Applies brokerInfo's rateLimits to the budgets. */
  applyRateLimits(rateLimits: readonly (RateLimit | RateLimitSpec)[]): void {
    this.budgets.setLimits(rateLimits);
  }

  /** Closes the pool and fails requests still waiting for budget. */
  async close(): Promise<void> {
    this.budgets.close(new ConfigError('client', 'closed'));
    await this.http.close();
  }

  /** Sends one request to `ep` and returns its parsed answer; a -1021 refusal resyncs the clock and retries once. */
  call<P, T>(ep: Endpoint<P, T>, params: P): Promise<T> {
    return this.attempt(ep as Endpoint<unknown, T>, params as Params, true);
  }

  /** Returns the answer of one request: sent at once when the budgets have room (no promise before the request's own), else when acquire lets it. */
  private attempt<T>(ep: Endpoint<unknown, T>, params: Params, mayRetry: boolean): Promise<T> {
    const signed = isSigned(ep);
    const charge: Charge = { weight: chargedWeight(ep), orders: ep.countsOrders ? 1 : 0, signed };
    let now: boolean;
    try {
      if (signed && (this.signer === undefined || this.apiKey === undefined)) {
        throw new ConfigError('apiKey', `${ep.name} is a signed endpoint (${ep.security}): the client needs apiKey and secret`);
      }
      now = this.budgets.tryCharge(charge);
    } catch (err) {
      return Promise.reject(err);
    }
    if (now) return this.send(ep, params, charge, mayRetry);
    return this.budgets.acquire(charge).then(() => this.send(ep, params, charge, mayRetry));
  }

  private send<T>(ep: Endpoint<unknown, T>, params: Params, charge: Charge, mayRetry: boolean): Promise<T> {
    let req: HttpRequest;
    try {
      req = this.build(ep, params, charge.signed);
    } catch (err) {
      return Promise.reject(err);
    }
    // The answer's debug line is built only when it is written: the hot path makes no log objects.
    const started = this.log.isLevelEnabled('debug') ? this.clock.now() : -1;
    return this.http.exchange(req, new Outcome(this.deps, ep, params, contextOf(ep, req, params), charge, mayRetry, started));
  }

  private build(ep: Endpoint<unknown, unknown>, params: Params, signed: boolean): HttpRequest {
    let query: string;
    let body: string;
    if (signed) {
      const placement = ep.method === 'GET' ? 'query' : this.placement;
      const timestamp = Math.round(this.clock.now() + this.offsetMs);
      let enc;
      if ('timestamp' in params || 'recvWindow' in params) {
        // A caller's own timestamp or recvWindow keeps its place and takes the client's value, as an object spread does.
        const all: Record<string, Params[string]> = { ...params };
        if (this.recvWindow !== undefined) all['recvWindow'] = this.recvWindow;
        all['timestamp'] = timestamp;
        enc = signRequest(this.signer!, all, placement, this.splitQueryKeys);
      } else {
        const more = this.recvWindow === undefined ? { timestamp } : { recvWindow: this.recvWindow, timestamp };
        enc = signRequest(this.signer!, params, placement, this.splitQueryKeys, more);
      }
      query = enc.query;
      body = enc.body;
    } else {
      query = encodeParams(params);
      body = '';
    }
    const headers = body.length > 0 ? (signed ? this.signedFormHeaders : FORM_HEADERS) : signed ? this.signedHeaders : NO_HEADERS;
    return { method: ep.method, path: query.length > 0 ? `${ep.path}?${query}` : ep.path, headers, body: body.length > 0 ? body : undefined };
  }
}

const FORM_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/x-www-form-urlencoded' });
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** What every request's Outcome shares with its client. */
interface OutcomeDeps {
  readonly budgets: RateBudgets;
  readonly log: Logger;
  readonly clock: Clock;
  /** Resyncs the clock and sends the request once more (after a -1021). */
  readonly retry: <T>(ep: Endpoint<unknown, T>, params: Params) => Promise<T>;
}

/** Turns the HTTP outcome of one request into its value or typed error, keeping the budgets told. */
class Outcome<T> implements OutcomeHandler<T> {
  constructor(
    private readonly d: OutcomeDeps,
    private readonly ep: Endpoint<unknown, T>,
    private readonly params: Params,
    private readonly ctx: RequestContext,
    private readonly charge: Charge,
    private readonly mayRetry: boolean,
    private readonly started: number,
  ) {}

  answer(answer: HttpAnswer): T | Promise<T> {
    const d = this.d;
    if (this.started >= 0) d.log.debug(Object.assign({}, this.ctx, { status: answer.status, ms: d.clock.now() - this.started }), 'venue answer');
    let value: T;
    try {
      value = interpretAnswer(this.ep, this.ctx, answer, d.budgets);
    } catch (err) {
      // After interpretAnswer, so that a 429 has re-armed the pause before waiting requests are released.
      d.budgets.answered();
      if (this.mayRetry && this.charge.signed && err instanceof VenueError && err.venueCode === CODE_INVALID_TIMESTAMP) {
        d.log.info({ endpoint: this.ep.name }, 'venue said -1021: resyncing the clock and retrying once');
        return d.retry(this.ep, this.params);
      }
      throw err;
    }
    d.budgets.answered();
    d.budgets.succeeded(this.charge);
    return value;
  }

  failure(f: HttpFailure): unknown {
    this.d.budgets.answered();
    this.d.log.warn(Object.assign({}, this.ctx, { err: f.message }), 'venue request failed');
    return failureError(this.ep as Endpoint<unknown, unknown>, this.ctx, f);
  }
}
function contextOf(ep: Endpoint<unknown, unknown>, req: HttpRequest, params: Params): RequestContext {
  const id = params['clientOrderId'] ?? params['newClientOrderId'] ?? params['origClientOrderId'];
  const ctx: RequestContext = { endpoint: ep.name, method: ep.method, path: req.path.includes('signature') ? redactText(req.path) : req.path };
  if (id !== undefined) ctx.clientOrderId = String(id);
  return ctx;
}
