/** Field readers shared by every payload parser: each accepts the forms real servers sent and names the full path on failure. */
import { ParseError } from '../core/errors.ts';
import { isDecimalString, normalizeDecimal } from '../core/fixed.ts';

/** A JSON object as it came off the wire. */
export type WireObject = Readonly<Record<string, unknown>>;

/** Returns the path of `key` under `path` (`openOrders[0]` + `price` → `openOrders[0].price`). */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** Returns `raw` as an object, or throws ParseError naming `path`. */
export function asObject(raw: unknown, path: string): WireObject {
  if (raw === undefined) throw missing(path);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ParseError(path, `must be an object, got ${describe(raw)}`);
  }
  return raw as WireObject;
}

/** Returns `raw` as an array, or throws ParseError naming `path`. */
export function asArray(raw: unknown, path: string): readonly unknown[] {
  if (raw === undefined) throw missing(path);
  if (!Array.isArray(raw)) throw new ParseError(path, `must be an array, got ${describe(raw)}`);
  return raw;
}

/** Returns every element of the array `raw` parsed by `parse`, each under the path `path[i]`. */
export function listOf<T>(raw: unknown, path: string, parse: (el: unknown, path: string) => T): readonly T[] {
  const arr = asArray(raw, path);
  const out: T[] = new Array<T>(arr.length);
  for (let i = 0; i < arr.length; i++) out[i] = parse(arr[i], at(path, i));
  return out;
}

/** Returns the value of `key`, treating null as absent (the venue omits null fields, but a few payloads send null). */
function present(obj: WireObject, key: string): unknown {
  const v = obj[key];
  return v === null ? undefined : v;
}

// The readers below take the field's value as `raw` when the caller has read it already: a hot parser reads
// its fields by name (`o['E']`), which V8 makes a fast named load, where the reader's own `obj[key]` is a
// slow lookup by a varying key. Omitted, `raw` is read as obj[key]. Either way null counts as absent.

function given(raw: unknown): unknown {
  return raw === null ? undefined : raw;
}

function missing(path: string): ParseError {
  return new ParseError(path, 'is required but missing');
}

/** Returns a required string field. */
export function reqString(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): string {
  const v = given(raw);
  if (v === undefined) throw missing(at(path, key));
  if (typeof v !== 'string') throw new ParseError(at(path, key), `must be a string, got ${describe(v)}`);
  return v;
}

/** Returns an optional string field (undefined when absent or null). */
export function optString(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): string | undefined {
  return given(raw) === undefined ? undefined : reqString(obj, key, path, raw);
}

function idOf(v: unknown, p: string): string {
  if (typeof v === 'string') {
    if (v.length === 0) throw new ParseError(p, 'must be a non-empty id');
    return v;
  }
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new ParseError(p, `must be an integer id, got ${v}`);
    // A number past 2^53 has already lost digits: the body must be read with parseWireJson.
    if (!Number.isSafeInteger(v)) throw new ParseError(p, `id ${v} exceeds 2^53 as a JSON number; read the body with parseWireJson`);
    return String(v);
  }
  throw new ParseError(p, `must be an id (string or integer), got ${describe(v)}`);
}

/** Returns a required id (orderId, tradeId, accountId …) as a string, whether sent as a string or a number. */
export function reqId(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): string {
  const v = given(raw);
  if (v === undefined) throw missing(at(path, key));
  // The usual form needs no path: it is only built for an error.
  if (typeof v === 'string' && v.length > 0) return v;
  return idOf(v, at(path, key));
}

/** Returns an optional id as a string (undefined when absent or null). */
export function optId(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): string | undefined {
  const v = given(raw);
  if (v === undefined) return undefined;
  if (typeof v === 'string' && v.length > 0) return v;
  return idOf(v, at(path, key));
}

const UINT_RE = /^\d+$/;

function timeOf(v: unknown, p: string): number {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) throw new ParseError(p, `must be a non-negative integer time in ms, got ${v}`);
    return v;
  }
  if (typeof v === 'string') {
    const n = Number(v);
    if (!UINT_RE.test(v) || !Number.isSafeInteger(n)) throw new ParseError(p, `must be a non-negative integer time in ms, got ${describe(v)}`);
    return n;
  }
  throw new ParseError(p, `must be a time (string or number of ms), got ${describe(v)}`);
}

/** Returns a required time as a number, whether sent as a string (`"1588214701974"`, `"0"`) or a number. */
export function reqTime(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): number {
  const v = given(raw);
  if (v === undefined) throw missing(at(path, key));
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string') {
    const n = shortUint(v);
    if (n >= 0) return n;
  }
  return timeOf(v, at(path, key));
}

