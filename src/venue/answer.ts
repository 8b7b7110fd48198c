/** Turns what came back for a request (an HTTP answer, or none) into a value or the typed error that says what the caller may do next. */
import { BannedError, BhError, ParseError, TransportError, UnknownOutcomeError, type VenueError } from '../core/errors.ts';
import { isErrorPayload, parseErrorPayload, parseWireJson } from '../model/index.ts';
import type { BudgetKind, RateBudgets } from './budgets.ts';
import type { Endpoint } from './endpoint.ts';
import { MalformedResponseError, VenueRateLimitError, VenueServerError, venueErrorFor } from './errors.ts';
import type { HttpAnswer, HttpFailure } from './http.ts';

/** What identifies the request in errors and logs (never the key, the secret or the signature). */
export interface RequestContext {
  endpoint: string;
  method: string;
  path: string;
  clientOrderId?: string;
}

/** An unquoted number of 16 or more digits (only those can pass 2^53); digits inside strings may also match, which only costs the slow path. */
const LONG_NUMBER_RE = /[:,[]\s*-?\d{16}/;

/** Returns the parsed body: plain JSON.parse when no number can lose digits, else parseWireJson (which throws ParseError on bad JSON). */
function parseBody(text: string): unknown {
  if (!LONG_NUMBER_RE.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // parseWireJson below raises the ParseError that names the body.
    }
  }
  return parseWireJson(text);
}

function header(answer: HttpAnswer, name: string): string | undefined {
  const v = answer.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Returns Retry-After in ms: delta-seconds, or an HTTP date taken relative to the answer's Date header. */
export function retryAfterMs(answer: HttpAnswer): number | undefined {
  const v = header(answer, 'retry-after')?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  const sent = Date.parse(header(answer, 'date') ?? '');
  if (Number.isNaN(at) || Number.isNaN(sent)) return undefined;
  return Math.max(0, at - sent);
}

/** Returns the venue error of an answer carrying `{code, msg}`, or undefined when the body is not one. */
function venueErrorOf(answer: HttpAnswer, ctx: RequestContext, extra: { retryAfterMs?: number } = {}): VenueError | undefined {
  let body: unknown;
  try {
    body = parseBody(answer.text);
  } catch {
    return undefined;
  }
  if (!isErrorPayload(body)) return undefined;
  const { code, msg } = parseErrorPayload(body);
  if (code === 0) return undefined;
  return venueErrorFor(code, msg, { httpStatus: answer.status, retryAfterMs: extra.retryAfterMs, context: { ...ctx, errorCodeHeader: header(answer, 'error_code') } });
}

function unknownOutcome(ep: Endpoint<unknown, unknown>, ctx: RequestContext, why: string, cause: unknown): UnknownOutcomeError {
  return new UnknownOutcomeError(`${ep.name}: ${why}; outcome unknown, settle by reconciliation (never resend under a new id)`, { context: { ...ctx }, cause });
}

/** Returns the typed error for a request that got no answer. */
export function failureError(ep: Endpoint<unknown, unknown>, ctx: RequestContext, failure: HttpFailure): BhError {
  if (!failure.written) return new TransportError(`${ep.name}: ${failure.message}; nothing was sent`, { context: { ...ctx, reason: failure.reason }, cause: failure });
  if (ep.effect === 'write') return unknownOutcome(ep, ctx, failure.message, failure);
  return new TransportError(`${ep.name}: ${failure.message}; a read, safe to ask again`, { context: { ...ctx, reason: failure.reason }, cause: failure });
}

function rateLimitKind(ep: Endpoint<unknown, unknown>, err: VenueError | undefined): BudgetKind {
  if (err?.venueCode === -1015) return 'ORDERS';
  if (err?.venueCode === -1003) return 'REQUEST_WEIGHT';
  return ep.countsOrders ? 'ORDERS' : 'REQUEST_WEIGHT';
}

/**
 * Returns the parsed answer, or throws the typed error it means. Writes never end as a rejection
 * unless the venue definitely refused: 5xx, 504, 429, cut or unreadable answers to a write are unknown outcomes.
 */
export function interpretAnswer<T>(ep: Endpoint<unknown, T>, ctx: RequestContext, answer: HttpAnswer, budgets: RateBudgets): T {
  const status = answer.status;
  if (status === 418) {
    const until = budgets.banned(retryAfterMs(answer));
    throw new BannedError(`${ep.name}: IP banned by the venue (HTTP 418) until ${until}`, until, { context: { ...ctx }, cause: venueErrorOf(answer, ctx) });
  }
  if (status === 429) {
    const after = retryAfterMs(answer);
    const venueErr = venueErrorOf(answer, ctx, { retryAfterMs: after });
    const pause = budgets.rateLimited(rateLimitKind(ep, venueErr), after);
    const err = venueErr instanceof VenueRateLimitError
      ? venueErr
      : new VenueRateLimitError('VENUE_HTTP_429', venueErr?.venueCode ?? 0, `${ep.name}: HTTP 429`, 429, pause, { context: { ...ctx }, cause: venueErr });
    if (ep.effect === 'write') throw unknownOutcome(ep, ctx, 'HTTP 429 after sending', err);
    throw err;
  }
  if (status >= 500) {
    const venueErr = venueErrorOf(answer, ctx);
    if (ep.effect === 'write') throw unknownOutcome(ep, ctx, `HTTP ${status}`, venueErr);
    throw new VenueServerError(`VENUE_HTTP_${status}`, venueErr?.venueCode ?? 0, `${ep.name}: HTTP ${status}${venueErr ? `: ${venueErr.message}` : ''}`, 'transport', status, { context: { ...ctx }, cause: venueErr });
  }
  let body: unknown;
  try {
    body = parseBody(answer.text);
  } catch (err) {
    const bad = new MalformedResponseError(`${ep.name}: HTTP ${status} with a body that is not JSON`, status, status < 300 && ep.effect === 'read' ? 'transport' : 'definite', { context: { ...ctx, bodyStart: answer.text.slice(0, 80) }, cause: err });
    if (status < 300 && ep.effect === 'write') throw unknownOutcome(ep, ctx, 'the answer was not JSON', bad);
    throw bad;
  }
  if (isErrorPayload(body)) {
    const venueErr = venueErrorOf(answer, ctx);
    if (venueErr) {
      if (venueErr.retry === 'unknown' && ep.effect === 'write') throw unknownOutcome(ep, ctx, venueErr.message, venueErr);
      throw venueErr;
    }
  }
  if (status >= 300) {
    throw new MalformedResponseError(`${ep.name}: HTTP ${status} without an error payload`, status, 'definite', { context: { ...ctx, bodyStart: answer.text.slice(0, 80) } });
  }
  try {
    return ep.parse(body);
  } catch (err) {
    if (err instanceof ParseError && ep.effect === 'write') throw unknownOutcome(ep, ctx, `the answer did not fit the model (${err.message})`, err);
    throw err;
  }
}
