/** The market WebSocket's requests (venue-notes.md §3): a client frame read into a ping, a sub/cancel/cancel_all, or the venue's error code and text. */
import type { MarketSource } from './market-source.ts';

const TOPICS = new Set(['trade', 'depth', 'diffDepth', 'mergedDepth', 'realtimes', 'bookTicker', 'index']);

/** The kline intervals a `kline_<interval>` topic may name. */
export const KLINE_INTERVALS = new Set(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M']);

/** A client frame as the server acts on it. */
export type MarketRequest =
  | { readonly kind: 'error'; readonly code: string; readonly desc: string }
  | { readonly kind: 'ping'; readonly ping: unknown }
  | { readonly kind: 'pong' }
  | { readonly kind: 'cancel_all'; readonly id: string | undefined }
  | {
      readonly kind: 'sub' | 'cancel';
      readonly id: string | undefined;
      readonly topic: string;
      readonly symbols: string[];
      /** The params echoed in every frame: as sent, with binary false by default and klineType for klines. */
      readonly params: Record<string, unknown>;
    };

const fail = (code: string, desc: string): MarketRequest => ({ kind: 'error', code, desc });

/**
 * The longest `params` (as JSON) a subscription may carry. Params are kept with the subscription and echoed
 * in every push, so a 60 KB blob on each topic and symbol of many connections would hold gigabytes; real
 * params (binary, limit, klineType) take a few dozen characters.
 */
export const MAX_PARAMS_CHARS = 1024;

/** Returns what a text frame asks, checking it in the venue's order (JSON, event, topic, symbols). */
export function readRequest(text: string, src: MarketSource): MarketRequest {
  let m: Record<string, unknown>;
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail('-10000', 'Invalid request!');
    m = v as Record<string, unknown>;
  } catch {
    return fail('-10001', 'Invalid JSON!');
  }
  if (m['ping'] !== undefined && m['event'] === undefined) return { kind: 'ping', ping: m['ping'] };
  if (m['pong'] !== undefined) return { kind: 'pong' };
  const event = m['event'];
  if (event === undefined || event === '') return fail('-10003', 'Event required!');
  if (event !== 'sub' && event !== 'cancel' && event !== 'cancel_all') return fail('-10002', 'Invalid event!');
  const id = typeof m['id'] === 'string' || typeof m['id'] === 'number' ? String(m['id']) : undefined;
  if (event === 'cancel_all') return { kind: 'cancel_all', id };
  const topic = m['topic'];
  if (typeof topic !== 'string' || topic === '') return fail('-10005', 'Topic required!');
  if (!TOPICS.has(topic) && !(topic.startsWith('kline_') && KLINE_INTERVALS.has(topic.slice(6)))) {
    if (topic.startsWith('kline')) return fail('-10009', 'Invalid period!');
    return fail('-10004', 'Invalid topic!');
  }
  const symText = m['symbol'];
  if (typeof symText !== 'string' || symText.trim() === '') return fail('-100003', 'Symbol required!');
  const symbols = symText.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const known = (s: string): boolean => (topic === 'index' ? src.index(s) !== undefined : src.hasSymbol(s));
  if (symbols.length === 0 || symbols.length > 50 || !symbols.every(known)) return fail('-100010', 'Invalid Symbols!');
  const rawParams = m['params'];
  const params: Record<string, unknown> = typeof rawParams === 'object' && rawParams !== null && !Array.isArray(rawParams) ? { ...(rawParams as Record<string, unknown>) } : {};
  if (JSON.stringify(params).length > MAX_PARAMS_CHARS) return fail('-10000', 'Invalid request!');
  if (params['binary'] === undefined) params['binary'] = false;
  if (topic.startsWith('kline_')) params['klineType'] = topic.slice(6);
  return { kind: event, id, topic, symbols, params };
}

/** Returns the number of items a subscription's frames carry: its `limit` param within the topic's default and maximum. */
export function limitOf(topic: string, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : undefined;
  const [def, max] = topic === 'trade' ? [60, 1000] : topic === 'mergedDepth' ? [40, 40] : topic.startsWith('kline_') ? [1, 2000] : [100, 100];
  return n === undefined || n < 1 ? def : Math.min(n, max);
}
