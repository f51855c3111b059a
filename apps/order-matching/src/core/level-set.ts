/**
 * A set of price-level indexes (0 .. size-1) kept as a two-level bitset: one bit per level, and a summary
 * bit per 32-bit word that is set when the word is not empty. Finding the next non-empty level above or
 * below a point reads at most two words plus the summary words between them (size/1024 of them), so it
 * stays short however sparse the book is.
 */
export class LevelSet {
  private readonly words: Int32Array;
  private readonly summary: Int32Array;

  constructor(readonly capacity: number) {
    const wordCount = (capacity + 31) >>> 5;
    this.words = new Int32Array(wordCount);
    this.summary = new Int32Array((wordCount + 31) >>> 5);
  }

  add(level: number): void {
    const w = level >>> 5;
    this.words[w] |= 1 << (level & 31);
    this.summary[w >>> 5] |= 1 << (w & 31);
  }

  remove(level: number): void {
    const w = level >>> 5;
    const word = this.words[w] & ~(1 << (level & 31));
    this.words[w] = word;
    if (word === 0) this.summary[w >>> 5] &= ~(1 << (w & 31));
  }

  has(level: number): boolean {
    return (this.words[level >>> 5] & (1 << (level & 31))) !== 0;
  }

  /** The lowest level >= `from` in the set, or -1. */
  nextUp(from: number): number {
    if (from < 0) from = 0;
    if (from >= this.capacity) return -1;
    const words = this.words;
    let w = from >>> 5;
    const m = words[w] & (-1 << (from & 31));
    if (m !== 0) return (w << 5) + ctz(m);
    w++;
    if (w >= words.length) return -1;
    const summary = this.summary;
    let s = w >>> 5;
    let sm = summary[s] & (-1 << (w & 31));
    while (sm === 0) {
      s++;
      if (s >= summary.length) return -1;
      sm = summary[s];
    }
    w = (s << 5) + ctz(sm);
    return (w << 5) + ctz(words[w]);
  }

  /** The highest level <= `from` in the set, or -1. */
  nextDown(from: number): number {
    if (from >= this.capacity) from = this.capacity - 1;
    if (from < 0) return -1;
    const words = this.words;
    let w = from >>> 5;
    const m = words[w] & (-1 >>> (31 - (from & 31)));
    if (m !== 0) return (w << 5) + 31 - Math.clz32(m);
    w--;
    if (w < 0) return -1;
    const summary = this.summary;
    let s = w >>> 5;
    let sm = summary[s] & (-1 >>> (31 - (w & 31)));
    while (sm === 0) {
      s--;
      if (s < 0) return -1;
      sm = summary[s];
    }
    w = (s << 5) + 31 - Math.clz32(sm);
    return (w << 5) + 31 - Math.clz32(words[w]);
  }
}

/** Count of trailing zero bits of a non-zero 32-bit integer. */
function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}
