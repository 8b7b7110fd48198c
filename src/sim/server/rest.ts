/** The REST request pipeline: ban, route, weight, body, parameters, signature, ORDERS, faults, handler, answer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.ts';
import { VenueError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { authenticate, type KeyRecord } from './auth.ts';
import { ApiError, apiError, errorBody } from './errors.ts';
import type { Faults } from './faults.ts';
import { retryAfterSeconds, type RateLimiter } from './limits.ts';
import { bodyText, Params, parseParams } from './params.ts';
import { canonicalPath } from './paths.ts';
import type { ReplayGuard } from './replay.ts';
import type { Route } from './route.ts';

const JSON_TYPE = 'application/json;charset=UTF-8';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MAX_CACHED_PATHS = 256;

export interface RestDeps {
  readonly clock: Clock;
  readonly routes: readonly Route[];
  readonly keys: ReadonlyMap<string, KeyRecord>;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly log: Logger;
  readonly maxBodyBytes: number;
  /** The largest recvWindow a signed request may ask for. */
  readonly maxRecvWindowMs: number;
  /** Refuses exact replays of signed writes. */
  readonly replay: ReplayGuard;
  /** Handles paths outside /openapi (the loopback admin routes); returns false when it did not. */
  readonly other?: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean;
}

/** Returns the request listener of the REST API. */
export function restListener(d: RestDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const table = new Map<string, Map<string, Route>>();
  for (const r of d.routes) {
    let byMethod = table.get(r.path);
    if (!byMethod) table.set(r.path, (byMethod = new Map()));
    if (byMethod.has(r.method)) throw new Error(`route ${r.method} ${r.path} registered twice`);
    byMethod.set(r.method, r);
  }

  // Clients use a handful of paths: each is canonicalised once (the cache is bounded, since any text may arrive).
  const canonical = new Map<string, string | undefined>();
  const canonOf = (path: string): string | undefined => {
    let c = canonical.get(path);
    if (c === undefined && !canonical.has(path)) {
      c = canonicalPath(path);
      if (canonical.size < MAX_CACHED_PATHS) canonical.set(path, c);
    }
    return c;
  };

  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    const canon = canonOf(path);
    if (canon === undefined) {
      readBody(req, res, d.maxBodyBytes, (err, body) => {
        if (!err && d.other?.(req, res, body)) return;
        send(d, res, 404, errorBody(-1020, 'This operation is not supported.'), { error_code: '-1020' });
      });
      return;
    }
    const ip = req.socket.remoteAddress ?? 'unknown';
    let route: Route | undefined;
    try {
      d.limiter.checkBan(ip);
      const byMethod = table.get(canon);
      if (!byMethod) throw new ApiError(-1020, 'This operation is not supported.', 404);
      route = byMethod.get(req.method ?? '');
      if (!route) throw apiError(-1004);
      d.limiter.chargeWeight(ip, route.weight);
      if (d.faults.fires('rateLimitStorm')) {
        const wait = 1000;
        d.limiter.markLimited(ip, d.clock.now() + wait);
        const e = apiError(-1003, 1, 'second');
        throw new ApiError(e.code, e.msg, 429, { 'Retry-After': retryAfterSeconds(wait) });
      }
    } catch (e) {
      req.resume();
      answerError(d, res, e);
      return;
    }
    const r = route;
    if (r.method === 'GET' && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.resume();
      run(d, r, req, res, path, query, '', ip);
      return;
    }
    readBody(req, res, d.maxBodyBytes, (err, body) => {
      if (err) {
        answerError(d, res, err);
        return;
      }
      try {
        run(d, r, req, res, path, query, formBody(req, body), ip);
      } catch (e) {
        answerError(d, res, e);
      }
    });
  };
}

/** Returns the body as form text when the content type is form-encoded or absent; other bodies are ignored, as the venue's framework did. */
function formBody(req: IncomingMessage, body: Buffer): string {
  const ct = req.headers['content-type'];
  if (ct !== undefined && ct !== FORM_TYPE && !ct.toLowerCase().startsWith(FORM_TYPE)) return '';
  return bodyText(body);
}