/** Returns the value of 1 to 15 digits (exact in a double, read as the digits are checked), else -1 (timeOf judges every other form). */
function shortUint(v: string): number {
  if (v.length === 0 || v.length > 15) return -1;
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  return n;
}

/** Returns an optional time as a number (undefined when absent or null). */
export function optTime(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): number | undefined {
  const v = given(raw);
  return v === undefined ? undefined : timeOf(v, at(path, key));
}

/**
 * The longest decimal the venue's answers carry is a balance of 18 decimals (well under 64 characters): a longer one
 * is malformed, and decimal arithmetic on a thousands-digit number would stall the bot.
 */
export const MAX_DECIMAL_CHARS = 64;

/** Returns true when `s` is already what normalizeDecimal makes of it: digits, no sign, no leading zero, no trailing zero after a point. */
function isNormalDecimal(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > MAX_DECIMAL_CHARS) return false;
  let c = s.charCodeAt(0);
  let i = 1;
  if (c !== 48 /* 0 */) {
    if (c < 49 || c > 57) return false;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
  }
  if (i === n) return true;
  if (s.charCodeAt(i) !== 46 /* . */ || i + 1 === n || s.charCodeAt(n - 1) === 48) return false;
  for (let j = i + 1; j < n; j++) {
    c = s.charCodeAt(j);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Returns true when every value is a string already in normal form (what reqDecimal returns unchanged): a
 * hot parser checks its decimal fields in one call and reads them with reqDecimal only when one is not, so
 * a malformed or unnormalised field is still normalised, or named in the error, by the reader.
 */
export function allNormalDecimals(a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && typeof c === 'string' && typeof d === 'string' && typeof e === 'string'
    && typeof f === 'string' && typeof g === 'string'
    && isNormalDecimal(a) && isNormalDecimal(b) && isNormalDecimal(c) && isNormalDecimal(d) && isNormalDecimal(e) && isNormalDecimal(f) && isNormalDecimal(g);
}

/** Returns `v` (a JSON string) as a normalised decimal string, or throws naming `p`. */
export function decimalOf(v: unknown, p: string): string {
  if (typeof v !== 'string') throw new ParseError(p, `must be a decimal string, got ${describe(v)}`);
  // Most venue decimals arrive already normal ("0.001", "25"): they need no scaled-integer round trip.
  if (isNormalDecimal(v)) return v;
  if (v.length > MAX_DECIMAL_CHARS) throw new ParseError(p, `must be a decimal of at most ${MAX_DECIMAL_CHARS} characters, got ${v.length}`);
  if (!isDecimalString(v)) throw new ParseError(p, `must be a decimal number, got ${describe(v)}`);
  return normalizeDecimal(v, p);
}

/** Returns a required decimal string field, normalised (`"0.00100000"` → `"0.001"`). */
export function reqDecimal(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): string {
  const v = given(raw);
  if (v === undefined) throw missing(at(path, key));
  if (typeof v === 'string' && isNormalDecimal(v)) return v;
  return decimalOf(v, at(path, key));
}

/** Returns an optional decimal (undefined when absent, null or, where the venue documents it, an empty string). */
export function optDecimal(obj: WireObject, key: string, path: string, emptyIsAbsent = false, raw: unknown = obj[key]): string | undefined {
  const v = given(raw);
  if (v === undefined || (emptyIsAbsent && v === '')) return undefined;
  if (typeof v === 'string' && isNormalDecimal(v)) return v;
  return decimalOf(v, at(path, key));
}

/**
 * Returns a decimal sent either as a string or, for the few fields published as JSON numbers
 * (insurance `value`, modifyMargin `margin`), as a number converted by its shortest text.
 */
export function reqDecimalOrNumber(obj: WireObject, key: string, path: string): string {
  const v = present(obj, key);
  if (v === undefined) throw missing(at(path, key));
  if (typeof v === 'number') {
    const s = Number.isFinite(v) ? String(v) : '';
    if (!isDecimalString(s)) throw new ParseError(at(path, key), `must be a plain decimal number, got ${v}`);
    return normalizeDecimal(s, at(path, key));
  }
  return decimalOf(v, at(path, key));
}

/** Returns a required boolean field. */
export function reqBool(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): boolean {
  const v = given(raw);
  if (v === undefined) throw missing(at(path, key));
  if (typeof v !== 'boolean') throw new ParseError(at(path, key), `must be a boolean, got ${describe(v)}`);
  return v;
}

/** Returns an optional boolean field. */
export function optBool(obj: WireObject, key: string, path: string, raw: unknown = obj[key]): boolean | undefined {
  return given(raw) === undefined ? undefined : reqBool(obj, key, path, raw);
}

/** Returns a boolean sent as a boolean or as the string "true"/"false" (the transfer answer). */
export function reqBoolish(obj: WireObject, key: string, path: string): boolean {
  const v = present(obj, key);
  if (v === 'true') return true;
  if (v === 'false') return false;
  return reqBool(obj, key, path);
}

function intOf(v: unknown, p: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  throw new ParseError(p, `must be an integer, got ${describe(v)}`);
}

/** Returns a required small integer (accountType, status, confirmations, limits), sent as a number or a digit string. */
export function reqInt(obj: WireObject, key: string, path: string): number {
  const v = present(obj, key);
  if (v === undefined) throw missing(at(path, key));
  return intOf(v, at(path, key));
}

/** Returns an optional small integer. */
export function optInt(obj: WireObject, key: string, path: string): number | undefined {
  const v = present(obj, key);
  return v === undefined ? undefined : intOf(v, at(path, key));
}

/** Returns a required field that must be one of `values`. */
export function reqEnum<T extends string>(obj: WireObject, key: string, path: string, values: readonly T[], raw: unknown = obj[key]): T {
  const v = reqString(obj, key, path, raw);
  if (!(values as readonly string[]).includes(v)) {
    throw new ParseError(at(path, key), `must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

/** Returns an optional field that must be one of `values` when present. */
export function optEnum<T extends string>(obj: WireObject, key: string, path: string, values: readonly T[], raw: unknown = obj[key]): T | undefined {
  return given(raw) === undefined ? undefined : reqEnum(obj, key, path, values, raw);
}

/** Returns an object of decimal strings keyed by name (index prices, edp). */
export function decimalMap(raw: unknown, path: string): Readonly<Record<string, string>> {
  const obj = asObject(raw, path);
  const out: Record<string, string> = {};
  for (const k of Object.keys(obj)) out[k] = decimalOf(obj[k], at(path, k));
  return out;
}

/** Returns a book level `[price, qty]` as two normalised decimal strings. */
export function levelOf(raw: unknown, path: string): readonly [price: string, qty: string] {
  const arr = asArray(raw, path);
  if (arr.length < 2) throw new ParseError(path, `must be [price, quantity], got ${arr.length} element(s)`);
  return [decimalOf(arr[0], at(path, 0)), decimalOf(arr[1], at(path, 1))];
}

const LONG_NUMBER_RE = /(?:^|[:,[])\s*-?\d{16}/;
const TOKEN_RE = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Returns the JSON value of `text`, keeping integers beyond 2^53 exact by reading them as strings.
 * Real servers sent some 64-bit ids as bare numbers (`"matchOrderId": 436002617267469062`), which
 * JSON.parse would silently round; every response body and stream frame should be read with this.
 */
export function parseWireJson(text: string): unknown {
  // A bare number token starts the text or follows ':', '[' or ','; without 16 digits in a row after one, none can pass 2^53 (the usual frame: no rewrite pass).
  if (!hasDigitRun16(text) || !LONG_NUMBER_RE.test(text)) return parseJson(text);
  let changed = false;
  const safe = text.replace(TOKEN_RE, (tok) => {
    if (tok.charCodeAt(0) === 34 /* " */ || tok.length < 16 || /[.eE]/.test(tok)) return tok;
    if (Number.isSafeInteger(Number(tok))) return tok;
    changed = true;
    return `"${tok}"`;
  });
  return parseJson(changed ? safe : text);
}

/**
 * Returns true when `text` holds 16 digits in a row anywhere (LONG_NUMBER_RE can match only then). Such a
 * run covers a position ≡ 15 (mod 16), so only those are probed: a frame is read at a sixteenth of its
 * characters plus the digit runs met, where the regex reads every one.
 */
function hasDigitRun16(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; i += 16) {
    if (!isDigitAt(text, i)) continue;
    let a = i;
    while (a > 0 && isDigitAt(text, a - 1)) a--;
    let b = i + 1;
    while (b < n && isDigitAt(text, b)) b++;
    if (b - a >= 16) return true;
    // The next probe is the first position of the form past the run (the run's own ones hold no other run).
    i += ((b - i - 1) >> 4) << 4;
  }
  return false;
}

/** Returns true when the character at `i` of `s` is an ASCII digit (false past its end). */
export function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ParseError('<body>', `must be JSON: ${(err as Error).message}`, { cause: err });
  }
}
