/** Request parameters from the query string and the form body (the query wins), and the texts a signature may cover. */
import { isAscii } from 'node:buffer';
import { ApiError, apiError } from './errors.ts';

/** The parameters of one request and the raw texts they came from. */
export interface RequestParams {
  /** Decoded values; the query string's value wins over the body's, the first occurrence within one source. */
  readonly values: Map<string, string>;
  /** Texts a valid signature may cover (venue-notes.md §2), without duplicates. */
  readonly signedTexts: string[];
  /** The `signature` parameter as sent, if any. */
  readonly signature: string | undefined;
  /** How many parameters were sent in all, the signature included. */
  readonly count: number;
}

const MAX_VALUE_CHARS = 1024;

/** Returns the decoded form of `s` (`+` is a space); throws -1100 naming the parameter when the text is not valid UTF-8 percent-encoding. */
function decode(s: string, field: string): string {
  if (s.indexOf('%') < 0 && s.indexOf('+') < 0) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw apiError(-1100, field, 'UTF-8 percent-encoded text');
  }
}

/**
 * Raw pieces of one text joined by `&`. While the pieces taken are contiguous in the text (the usual
 * case: every piece but a trailing signature) the result is one slice of it, not a chain of concatenations.
 */
class Joined {
  private start = -1;
  private end = -1;
  private parts: string | undefined;

  constructor(private readonly text: string) {}

  add(from: number, to: number): void {
    if (this.start < 0) {
      this.start = from;
      this.end = to;
    } else if (this.parts === undefined && from === this.end + 1) {
      this.end = to;
    } else {
      this.parts = (this.parts ?? this.text.slice(this.start, this.end)) + '&' + this.text.slice(from, to);
    }
  }

  result(): string {
    return this.parts ?? (this.start < 0 ? '' : this.text.slice(this.start, this.end));
  }
}

/**
 * Reads the `key=value` pieces of `text` into `values` (first occurrence wins); the raw pieces
 * other than `signature` go to `signed`, and to `merged` too when their key is not in `queryKeys`.
 * Returns how many pieces there were (empty pieces between `&&` are not pieces).
 */
function readPieces(text: string, values: Map<string, string>, signed: Joined | undefined, queryKeys?: ReadonlySet<string>, merged?: Joined): number {
  let count = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    let amp = text.indexOf('&', i);
    if (amp < 0) amp = n;
    if (amp > i) {
      let eq = text.indexOf('=', i);
      if (eq > amp) eq = -1;
      const key = decode(text.slice(i, eq < 0 ? amp : eq), 'name');
      const value = eq < 0 ? '' : decode(text.slice(eq + 1, amp), key);
      if (value.length > MAX_VALUE_CHARS) throw apiError(-1130, key);
      count++;
      if (!values.has(key)) values.set(key, value);
      if (key !== 'signature') {
        signed?.add(i, amp);
        if (merged !== undefined && !queryKeys!.has(key)) merged.add(i, amp);
      }
    }
    i = amp + 1;
  }
  return count;
}

/**
 * Returns the parameters of a request from its raw query string (without `?`) and its decoded form body.
 * Throws an ApiError (-1100, -1130) for text that cannot be decoded or values too long to be real.
 */
export function parseParams(query: string, body: string): RequestParams {
  const values = new Map<string, string>();
  // venue-api.md: the query followed directly by the body, signature piece left out (`literal`).
  // Real servers: the query without its signature piece, then the body parameters the query does not carry (`merged`).
  const q = new Joined(query);
  const qCount = readPieces(query, values, q);
  const qNoSig = q.result();
  if (body.length === 0) return { values, signedTexts: [qNoSig], signature: values.get('signature'), count: qCount };
  const b = new Joined(body);
  const m = qCount === 0 ? undefined : new Joined(body);
  const bCount = readPieces(body, values, b, m === undefined ? undefined : new Set(values.keys()), m);
  const literal = qNoSig + b.result();
  const merged = m === undefined ? literal : qNoSig + m.result();
  const signedTexts = literal === merged ? [literal] : [literal, merged];
  return { values, signedTexts, signature: values.get('signature'), count: qCount + bCount };
}

/** Returns the bytes of a body as UTF-8 text; throws -1100 when they are not valid UTF-8. */
export function bodyText(bytes: Buffer): string {
  if (bytes.length === 0) return '';
  // A form body is almost always ASCII: then every byte is its character, and there is no BOM for the decoder to drop.
  if (isAscii(bytes)) return bytes.toString('latin1');
  try {
    return UTF8.decode(bytes);
  } catch {
    throw apiError(-1100, 'body', 'UTF-8 text');
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Typed access to request parameters: each getter names the field in its error. */
export class Params {
  constructor(private readonly v: Map<string, string>) {}

  /** Returns the value, or undefined when absent or sent empty (`orderId=`). */
  opt(name: string): string | undefined {
    const s = this.v.get(name);
    return s === undefined || s === '' ? undefined : s;
  }

  /** Returns the value; throws -1004 "Missing required parameter" when absent or empty. */
  req(name: string): string {
    const s = this.opt(name);
    if (s === undefined) throw new ApiError(-1004, `Missing required parameter '${name}'`);
    return s;
  }

  /** Returns an optional non-negative integer (ms, ids, limits); throws -1130 when it is not one. */
  optInt(name: string): number | undefined {
    const s = this.opt(name);
    if (s === undefined) return undefined;
    if (!/^\d{1,16}$/.test(s)) throw apiError(-1130, name);
    const n = Number(s);
    if (!Number.isSafeInteger(n)) throw apiError(-1130, name);
    return n;
  }

  /** Returns an optional id (decimal digits, up to 64-bit) as a string; throws -1130 otherwise. */
  optId(name: string): string | undefined {
    const s = this.opt(name);
    if (s === undefined) return undefined;
    if (!/^\d{1,20}$/.test(s) || BigInt(s) > 18446744073709551615n) throw apiError(-1130, name);
    return s;
  }

  /** Returns an optional decimal string (no exponent, at most 40 digits); throws -1130 otherwise. */
  optDecimal(name: string): string | undefined {
    const s = this.opt(name);
    if (s === undefined) return undefined;
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s) || s.replace(/[^0-9]/g, '').length > 40) throw apiError(-1130, name);
    return s;
  }

  /** Returns a limit clamped into [1, max] with `def` when absent (real servers clamp, never reject). */
  limit(def: number, max: number, name = 'limit'): number {
    const s = this.opt(name);
    if (s === undefined) return def;
    if (!/^-?\d{1,16}$/.test(s)) throw apiError(-1130, name);
    const n = Number(s);
    return n < 1 ? def : Math.min(n, max);
  }

  /** Returns the upper-cased value when it is one of `allowed`, undefined when absent; otherwise throws `err`. */
  optEnum<T extends string>(name: string, allowed: readonly T[], err: () => ApiError): T | undefined {
    const s = this.opt(name);
    if (s === undefined) return undefined;
    const up = s.toUpperCase();
    if ((allowed as readonly string[]).includes(up)) return up as T;
    throw err();
  }

  /** Returns true when the parameter was sent, even empty. */
  has(name: string): boolean {
    return this.v.has(name);
  }
}
