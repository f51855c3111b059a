const WORDS = 8;
const INITIAL_SLOTS = 1 << 12;
const MAX_LOAD = 0.7;

/**
 * The ids of every order that ever ended, for the duplicate check: it grows with the exchange's whole
 * history. Order ids are keccak hashes (`0x` and 64 lower-case hex digits), kept here as 32 raw bytes in
 * one open-addressing table (linear probing, the id's first 32 bits as its hash, which keccak makes
 * uniform) instead of a Set of 66-character strings: about half the memory, and nothing for the garbage
 * collector to mark, where millions of strings made every full collection walk millions of objects.
 * Any other string (there are none from the gateway) is kept in a plain Set.
 */
export class OrderIdSet {
  private words = new Uint32Array(INITIAL_SLOTS * WORDS);
  private occupied = new Uint8Array(INITIAL_SLOTS);
  private count = 0;
  private readonly others = new Set<string>();
  /** The id being looked up, as 32-bit words. */
  private readonly probe = new Uint32Array(WORDS);

  get size(): number {
    return this.count + this.others.size;
  }

  has(id: string): boolean {
    if (!this.parse(id)) return this.others.has(id);
    return this.find(this.words, this.occupied) < 0;
  }

  add(id: string): void {
    if (!this.parse(id)) {
      this.others.add(id);
      return;
    }
    const slot = this.find(this.words, this.occupied);
    if (slot < 0) return;
    this.put(this.words, this.occupied, slot);
    if (++this.count > this.occupied.length * MAX_LOAD) this.grow();
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

  /** The free slot where the probed id belongs, or -1 when the table holds it already. */
  private find(words: Uint32Array, occupied: Uint8Array): number {
    const mask = occupied.length - 1;
    for (let slot = this.probe[0]! & mask; ; slot = (slot + 1) & mask) {
      if (!occupied[slot]) return slot;
      if (this.matches(words, slot)) return -1;
    }
  }

  private matches(words: Uint32Array, slot: number): boolean {
    const base = slot * WORDS;
    for (let w = 0; w < WORDS; w++) if (words[base + w] !== this.probe[w]) return false;
    return true;
  }

  private put(words: Uint32Array, occupied: Uint8Array, slot: number): void {
    words.set(this.probe, slot * WORDS);
    occupied[slot] = 1;
  }

  private grow(): void {
    const oldWords = this.words;
    const oldOccupied = this.occupied;
    const words = new Uint32Array(oldWords.length * 2);
    const occupied = new Uint8Array(oldOccupied.length * 2);
    for (let slot = 0; slot < oldOccupied.length; slot++) {
      if (!oldOccupied[slot]) continue;
      this.probe.set(oldWords.subarray(slot * WORDS, (slot + 1) * WORDS));
      this.put(words, occupied, this.find(words, occupied));
    }
    this.words = words;
    this.occupied = occupied;
  }
}
