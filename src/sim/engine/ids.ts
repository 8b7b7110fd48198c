/** The engine's 64-bit decimal ids made from a counter, so the hot path neither does bigint arithmetic per id nor hashes ids into a map to find an order again. */

const LOW = 1e15;
const LOW_DIGITS = 15;
/** '000' … '999': the last three digits of an id, so making an id is one concatenation (no padding per id). */
const LAST3: string[] = [];
for (let i = 0; i < 1000; i++) LAST3.push(String(i).padStart(3, '0'));

/**
 * Strictly increasing decimal-string ids from a 64-bit start. The id of the n-th take is
 * start + n; `offsetOf` turns an id back into n with a 15-digit scan (no bigint), so an index of
 * orders can be an array. Ids past the fast range fall back to bigint arithmetic.
 */
export class IdSequence {
  /** The first id. */
  readonly start: bigint;
  private readonly hiText: string;
  private readonly lo0: number;
  /** How many ids were taken. */
  count = 0;
  /** The id text without its last three digits for the block of 1000 ids being handed out. */
  private blockText = '';
  private block = -1;

  constructor(start: bigint) {
    if (start < 0n) throw new RangeError('ids start at 0 or above');
    this.start = start;
    const hi = start / BigInt(LOW);
    this.hiText = hi === 0n ? '' : hi.toString();
    this.lo0 = Number(start % BigInt(LOW));
  }

  /** Returns the id of offset `n`. */
  idAt(n: number): string {
    const lo = this.lo0 + n;
    if (lo >= LOW) return (this.start + BigInt(n)).toString();
    if (this.hiText === '') return String(lo);
    const block = Math.floor(lo / 1000);
    if (block !== this.block) {
      this.block = block;
      this.blockText = this.hiText + String(block).padStart(LOW_DIGITS - 3, '0');
    }
    return this.blockText + LAST3[lo - block * 1000]!;
  }

  /** Returns the next id. */
  take(): string {
    return this.idAt(this.count++);
  }

  /** Returns the id the next take() will give. */
  peek(): string {
    return this.idAt(this.count);
  }

  /** Returns the offset of `id` (its take number), or -1 when it is not an id of this sequence. */
  offsetOf(id: string): number {
    const h = this.hiText;
    if (h !== '' && id.length === h.length + LOW_DIGITS && id.startsWith(h)) {
      let lo = 0;
      for (let i = h.length; i < id.length; i++) {
        const c = id.charCodeAt(i) - 48;
        if (c < 0 || c > 9) return -1;
        lo = lo * 10 + c;
      }
      const n = lo - this.lo0;
      return n >= 0 && n < this.count ? n : -1;
    }
    if (id.length === 0 || id.length > 20 || (id.length > 1 && id.charCodeAt(0) === 48)) return -1;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      if (c < 48 || c > 57) return -1;
    }
    const n = BigInt(id) - this.start;
    return n >= 0n && n < BigInt(this.count) ? Number(n) : -1;
  }
}
