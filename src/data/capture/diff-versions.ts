/** Follows the diffDepth versions of each symbol in the raw frames, to mark a gap the moment a diff is lost or comes out of order. */
import { compareVersions, follows } from '../../venue/local-book.ts';

/** A diff that does not follow the one before. */
export interface VersionGap {
  readonly symbol: string;
  /** The version last seen (undefined when none was). */
  readonly after: string | undefined;
  readonly got: string;
  readonly reason: string;
}

interface Last {
  version: string;
  from: 'snapshot' | 'diff';
}

/**
 * One entry per subscribed symbol (bounded by the subscriptions). The rules are LocalBook's: each diff is
 * the previous version plus one (or, for `increasing`, any later version); a diff at or below a snapshot's
 * version is inside it; a diff behind a diff is a gap.
 */
export class DiffVersions {
  private readonly last = new Map<string, Last>();

  /** `contiguous`: each diff must be the previous version plus one; `increasing`: versions need only grow (a venue that skips numbers). */
  constructor(private readonly rule: 'contiguous' | 'increasing' = 'contiguous') {}

  /** Forgets every version (after a reconnect the first push of each subscription starts afresh). */
  reset(): void {
    this.last.clear();
  }

  /** Reads one diffDepth frame's text; returns the gap it shows, or undefined. Unreadable frames are not judged. */
  check(text: string): VersionGap | undefined {
    let o: { topic?: unknown; symbol?: unknown; f?: unknown; data?: unknown };
    try {
      o = JSON.parse(text) as typeof o;
    } catch {
      return undefined;
    }
    if (o.topic !== 'diffDepth' || typeof o.symbol !== 'string' || !Array.isArray(o.data)) return undefined;
    const symbol = o.symbol;
    let gap: VersionGap | undefined;
    for (const el of o.data as unknown[]) {
      const v = (el as { v?: unknown } | null)?.v;
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      const version = String(v);
      const last = this.last.get(symbol);
      if (o.f === true || last === undefined) {
        this.last.set(symbol, { version, from: o.f === true ? 'snapshot' : 'diff' });
        continue;
      }
      const c = compareVersions(version, last.version);
      if (c <= 0 && last.from === 'snapshot') continue;
      if (c > 0 && (this.rule === 'increasing' || follows(version, last.version))) {
        this.last.set(symbol, { version, from: 'diff' });
        continue;
      }
      gap ??= { symbol, after: last.version, got: version, reason: c <= 0 ? `diff ${version} arrived after ${last.version}` : `diff ${version} does not follow ${last.version}` };
      // Follow on from the newest diff seen, so one loss is marked once.
      if (c > 0) this.last.set(symbol, { version, from: 'diff' });
    }
    return gap;
  }
}
