/** Drops the second copy of a frame while two connections of one stream overlap, so a rotation neither loses nor repeats an event. */
import type { Clock } from '../core/clock.ts';

// While two links carry the same stream, the venue sends each event to both. A frame is let through
// from whichever link brings it first; the same text from the other link is then its copy and is
// dropped, once. A frame repeated on the same link is a real repeat and passes. Copies are still
// recognised for `graceMs` after the overlap ends, for frames that were still in flight.

/** The duplicate filter of a rotation. */
export class OverlapDedupe {
  private readonly seen = new Map<string, number[]>();
  private active = false;
  private endsAt = Infinity;
  private droppedCount = 0;

  constructor(private readonly clock: Clock, private readonly graceMs: number) {}

  /** Returns how many copies were dropped. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Starts recognising copies (a second link is being opened). */
  begin(): void {
    this.active = true;
    this.endsAt = Infinity;
  }

  /** The old link is gone: copies are recognised for the grace period more, then forgotten. */
  end(): void {
    if (this.active) this.endsAt = this.clock.now() + this.graceMs;
  }

  /** Returns true when the frame `text` from `link` is new, false when it is the other link's copy. */
  admit(text: string, link: number): boolean {
    if (!this.active) return true;
    const now = this.clock.now();
    if (now > this.endsAt) {
      this.active = false;
      this.seen.clear();
      return true;
    }
    const list = this.seen.get(text);
    if (list) {
      const i = list.findIndex((l) => l !== link);
      if (i >= 0) {
        list.splice(i, 1);
        if (list.length === 0) this.seen.delete(text);
        this.droppedCount += 1;
        return false;
      }
      list.push(link);
    } else {
      this.seen.set(text, [link]);
    }
    return true;
  }
}
