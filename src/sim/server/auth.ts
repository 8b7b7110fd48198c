/** Who is calling: API keys, their permissions, signature verification and the timing rule of venue-notes.md §2. */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ApiError, apiError, missingParam } from './errors.ts';
import type { RequestParams } from './params.ts';

/** What an endpoint needs of a key: public, order entry, reads, the user stream, or wallet movements. */
export type Security = 'NONE' | 'TRADE' | 'USER_DATA' | 'USER_STREAM' | 'WALLET';
/** The kinds a key may be allowed. */
export type Permission = Exclude<Security, 'NONE'>;

/** Named permission sets of config/venue.yaml. */
export const PERMISSION_PRESETS: Readonly<Record<string, readonly Permission[]>> = {
  all: ['TRADE', 'USER_DATA', 'USER_STREAM', 'WALLET'],
  'trade-only': ['TRADE'],
  'no-trade': ['USER_DATA', 'USER_STREAM', 'WALLET'],
  'read-only': ['USER_DATA', 'USER_STREAM'],
};

/** One API key as the server holds it: the secret only as a KeyObject. */
export interface KeyRecord {
  readonly apiKey: string;
  readonly hmacKey: KeyObject;
  readonly permissions: ReadonlySet<Permission>;
  readonly enabled: boolean;
  /** The engine's user this key acts for. */
  readonly userId: string;
  /** 0 for a main-account key, 1 or more for a sub-account key. */
  readonly accountIndex: number;
  /** Addresses the key may come from; empty means any. */
  readonly ipWhitelist: readonly string[];
}

/** Returns a KeyRecord for a key pair; the secret string is not kept. */
export function keyRecord(k: { apiKey: string; secret: string; permissions: readonly Permission[]; enabled?: boolean; userId: string; accountIndex?: number; ipWhitelist?: readonly string[] }): KeyRecord {
  return {
    apiKey: k.apiKey,
    hmacKey: createSecretKey(Buffer.from(k.secret, 'utf8')),
    permissions: new Set(k.permissions),
    enabled: k.enabled ?? true,
    userId: k.userId,
    accountIndex: k.accountIndex ?? 0,
    ipWhitelist: k.ipWhitelist ?? [],
  };
}

/** What the caller sent to be checked. */
export interface AuthInput {
  apiKeyHeader: string | undefined;
  params: RequestParams;
  security: Exclude<Security, 'NONE'>;
  /** The largest recvWindow accepted (server.maxRecvWindowMs). */
  maxRecvWindowMs: number;
  now: number;
  ip: string;
}

/**
 * Returns the key record of a valid signed request; throws the ApiError real servers answered:
 * -1002 no or short key, -1103 no parameters, -1004 no signature or timestamp, -2015 unknown or
 * disabled key or address not allowed, -1022 bad signature, -1005 not permitted, -1021 timing.
 */
export function authenticate(keys: ReadonlyMap<string, KeyRecord>, a: AuthInput): KeyRecord {
  const apiKey = a.apiKeyHeader ?? a.params.values.get('accessKey');
  if (apiKey === undefined || apiKey.length < 64) throw apiError(-1002);
  if (a.params.count === 0) throw apiError(-1103);
  const sig = a.params.signature;
  if (sig === undefined || sig === '') throw missingParam('signature');
  const ts = a.params.values.get('timestamp');
  if (ts === undefined || ts === '') throw missingParam('timestamp');
  const rec = keys.get(apiKey);
  if (!rec || !rec.enabled) throw apiError(-2015);
  if (rec.ipWhitelist.length > 0 && !rec.ipWhitelist.includes(a.ip)) throw apiError(-2015);
  if (!signatureMatches(rec.hmacKey, a.params.signedTexts, sig)) throw apiError(-1022);
  if (!rec.permissions.has(a.security)) throw apiError(-1005);
  if (!/^\d{1,16}$/.test(ts)) throw apiError(-1130, 'timestamp');
  // Stricter than the published venue, which checked the time on the two new-order endpoints only: a signed cancel, transfer or withdrawal could be replayed for ever.
  checkTiming(Number(ts), a.params.values.get('recvWindow'), a.now, a.maxRecvWindowMs);
  return rec;
}

/** Returns true when `sig` (hex, any case) is the HMAC of one of the accepted texts. */
export function signatureMatches(key: KeyObject, texts: readonly string[], sig: string): boolean {
  if (sig.length !== 64) return false;
  // Hex decoding (either case) stops at the first character that is not hex: 32 bytes means all 64 characters were.
  const given = Buffer.from(sig, 'hex');
  if (given.length !== 32) return false;
  for (const t of texts) {
    const mac = createHmac('sha256', key).update(t).digest();
    if (timingSafeEqual(mac, given)) return true;
  }
  return false;
}

/** Throws -1021 unless timestamp < now + 1000 and now - timestamp <= recvWindow (default 5000); -1130 for a recvWindow that is not an integer up to `maxRecvWindow`. */
export function checkTiming(timestamp: number, recvWindowRaw: string | undefined, now: number, maxRecvWindow = 60_000): void {
  let recvWindow = 5000;
  if (recvWindowRaw !== undefined && recvWindowRaw !== '') {
    if (!/^\d{1,16}$/.test(recvWindowRaw)) throw apiError(-1130, 'recvWindow');
    recvWindow = Number(recvWindowRaw);
    if (recvWindow > maxRecvWindow) throw apiError(-1130, 'recvWindow');
  }
  if (!(timestamp < now + 1000 && now - timestamp <= recvWindow)) throw apiError(-1021);
}

/** Returns the KeyRecords by API key, refusing duplicates. */
export function keyRing(records: readonly KeyRecord[]): Map<string, KeyRecord> {
  const m = new Map<string, KeyRecord>();
  for (const r of records) {
    if (m.has(r.apiKey)) throw new ApiError(-1000, `duplicate apiKey ${r.apiKey.slice(0, 6)}…`);
    m.set(r.apiKey, r);
  }
  return m;
}
