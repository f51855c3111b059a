import { IdIndex } from './id-index';
import { LevelSet } from './level-set';
import { checkCommand } from './preconditions';
import {
  NO_ASK,
  NO_BID,
  PRICE_SCALE,
  PRICE_TICK,
  Side,
  type Fill,
  type MatchingBook,
  type PlaceCommand,
  type PlaceResult,
  type PriceLevel,
  type RestingOrder,
} from './types';

/** Price levels per side: one per tick from 0 to PRICE_SCALE inclusive (10_001). */
const LEVELS = PRICE_SCALE / PRICE_TICK + 1;
const NONE = -1;
const INITIAL_SLOTS = 1024;

/**
 * The fast book. Layout:
 * - orders live in slots of struct-of-arrays typed arrays (id, remaining, level, side, next, prev), with a
 *   free list threaded through `next`; an {@link IdIndex} hash table gives the slot of an id, so cancel is
 *   O(1);
 * - each side has one FIFO doubly-linked list of slots per price level, indexed by price / PRICE_TICK
 *   (level arrays are indexed side * LEVELS + level), with the level's total and order count;
 * - a {@link LevelSet} per side finds the next non-empty level when the best one empties;
 * - best bid and best ask levels are cached (-1 when a side is empty).
 * place() allocates only its result and the fills; cancel() allocates nothing (slot arrays double when full).
 */
export class OrderBook implements MatchingBook {
  private capacity = INITIAL_SLOTS;
  private ids = new Float64Array(INITIAL_SLOTS);
  private remaining = new Float64Array(INITIAL_SLOTS);
  private level = new Int32Array(INITIAL_SLOTS);
  private sides = new Uint8Array(INITIAL_SLOTS);
  private next = new Int32Array(INITIAL_SLOTS);
  private prev = new Int32Array(INITIAL_SLOTS);
  /** Head of the free-slot list (linked through `next`), or NONE. */
  private free = NONE;
  private readonly slotOf = new IdIndex(INITIAL_SLOTS * 2);

  private readonly head = new Int32Array(2 * LEVELS).fill(NONE);
  private readonly tail = new Int32Array(2 * LEVELS).fill(NONE);
  private readonly total = new Float64Array(2 * LEVELS);
  private readonly count = new Int32Array(2 * LEVELS);
  private readonly bidLevels = new LevelSet(LEVELS);
  private readonly askLevels = new LevelSet(LEVELS);
  private bestBidLevel = NONE;
  private bestAskLevel = NONE;

  constructor() {
    this.free = this.linkFree(0, INITIAL_SLOTS);
  }

  get size(): number {
    return this.slotOf.size;
  }

  bestBid(): number {
    return this.bestBidLevel === NONE ? NO_BID : this.bestBidLevel * PRICE_TICK;
  }

  bestAsk(): number {
    return this.bestAskLevel === NONE ? NO_ASK : this.bestAskLevel * PRICE_TICK;
  }

  place(cmd: PlaceCommand, out: Fill[]): PlaceResult {
    checkCommand(cmd);
    const size = cmd.size;
    if (this.slotOf.get(cmd.id) !== NONE) return { outcome: 'REJECTED_DUPLICATE_ID', filled: 0, remaining: size, fills: 0 };
    const bid = cmd.side === Side.BID;
    const limit = cmd.price;
    // The last opposite level the command may trade at: asks priced <= limit, bids priced >= limit.
    const lastLevel = bid ? Math.floor(limit / PRICE_TICK) : Math.ceil(limit / PRICE_TICK);
    const best = bid ? this.bestAskLevel : this.bestBidLevel;
    const crosses = best !== NONE && (bid ? best <= lastLevel : best >= lastLevel);

    if (cmd.postOnly && crosses) return { outcome: 'REJECTED_POST_ONLY', filled: 0, remaining: size, fills: 0 };
    if (cmd.tif === 'FOK' && !(crosses && this.canFill(bid, best, lastLevel, size))) {
      return { outcome: 'REJECTED_FOK', filled: 0, remaining: size, fills: 0 };
    }

    let left = size;
    let fills = 0;
    if (crosses) {
      const before = out.length;
      fills = (bid ? this.matchAsks(lastLevel, size, out) : this.matchBids(lastLevel, size, out)) - before;
      left = this.lastLeft;
    }
    const filled = size - left;
    if (left === 0) return { outcome: 'FILLED', filled, remaining: 0, fills };
    if (cmd.tif !== 'GTC') return { outcome: 'CANCELLED_REST', filled, remaining: left, fills };
    this.rest(cmd.id, bid, limit / PRICE_TICK, left);
    return { outcome: 'RESTING', filled, remaining: left, fills };
  }

