const EMPTY = -1;
const MAX_LOAD = 0.5;
const TWO_32 = 4294967296;

/**
 * Order id -> slot, as an open-addressing hash table with linear probing in typed arrays (no objects, no
 * tombstones: a removal shifts the entries of its probe run back). Ids are non-negative safe integers;
 * Fibonacci hashing spreads the caller's sequential ids over the table. The table doubles when it is half
 * full, so probe runs stay short.
 */
export class IdIndex {
  private keys: Float64Array;
  private slots: Int32Array;
  private mask: number;
  private shift: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.shift = 32 - Math.log2(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The slot of `id`, or -1. */
  get(id: number): number {
    const keys = this.keys;
    const slots = this.slots;
    const mask = this.mask;
    let i = this.home(id);
    for (;;) {
      const slot = slots[i];
      if (slot === EMPTY || keys[i] === id) return slot;
      i = (i + 1) & mask;
    }
  }

  /** Adds `id` (which must not be present). */
  add(id: number, slot: number): void {
    if (this.count + 1 > (this.mask + 1) * MAX_LOAD) this.grow();
    const mask = this.mask;
    let i = this.home(id);
    while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
    this.keys[i] = id;
    this.slots[i] = slot;
    this.count++;
  }

  /** Removes `id`; answers its slot, or -1 when it was not there. */
  remove(id: number): number {
    const keys = this.keys;
    const slots = this.slots;
    const mask = this.mask;
    let i = this.home(id);
    for (;;) {
      const slot = slots[i];
      if (slot === EMPTY) return EMPTY;
      if (keys[i] === id) {
        this.count--;
        this.vacate(i);
        return slot;
      }
      i = (i + 1) & mask;
    }
  }

  /** Empties position `hole`, moving back later entries of its run that may not stay behind a gap. */
  private vacate(hole: number): void {
    const keys = this.keys;
    const slots = this.slots;
    const mask = this.mask;
    let j = hole;
    for (;;) {
      j = (j + 1) & mask;
      if (slots[j] === EMPTY) break;
      const home = this.home(keys[j]);
      // The entry at j may move to the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (!stays) {
        keys[hole] = keys[j];
        slots[hole] = slots[j];
        hole = j;
      }
    }
    slots[hole] = EMPTY;
  }

  private home(id: number): number {
    return Math.imul((id | 0) ^ ((id / TWO_32) | 0), 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldSlots = this.slots;
    const capacity = oldSlots.length * 2;
    this.keys = new Float64Array(capacity);
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.shift = 32 - Math.log2(capacity);
    this.count = 0;
    for (let i = 0; i < oldSlots.length; i++) {
      if (oldSlots[i] !== EMPTY) this.add(oldKeys[i], oldSlots[i]);
    }
  }
}
