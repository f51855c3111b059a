const WORDS = 8;
const INITIAL_SLOTS = 1 << 12;
/** Slots cost 4 bytes each against 40 per entry, so the table stays sparse: short probes, most ending on an empty slot. */
const MAX_LOAD = 0.5;
const EMPTY = -1;

/**
 * The ids of every order that ever ended, each with its seq: for the duplicate check, and to find an
 * ended order's row, whose key is its seq (an index on the hash ids would take every insert to a random
 * page of a B-tree as large as the exchange's history; see docs/trading.md). It grows with that history.
 * Order ids are keccak hashes (`0x` and 64 lower-case hex digits), kept as 32 raw bytes in typed arrays,
 * in the order they were added, with an open-addressing table of entry numbers over them (linear
 * probing, the id's first 32 bits as its hash, which keccak makes uniform): no object per id for the
 * garbage collector to mark, where millions of strings made every full collection walk millions of
 * objects. Any other string (there are none from the gateway) is kept in a plain Map.
 */
export class EndedOrderIds {
  /** Entry number + 1 per slot of the hash table; 0 for an empty slot. */
  private slots = new Int32Array(INITIAL_SLOTS);
  private words = new Uint32Array(INITIAL_SLOTS * WORDS);
  private seqs = new Float64Array(INITIAL_SLOTS);
  private count = 0;
  private readonly others = new Map<string, number>();
  /** The id being looked up, as 32-bit words. */
  private readonly probe = new Uint32Array(WORDS);

  get size(): number {
    return this.count + this.others.size;
  }

  has(id: string): boolean {
    return this.seqOf(id) !== undefined;
  }

  /** The seq of the ended order with this id, if there was one. */
  seqOf(id: string): number | undefined {
    if (!this.parse(id)) return this.others.get(id);
    const entry = this.entryAt(this.find());
    return entry === EMPTY ? undefined : this.seqs[entry];
  }

  /** Adds an ended order; an id already here keeps its first seq. */
  add(id: string, seq: number): void {
    if (!this.parse(id)) {
      if (!this.others.has(id)) this.others.set(id, seq);
      return;
    }
    const slot = this.find();
    if (this.entryAt(slot) !== EMPTY) return;
    if (this.count === this.seqs.length) this.resizeEntries(Math.ceil(this.seqs.length * 1.5));
    this.words.set(this.probe, this.count * WORDS);
    this.seqs[this.count] = seq;
    this.slots[slot] = ++this.count;
    if (this.count > this.slots.length * MAX_LOAD) this.resizeSlots(this.slots.length * 2);
  }

  /**
   * Makes room for `count` entries at once. The start-up load knows about how many ended orders there
   * are; growing step by step copied the entries at every step and placed all of them again at every
   * doubling of the slots, half of the time of adding millions.
   */
  reserve(count: number): void {
    if (count > this.seqs.length) this.resizeEntries(count);
    let slots = this.slots.length;
    while (count > slots * MAX_LOAD) slots *= 2;
    if (slots > this.slots.length) this.resizeSlots(slots);
  }

  /** Reads a canonical id into `probe` (from the character codes: no substrings); false for any other string. */
  private parse(id: string): boolean {
    if (id.length !== 66 || id.charCodeAt(0) !== 48 || id.charCodeAt(1) !== 120) return false;
    for (let w = 0, at = 2; w < WORDS; w++) {
      let word = 0;
      for (let end = at + 8; at < end; at++) {
        const code = id.charCodeAt(at);
        const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
        if (digit < 0) return false;
        word = (word << 4) | digit;
      }
      this.probe[w] = word >>> 0;
    }
    return true;
  }

  private entryAt(slot: number): number {
    return this.slots[slot]! - 1;
  }

  /** The slot of the probed id: where it is, or the empty slot where it belongs. */
  private find(): number {
    const mask = this.slots.length - 1;
    for (let slot = this.probe[0]! & mask; ; slot = (slot + 1) & mask) {
      const entry = this.entryAt(slot);
      if (entry === EMPTY || this.matches(entry)) return slot;
    }
  }

  private matches(entry: number): boolean {
    const base = entry * WORDS;
    for (let w = 0; w < WORDS; w++) if (this.words[base + w] !== this.probe[w]) return false;
    return true;
  }

  /** Entries grow by half when full: they are most of the memory, and copying them is all growing costs. */
  private resizeEntries(capacity: number): void {
    const words = new Uint32Array(capacity * WORDS);
    words.set(this.words);
    const seqs = new Float64Array(capacity);
    seqs.set(this.seqs);
    this.words = words;
    this.seqs = seqs;
  }

  /** A larger table of slots (a power of two), each entry placed again by its first word (entries do not move). */
  private resizeSlots(size: number): void {
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let entry = 0; entry < this.count; entry++) {
      let slot = this.words[entry * WORDS]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
  }
}
