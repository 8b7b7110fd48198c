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

function encodeValue(v: ParamValue): string {
  return encodeURIComponent(typeof v === 'string' ? v : String(v));
}

/** Returns `k=v&k2=v2` for the defined parameters, in their order, percent-encoded. */
export function encodeParams(params: Params): string {
  let out = '';
  for (const k in params) {
    const v = params[k];
    if (v === undefined) continue;
    out += (out.length === 0 ? '' : '&') + encodeURIComponent(k) + '=' + encodeValue(v);
  }
  return out;
}

/** The wire form of a request: the query string (without `?`) and the form body, both already holding `signature` when signed. */
export interface EncodedRequest {
  query: string;
  body: string;
  /** The text that was signed: query followed directly by body, without the signature piece. */
  totalParams: string;
}

/** Splits parameters into query and body text for a placement. */
export function placeParams(params: Params, placement: Placement, splitQueryKeys: ReadonlySet<string> = DEFAULT_SPLIT_QUERY_KEYS): { query: string; body: string } {
  switch (placement) {
    case 'query':
      return { query: encodeParams(params), body: '' };
    case 'body':
      return { query: '', body: encodeParams(params) };
    case 'split': {
      let query = '';
      let body = '';
      for (const k in params) {
        const v = params[k];
        if (v === undefined) continue;
        const piece = encodeURIComponent(k) + '=' + encodeValue(v);
        if (splitQueryKeys.has(k)) query += (query.length === 0 ? '' : '&') + piece;
        else body += (body.length === 0 ? '' : '&') + piece;
      }
      return { query, body };
    }
    default: {
      const never: never = placement;
      throw new Error(`placement: unknown value ${String(never)}`);
    }
  }
}

/**
 * Returns the signed wire form: totalParams is query + body with no `&` at the join; the signature
 * goes last into the body when there is one, else into the query.
 */
export function signRequest(signer: Signer, params: Params, placement: Placement, splitQueryKeys?: ReadonlySet<string>): EncodedRequest {
  const { query, body } = placeParams(params, placement, splitQueryKeys);
  const totalParams = query + body;
  const sig = 'signature=' + signer.sign(totalParams);
  if (body.length > 0 || placement !== 'query') {
    return { query, body: body.length === 0 ? sig : body + '&' + sig, totalParams };
  }
  return { query: query.length === 0 ? sig : query + '&' + sig, body, totalParams };
}