  cancel(id: number): number {
    const slot = this.slotOf.remove(id);
    if (slot === NONE) return 0;
    const left = this.remaining[slot];
    const lvl = this.level[slot];
    const bid = this.sides[slot] === Side.BID;
    const li = bid ? lvl : LEVELS + lvl;
    const prev = this.prev[slot];
    const next = this.next[slot];
    if (prev === NONE) this.head[li] = next;
    else this.next[prev] = next;
    if (next === NONE) this.tail[li] = prev;
    else this.prev[next] = prev;
    this.total[li] -= left;
    if (--this.count[li] === 0) {
      if (bid) {
        this.bidLevels.remove(lvl);
        if (lvl === this.bestBidLevel) this.bestBidLevel = this.bidLevels.nextDown(lvl - 1);
      } else {
        this.askLevels.remove(lvl);
        if (lvl === this.bestAskLevel) this.bestAskLevel = this.askLevels.nextUp(lvl + 1);
      }
    }
    this.next[slot] = this.free;
    this.free = slot;
    return left;
  }

  levelSize(side: Side, price: number): number {
    const lvl = price / PRICE_TICK;
    if (!(lvl >= 0 && lvl < LEVELS) || !Number.isInteger(lvl)) return 0;
    return this.total[side === Side.BID ? lvl : LEVELS + lvl];
  }

  depth(side: Side, maxLevels: number): PriceLevel[] {
    const levels: PriceLevel[] = [];
    const bid = side === Side.BID;
    const set = bid ? this.bidLevels : this.askLevels;
    let lvl = bid ? this.bestBidLevel : this.bestAskLevel;
    while (lvl !== NONE && levels.length < maxLevels) {
      levels.push({ price: lvl * PRICE_TICK, size: this.total[bid ? lvl : LEVELS + lvl] });
      lvl = bid ? set.nextDown(lvl - 1) : set.nextUp(lvl + 1);
    }
    return levels;
  }

  order(id: number): RestingOrder | undefined {
    const slot = this.slotOf.get(id);
    return slot === NONE ? undefined : this.view(slot);
  }

  *orders(): IterableIterator<RestingOrder> {
    for (const side of [Side.BID, Side.ASK]) {
      const bid = side === Side.BID;
      const set = bid ? this.bidLevels : this.askLevels;
      let lvl = bid ? this.bestBidLevel : this.bestAskLevel;
      while (lvl !== NONE) {
        for (let slot = this.head[bid ? lvl : LEVELS + lvl]; slot !== NONE; slot = this.next[slot]) {
          yield this.view(slot);
        }
        lvl = bid ? set.nextDown(lvl - 1) : set.nextUp(lvl + 1);
      }
    }
  }

  /** Size left of the taker after the last matchAsks/matchBids (saves returning a pair). */
  private lastLeft = 0;

  /** A BID takes asks from the best level up to `lastLevel`. Answers the new length of `out`; sets lastLeft. */
  private matchAsks(lastLevel: number, size: number, out: Fill[]): number {
    let left = size;
    let n = out.length;
    let lvl = this.bestAskLevel;
    while (lvl !== NONE && lvl <= lastLevel) {
      n = this.takeLevel(LEVELS + lvl, lvl * PRICE_TICK, left, out, n);
      left = this.lastLeft;
      if (this.count[LEVELS + lvl] !== 0) break;
      this.askLevels.remove(lvl);
      lvl = this.askLevels.nextUp(lvl + 1);
      if (left === 0) break;
    }
    this.bestAskLevel = lvl; // the partly taken level, the next non-empty one, or NONE
    this.lastLeft = left;
    return n;
  }

  /** An ASK takes bids from the best level down to `lastLevel`. Answers the new length of `out`; sets lastLeft. */
  private matchBids(lastLevel: number, size: number, out: Fill[]): number {
    let left = size;
    let n = out.length;
    let lvl = this.bestBidLevel;
    while (lvl !== NONE && lvl >= lastLevel) {
      n = this.takeLevel(lvl, lvl * PRICE_TICK, left, out, n);
      left = this.lastLeft;
      if (this.count[lvl] !== 0) break;
      this.bidLevels.remove(lvl);
      lvl = this.bidLevels.nextDown(lvl - 1);
      if (left === 0) break;
    }
    this.bestBidLevel = lvl;
    this.lastLeft = left;
    return n;
  }

