/** HMAC SHA256 request signing and parameter encoding, exactly as venue-api.md (Authentication) defines totalParams. */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** Where the parameters of a non-GET request travel: all in the query, all in the body, or split between both. */
export type Placement = 'query' | 'body' | 'split';

/** A parameter value as the caller gives it; decimals are strings so that they are sent exactly as given. */
export type ParamValue = string | number | boolean | bigint;

/** Parameters in the order they are sent; undefined values are left out. */
export type Params = Readonly<Record<string, ParamValue | undefined>>;

/** The parameters that stay in the query under 'split' placement unless the caller names others (the published split example). */
export const DEFAULT_SPLIT_QUERY_KEYS: ReadonlySet<string> = new Set(['symbol', 'side', 'type', 'timeInForce']);

/** Signs text with the secret key. The key is turned into a KeyObject once; the secret string is not kept. */
export class Signer {
  private readonly key: KeyObject;

  constructor(secret: string) {
    if (secret.length === 0) throw new Error('secret: must not be empty');
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** Returns the lowercase hex HMAC SHA256 of `text`. */
  sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('hex');
  }

  /** Keeps the key out of logs and inspection. */
  toJSON(): string {
    return '[Signer]';
  }
}

/** Characters encodeURIComponent leaves as they are (A-Z a-z 0-9 - _ . ! ~ * ' ( )). */
const UNRESERVED = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") UNRESERVED[c.charCodeAt(0)] = 1;

/** Returns encodeURIComponent(s); names, symbols, decimals and ids are plain text and skip the builtin's call. */
function encodeText(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || UNRESERVED[c] === 0) return encodeURIComponent(s);
  }
  return s;
}

function encodeValue(v: ParamValue): string {
  return encodeText(typeof v === 'string' ? v : String(v));
}

/** Appends the defined parameters of `params` as `k=v` pieces to `out`. */
function appendParams(out: string, params: Params): string {
  for (const k in params) {
    const v = params[k];
    if (v === undefined) continue;
    out += (out.length === 0 ? '' : '&') + encodeText(k) + '=' + encodeValue(v);
  }
  return out;
}

/** Returns `k=v&k2=v2` for the defined parameters, in their order, percent-encoded; `more` (if given) follows `params`. */
export function encodeParams(params: Params, more?: Params): string {
  const out = appendParams('', params);
  return more === undefined ? out : appendParams(out, more);
}

/** The wire form of a request: the query string (without `?`) and the form body, both already holding `signature` when signed. */
export interface EncodedRequest {
  query: string;
  body: string;
  /** The text that was signed: query followed directly by body, without the signature piece. */
  totalParams: string;
}

/** Splits parameters into query and body text for a placement; `more` (if given) follows `params` and must not repeat a key of it. */
export function placeParams(params: Params, placement: Placement, splitQueryKeys: ReadonlySet<string> = DEFAULT_SPLIT_QUERY_KEYS, more?: Params): { query: string; body: string } {
  switch (placement) {
    case 'query':
      return { query: encodeParams(params, more), body: '' };
    case 'body':
      return { query: '', body: encodeParams(params, more) };
    case 'split': {
      const query = { text: '' };
      const body = { text: '' };
      splitInto(params, splitQueryKeys, query, body);
      if (more !== undefined) splitInto(more, splitQueryKeys, query, body);
      return { query: query.text, body: body.text };
    }
    default: {
      const never: never = placement;
      throw new Error(`placement: unknown value ${String(never)}`);
    }
  }
}

function splitInto(params: Params, splitQueryKeys: ReadonlySet<string>, query: { text: string }, body: { text: string }): void {
  for (const k in params) {
    const v = params[k];
    if (v === undefined) continue;
    const piece = encodeText(k) + '=' + encodeValue(v);
    if (splitQueryKeys.has(k)) query.text += (query.text.length === 0 ? '' : '&') + piece;
    else body.text += (body.text.length === 0 ? '' : '&') + piece;
  }
}

/**
 * Returns the signed wire form: totalParams is query + body with no `&` at the join; the signature
 * goes last into the body when there is one, else into the query. `more` (the timestamp, recvWindow)
 * follows `params` and must not repeat a key of it.
 */
export function signRequest(signer: Signer, params: Params, placement: Placement, splitQueryKeys?: ReadonlySet<string>, more?: Params): EncodedRequest {
  const { query, body } = placeParams(params, placement, splitQueryKeys, more);
  const totalParams = query + body;
  const sig = 'signature=' + signer.sign(totalParams);
  if (body.length > 0 || placement !== 'query') {
    return { query, body: body.length === 0 ? sig : body + '&' + sig, totalParams };
  }
  return { query: query.length === 0 ? sig : query + '&' + sig, body, totalParams };
}
