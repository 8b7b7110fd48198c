/** A growable list held in fixed chunks, for the logs a busy venue appends to on every fill: appending never copies what is already held. */

const BITS = 10;
const SIZE = 1 << BITS;
const MASK = SIZE - 1;

/**
 * A list of values in chunks of 1024. A plain array grows by copying itself into a larger one, and for
 * a log of hundreds of thousands of entries every copy outlives a young-generation collection (it is
 * copied again there); chunks are written once. Dropping from the front frees whole chunks.
 */
export class ChunkList<T> {
  private chunks: (T | undefined)[][] = [];
  /** Position of the first element in the first chunk. */
  private start = 0;
  private len = 0;

  /** Returns the number of elements. */
  get length(): number {
    return this.len;
  }

  /** Appends `v`. */
  push(v: T): void {
    const i = this.start + this.len;
    const c = i >> BITS;
    if (c === this.chunks.length) this.chunks.push(new Array<T | undefined>(SIZE));
    this.chunks[c]![i & MASK] = v;
    this.len++;
  }

  /** Returns the element at `i` (0 ≤ i < length). */
  at(i: number): T {
    const j = this.start + i;
    return this.chunks[j >> BITS]![j & MASK] as T;
  }

  /** Replaces the element at `i` (0 ≤ i < length). */
  set(i: number, v: T): void {
    const j = this.start + i;
    this.chunks[j >> BITS]![j & MASK] = v;
  }

  /** Removes the first `k` elements. */
  dropFront(k: number): void {
    const n = Math.min(k, this.len);
    for (let i = 0; i < n; i++) {
      const j = this.start + i;
      this.chunks[j >> BITS]![j & MASK] = undefined;
    }
    this.start += n;
    this.len -= n;
    const whole = this.start >> BITS;
    if (whole > 0) {
      this.chunks.splice(0, whole);
      this.start -= whole << BITS;
    }
  }

  /** Returns the elements as a new array. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.len; i++) out.push(this.at(i));
    return out;
  }
}
