/** Identifier makers: ids are strings everywhere, generated deterministically where a run must repeat. */

/** Makes strictly increasing decimal-string ids from a 64-bit start, as the venue's order and trade ids are. */
export class SequenceIds {
  private next: bigint;

  constructor(start: bigint | string = 1n) {
    this.next = BigInt(start);
  }

  /** Returns the next id. */
  take(): string {
    const id = this.next;
    this.next += 1n;
    return id.toString();
  }

  /** Returns the id the next call to take() will give, without taking it. */
  peek(): string {
    return this.next.toString();
  }
}

/**
 * Makes deterministic clientOrderIds: `<prefix>-<run>-<n>`, unique within a run and across restarts
 * when the run tag differs. Kept within the venue's observed id length (≤ 36 characters).
 */
export class ClientOrderIds {
  private n = 0;

  constructor(private readonly prefix: string, private readonly run: string) {
    if (!/^[A-Za-z0-9_]{1,12}$/.test(prefix)) throw new Error(`clientOrderId prefix must be 1-12 letters, digits or _: ${prefix}`);
    if (!/^[A-Za-z0-9]{1,12}$/.test(run)) throw new Error(`clientOrderId run tag must be 1-12 letters or digits: ${run}`);
  }

  /** Returns the next clientOrderId. */
  take(): string {
    this.n += 1;
    return `${this.prefix}-${this.run}-${this.n}`;
  }
}