  /**
   * Fills up to `size` against the FIFO of level index `li`, oldest first, writing fills from out[n].
   * Makers filled entirely leave the book. Answers the new length of `out`; sets lastLeft.
   */
  private takeLevel(li: number, price: number, size: number, out: Fill[], n: number): number {
    const remaining = this.remaining;
    const next = this.next;
    let left = size;
    let slot = this.head[li];
    let taken = 0;
    let gone = 0;
    while (slot !== NONE && left > 0) {
      const has = remaining[slot];
      const qty = has < left ? has : left;
      const makerLeft = has - qty;
      left -= qty;
      taken += qty;
      out[n++] = { makerId: this.ids[slot], price, size: qty, makerRemaining: makerLeft };
      if (makerLeft === 0) {
        this.slotOf.remove(this.ids[slot]);
        const after = next[slot];
        next[slot] = this.free;
        this.free = slot;
        slot = after;
        gone++;
      } else {
        remaining[slot] = makerLeft;
      }
    }
    this.head[li] = slot;
    if (slot === NONE) this.tail[li] = NONE;
    else this.prev[slot] = NONE;
    this.total[li] -= taken;
    this.count[li] -= gone;
    this.lastLeft = left;
    return n;
  }

  /** Whether the opposite side holds at least `size` between level `from` (the best) and `lastLevel`. */
  private canFill(bid: boolean, from: number, lastLevel: number, size: number): boolean {
    let available = 0;
    let lvl = from;
    if (bid) {
      while (lvl !== NONE && lvl <= lastLevel) {
        available += this.total[LEVELS + lvl];
        if (available >= size) return true;
        lvl = this.askLevels.nextUp(lvl + 1);
      }
    } else {
      while (lvl !== NONE && lvl >= lastLevel) {
        available += this.total[lvl];
        if (available >= size) return true;
        lvl = this.bidLevels.nextDown(lvl - 1);
      }
    }
    return false;
  }

  private rest(id: number, bid: boolean, lvl: number, size: number): void {
    if (this.free === NONE) this.grow();
    const slot = this.free;
    this.free = this.next[slot];
    this.slotOf.add(id, slot);
    this.ids[slot] = id;
    this.remaining[slot] = size;
    this.level[slot] = lvl;
    this.sides[slot] = bid ? Side.BID : Side.ASK;
    const li = bid ? lvl : LEVELS + lvl;
    const tail = this.tail[li];
    this.prev[slot] = tail;
    this.next[slot] = NONE;
    if (tail === NONE) this.head[li] = slot;
    else this.next[tail] = slot;
    this.tail[li] = slot;
    this.total[li] += size;
    if (this.count[li]++ === 0) {
      if (bid) {
        this.bidLevels.add(lvl);
        if (lvl > this.bestBidLevel) this.bestBidLevel = lvl;
      } else {
        this.askLevels.add(lvl);
        if (this.bestAskLevel === NONE || lvl < this.bestAskLevel) this.bestAskLevel = lvl;
      }
    }
  }

  private view(slot: number): RestingOrder {
    return {
      id: this.ids[slot],
      side: this.sides[slot] as Side,
      price: this.level[slot] * PRICE_TICK,
      remaining: this.remaining[slot],
    };
  }

  /** Doubles the slot arrays and puts the new slots on the free list. */
  private grow(): void {
    const old = this.capacity;
    const capacity = old * 2;
    this.ids = copyInto(new Float64Array(capacity), this.ids);
    this.remaining = copyInto(new Float64Array(capacity), this.remaining);
    this.level = copyInto(new Int32Array(capacity), this.level);
    this.sides = copyInto(new Uint8Array(capacity), this.sides);
    this.next = copyInto(new Int32Array(capacity), this.next);
    this.prev = copyInto(new Int32Array(capacity), this.prev);
    this.capacity = capacity;
    this.free = this.linkFree(old, capacity);
  }

  /** Chains slots [from, to) into a free list ending in the current one; answers its head. */
  private linkFree(from: number, to: number): number {
    for (let s = from; s < to - 1; s++) this.next[s] = s + 1;
    this.next[to - 1] = this.free;
    return from;
  }
}

function copyInto<T extends Float64Array | Int32Array | Uint8Array>(target: T, source: T): T {
  target.set(source);
  return target;
}
