/** A first-in first-out queue whose shift costs O(1), for bounded histories that forget their oldest entry (Array#shift moves every item left; a Map's first key skips every entry deleted before it). */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  /** Returns how many items are queued. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Adds an item at the back. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Returns the oldest item without removing it. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.head += 1;
    // The consumed front is dropped once it is half the array: amortised O(1), memory bounded by twice what is queued.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
