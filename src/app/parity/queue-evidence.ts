/**
 * What the live run's own maker fills say of the queue. The venue fills a price level first come, first
 * served: a trade that filled the bot's quote found nothing ahead of it. The recorded book can still
 * show others' size ahead at that price when they left (a cancel) just before the trade, in the same
 * push as it: a backtest reading that book keeps the size ahead of its quote, and the trade fills the
 * others instead. Where the evidence is plain, the trade is replayed just after the diff that shows
 * them gone, at its time. Plain means: others were ahead of the quote (size at the level when it was
 * placed, never all gone in a diff since: size that came later queued behind it), no other trade at
 * that price came between the last diff and the fill (one that could have taken them), and the diff
 * right after the fill, within a push, lowers the others' size there. Only the trade moves, by at most
 * a push: the book the strategy reads keeps its recorded times.
 */
import { Decimal } from '../../core/fixed.ts';
import { CaptureReader, captureFiles } from '../../data/capture/index.ts';
import type { OrderUpdateEvent } from '../../model/events.ts';
import { keyOf, OwnBook, type MovedTrade, type OwnChange } from './own-book.ts';

/** How long after a fill of the bot's quote the diff showing the others gone may come: two of the live run's pushes (50 ms). */
export const QUEUE_EVIDENCE_WINDOW_MS = 100;

/** A fill of the bot's quote waiting for the diff after it. */
interface Waiting {
  readonly tradeId: string;
  readonly time: number;
  /** The others' size at the level before the trade (the last diff's, the bot's own taken out). */
  readonly before: Decimal;
}

/** Returns the trades (by id) of the market capture in `from` to replay after a later diff, from the bot's own maker fills in `reports`. */
export async function aheadGone(from: string, reports: readonly OrderUpdateEvent[], changes: readonly OwnChange[]): Promise<Map<string, MovedTrade>> {
  const out = new Map<string, MovedTrade>();
  // The trades that filled the bot's resting quotes: the quote's order.
  const fills = new Map<string, string>();
  // Each resting quote's level, and when it was placed and ended (venue times), in time order.
  const events: { ts: number; id: string; key?: string }[] = [];
  const seen = new Set<string>();
  for (const r of [...reports].sort((a, b) => a.ts - b.ts)) {
    if (r.maker && r.tradeId !== undefined && r.tradeId !== '') fills.set(r.tradeId, r.clientOrderId);
    if (!seen.has(r.clientOrderId) && r.price !== '') {
      seen.add(r.clientOrderId);
      events.push({ ts: r.ts, id: r.clientOrderId, key: keyOf(r.symbol, r.side.startsWith('BUY') ? 'b' : 'a', r.price) });
    }
    if (ENDED.has(r.status)) events.push({ ts: r.ts, id: r.clientOrderId });
  }
  if (fills.size === 0) return out;
  const book = new OwnBook(changes);
  // Per level: the others' size the last diff showed, and whether another's trade at its price came since.
  const others = new Map<string, Decimal>();
  const tradedSince = new Set<string>();
  // Per resting quote: its level and the least others' size there since it was placed (all of it ahead of the quote).
  const resting = new Map<string, { key: string; ahead: Decimal }>();
  let next = 0;
  const upTo = (t: number): void => {
    for (; next < events.length && events[next]!.ts <= t; next++) {
      const e = events[next]!;
      if (e.key === undefined) resting.delete(e.id);
      else resting.set(e.id, { key: e.key, ahead: others.get(e.key) ?? new Decimal(0) });
    }
  };
  const waiting = new Map<string, Waiting>();
  const reader = new CaptureReader(await captureFiles(from, 'market'));
  let n = 0;
  for await (const r of reader.records()) {
    n++;
    if (r.marker !== undefined) continue;
    let v: { topic?: unknown; symbol?: unknown; data?: unknown };
    try {
      v = JSON.parse(r.frame) as typeof v;
    } catch {
      continue;
    }
    if (!Array.isArray(v.data)) continue;
    if (v.topic === 'trade') {
      for (const t of v.data as Record<string, unknown>[]) {
        if (typeof t['p'] !== 'string' || typeof t['v'] !== 'string' || typeof t['t'] !== 'number') continue;
        const symbol = typeof t['s'] === 'string' ? t['s'] : String(v.symbol);
        const id = fills.get(t['v']);
        if (id === undefined) {
          // Another's trade at that price: a later fill there no longer shows the head of the level left by itself.
          for (const s of ['b', 'a'] as const) {
            const key = keyOf(symbol, s, t['p']);
            if (others.has(key)) tradedSince.add(key);
          }
          continue;
        }
        const q = resting.get(id);
        if (q === undefined || !q.ahead.gt(0) || tradedSince.has(q.key) || waiting.has(q.key)) continue;
        waiting.set(q.key, { tradeId: t['v'], time: t['t'], before: others.get(q.key) ?? new Decimal(0) });
      }
      continue;
    }
    if (v.topic !== 'diffDepth') continue;
    for (const d of v.data as Record<string, unknown>[]) {
      const symbol = typeof d['s'] === 'string' ? d['s'] : String(v.symbol);
      const time = typeof d['t'] === 'number' ? d['t'] : undefined;
      if (time !== undefined) {
        book.advance(time);
        upTo(time);
      }
      for (const side of ['b', 'a'] as const) {
        const levels = d[side];
        if (!Array.isArray(levels)) continue;
        for (const l of levels as unknown[]) {
          if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'string') continue;
          const key = keyOf(symbol, side, l[0]);
          // The others' size: the recorded size less the bot's own resting there now.
          const now = Decimal.max(0, new Decimal(l[1]).minus(book.at(key) ?? 0));
          const w = waiting.get(key);
          if (w !== undefined) {
            waiting.delete(key);
            if (time !== undefined && time - w.time <= QUEUE_EVIDENCE_WINDOW_MS && now.lt(w.before)) out.set(w.tradeId, { afterRecord: n, time });
          }
          for (const q of resting.values()) if (q.key === key && now.lt(q.ahead)) q.ahead = now;
          // Only levels with size are kept: the maps stay as small as the book.
          if (now.isZero()) others.delete(key);
          else others.set(key, now);
          tradedSince.delete(key);
        }
      }
    }
  }
  return out;
}

/** Statuses an order ends in. */
const ENDED = new Set(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED']);
