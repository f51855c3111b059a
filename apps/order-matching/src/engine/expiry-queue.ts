export interface Expiry {
  /** Unix seconds. */
  expiration: number;
  seq: number;
}

const before = (a: Expiry, b: Expiry) => a.expiration < b.expiration || (a.expiration === b.expiration && a.seq < b.seq);

/**
 * When resting GTD orders expire: a binary min-heap of (expiration, seq), so the expiry check looks only
 * at the orders that are due, and two orders due together leave in seq order.
 */
export class ExpiryQueue {
  private readonly heap: Expiry[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** The earliest entry's expiration, if any. */
  get earliest(): number | undefined {
    return this.heap[0]?.expiration;
  }

  push(expiration: number, seq: number): void {
    this.heap.push({ expiration, seq });
    this.up(this.heap.length - 1);
  }

  /** Removes and returns the earliest entry if it expires at or before `second`. */
  popDue(second: number): Expiry | undefined {
    const first = this.heap[0];
    if (!first || first.expiration > second) return undefined;
    const last = this.heap.pop()!;
    if (this.heap.length) {
      this.heap[0] = last;
      this.down(0);
    }
    return first;
  }

  /** Drops the entries that fail `keep`, in linear time. */
  retain(keep: (entry: Expiry) => boolean): void {
    let kept = 0;
    for (const entry of this.heap) if (keep(entry)) this.heap[kept++] = entry;
    this.heap.length = kept;
    for (let i = (kept >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private up(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private down(i: number): void {
    const heap = this.heap;
    const entry = heap[i]!;
    const n = heap.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, entry)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = entry;
  }
}