function run(d: RestDeps, route: Route, req: IncomingMessage, res: ServerResponse, path: string, query: string, body: string, ip: string): void {
  let out: string;
  try {
    const rp = parseParams(query, body);
    const now = d.clock.now();
    let key: KeyRecord | undefined;
    if (route.security !== 'NONE') {
      const header = req.headers['x-bh-apikey'];
      key = authenticate(d.keys, {
        apiKeyHeader: Array.isArray(header) ? header[0] : header,
        params: rp,
        security: route.security,
        maxRecvWindowMs: d.maxRecvWindowMs,
        now,
        ip,
      });
      // A wallet movement's signature is spent once: within its window a replayed transfer would move money twice.
      // Orders are not held to it (a replay of one with a clientOrderId is -1141; clients on a shared virtual clock repeat signatures).
      if (route.security === 'WALLET' && route.method !== 'GET') d.replay.admit(key.apiKey, rp.signature ?? '', now);
      if (route.order) d.limiter.chargeOrder(key.userId, ip);
    }
    if (route.order && d.faults.fires('orderErrorBefore')) throw apiError(-1001);
    const value = route.handle({ p: new Params(rp.values), key, now, ip, path });
    if (route.order) {
      if (d.faults.fires('orderErrorAfter')) throw apiError(-1001);
      if (d.faults.fires('orderTimeoutAfter')) throw new ApiError(-1007, 'Timeout waiting for response from backend server.', 504);
    }
    out = typeof value === 'string' ? value : JSON.stringify(value);
  } catch (e) {
    answerError(d, res, e);
    return;
  }
  send(d, res, 200, out, undefined);
}

/** Sends an error answer: ApiError and VenueError as they are, anything else as 500 -1001 (logged, never shown). */
function answerError(d: RestDeps, res: ServerResponse, e: unknown): void {
  let err: ApiError;
  if (e instanceof ApiError) err = e;
  else if (e instanceof VenueError) err = new ApiError(e.venueCode, e.message, e.venueCode === -1001 ? 500 : e.httpStatus ?? 400);
  else {
    d.log.error({ err: e }, 'unexpected error while handling a request');
    err = apiError(-1001);
  }
  send(d, res, err.status, errorBody(err.code, err.msg), { error_code: String(err.code), ...err.headers });
}

function send(d: RestDeps, res: ServerResponse, status: number, body: string, headers: Record<string, string> | undefined): void {
  const lat = d.faults.settings.latencyMs;
  if (lat > 0) d.clock.setTimeout(() => writeAnswer(res, status, body, headers), lat);
  else writeAnswer(res, status, body, headers);
}

function writeAnswer(res: ServerResponse, status: number, body: string, headers: Record<string, string> | undefined): void {
  if (res.writableEnded || res.destroyed) return;
  const h: Record<string, string | number> = { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) };
  if (headers) Object.assign(h, headers);
  res.writeHead(status, h);
  res.end(body);
}

/**
 * Reads the whole body up to `max` bytes. Past that (declared or counted) it stops reading at once,
 * answers -1004 and closes the connection after the answer: a 1 GB chunked body is not drained first.
 */
function readBody(req: IncomingMessage, res: ServerResponse, max: number, done: (err: ApiError | undefined, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (err: ApiError | undefined, body: Buffer): void => {
    if (finished) return;
    finished = true;
    req.removeListener('data', onData);
    done(err, body);
  };
  const refuse = (): void => {
    req.pause();
    res.setHeader('Connection', 'close');
    // Node would drain an unread body to keep the connection; destroying it after the answer stops the read.
    res.once('finish', () => req.socket.destroy());
    res.once('close', () => req.socket.destroy());
    finish(new ApiError(-1004, 'Bad request'), Buffer.alloc(0));
  };
  const onData = (c: Buffer): void => {
    size += c.length;
    if (size > max) {
      chunks.length = 0;
      refuse();
      return;
    }
    chunks.push(c);
  };
  if (Number(req.headers['content-length'] ?? '0') > max) {
    refuse();
    return;
  }
  req.on('data', onData);
  req.on('end', () => finish(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  req.on('error', () => finish(new ApiError(-1004, 'Bad request'), Buffer.alloc(0)));
}
