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
const INITIAL_SLOTS = 256;
const PAGE_BITS = 8;
const PAGE_SIZE = 1 << PAGE_BITS; // 256 levels = 0.0256 of price
const PAGE_MASK = PAGE_SIZE - 1;
const PAGES_PER_SIDE = Math.ceil(LEVELS / PAGE_SIZE);

/** The price levels of one side in one price range: FIFO head and tail slot, total size, order count. */
class LevelPage {
  readonly head = new Int32Array(PAGE_SIZE).fill(NONE);
  readonly tail = new Int32Array(PAGE_SIZE).fill(NONE);
  readonly total = new Float64Array(PAGE_SIZE);
  readonly count = new Int32Array(PAGE_SIZE);
}

/**
 * The fast book. Layout:
 * - orders live in slots of struct-of-arrays typed arrays (id, remaining, level, side, next, prev), with a
 *   free list threaded through `next`; an {@link IdIndex} hash table gives the slot of an id, so cancel is
 *   O(1); the slot arrays and the table double when full;
 * - each side has one FIFO doubly-linked list of slots per price level (level = price / PRICE_TICK), with
 *   the level's total size and order count; levels are kept in pages of 256, allocated the first time an
 *   order rests in their range, so a book costs memory for the price ranges it has used (about 20 KB
 *   empty, 6 KB per page, about 330 KB with every page) rather than for all 10_001 levels of both sides;
 * - a {@link LevelSet} bitset per side finds the next non-empty level when the best one empties;
 * - best bid and best ask levels are cached (-1 when a side is empty).
 * place() allocates only its result and the fills it appends; cancel() allocates nothing.
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

  /** Bid pages first, then ask pages; undefined until an order rests in the page's range. */
  private readonly pages: (LevelPage | undefined)[] = new Array<LevelPage | undefined>(2 * PAGES_PER_SIDE).fill(undefined);
  private readonly bidLevels = new LevelSet(LEVELS);
  private readonly askLevels = new LevelSet(LEVELS);
  private bestBidLevel = NONE;
  private bestAskLevel = NONE;
  /** Size left of the taker after the last takeLevel/matchAsks/matchBids (saves returning a pair). */
  private lastLeft = 0;

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
    if (cmd.maxFills !== undefined && crosses && this.needsMoreFills(bid, best, lastLevel, size, cmd.maxFills)) {
      return { outcome: 'REJECTED_TOO_MANY_FILLS', filled: 0, remaining: size, fills: 0 };
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
    const page = this.pages[(bid ? 0 : PAGES_PER_SIDE) + (lvl >>> PAGE_BITS)]!;
    const k = lvl & PAGE_MASK;
    const prev = this.prev[slot];
    const next = this.next[slot];
    if (prev === NONE) page.head[k] = next;
    else this.next[prev] = next;
    if (next === NONE) page.tail[k] = prev;
    else this.prev[next] = prev;
    page.total[k] -= left;
    if (--page.count[k] === 0) {
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
    if (!(lvl >= 0 && lvl < LEVELS) || Math.floor(lvl) !== lvl) return 0;
    const page = this.pages[(side === Side.BID ? 0 : PAGES_PER_SIDE) + (lvl >>> PAGE_BITS)];
    return page === undefined ? 0 : page.total[lvl & PAGE_MASK];
  }

  depth(side: Side, maxLevels: number): PriceLevel[] {
    const levels: PriceLevel[] = [];
    const bid = side === Side.BID;
    const set = bid ? this.bidLevels : this.askLevels;
    let lvl = bid ? this.bestBidLevel : this.bestAskLevel;
    while (lvl !== NONE && levels.length < maxLevels) {
      levels.push({ price: lvl * PRICE_TICK, size: this.pageOf(bid, lvl).total[lvl & PAGE_MASK] });
      lvl = bid ? set.nextDown(lvl - 1) : set.nextUp(lvl + 1);
    }
    return levels;
  }

  order(id: number): RestingOrder | undefined {
    const slot = this.slotOf.get(id);
    return slot === NONE ? undefined : this.view(slot);
  }

  *orders(): IterableIterator<RestingOrder> {
    for (const bid of [true, false]) {
      const set = bid ? this.bidLevels : this.askLevels;
      let lvl = bid ? this.bestBidLevel : this.bestAskLevel;
      while (lvl !== NONE) {
        for (let slot = this.pageOf(bid, lvl).head[lvl & PAGE_MASK]; slot !== NONE; slot = this.next[slot]) {
          yield this.view(slot);
        }
        lvl = bid ? set.nextDown(lvl - 1) : set.nextUp(lvl + 1);
      }
    }
  }

  /** A BID takes asks from the best level up to `lastLevel`. Answers the new length of `out`; sets lastLeft. */
  private matchAsks(lastLevel: number, size: number, out: Fill[]): number {
    let left = size;
    let n = out.length;
    let lvl = this.bestAskLevel;
    while (lvl !== NONE && lvl <= lastLevel) {
      const page = this.pages[PAGES_PER_SIDE + (lvl >>> PAGE_BITS)]!;
      const k = lvl & PAGE_MASK;
      n = this.takeLevel(page, k, lvl * PRICE_TICK, left, out, n);
      left = this.lastLeft;
      if (page.count[k] !== 0) break;
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
      const page = this.pages[lvl >>> PAGE_BITS]!;
      const k = lvl & PAGE_MASK;
      n = this.takeLevel(page, k, lvl * PRICE_TICK, left, out, n);
      left = this.lastLeft;
      if (page.count[k] !== 0) break;
      this.bidLevels.remove(lvl);
      lvl = this.bidLevels.nextDown(lvl - 1);
      if (left === 0) break;
    }
    this.bestBidLevel = lvl;
    this.lastLeft = left;
    return n;
  }

  /**
   * Fills up to `size` against the FIFO of level `k` of `page`, oldest first, appending fills at out[n].
   * Makers filled entirely leave the book. Answers the new length of `out`; sets lastLeft.
   */
  private takeLevel(page: LevelPage, k: number, price: number, size: number, out: Fill[], n: number): number {
    const remaining = this.remaining;
    const next = this.next;
    let left = size;
    let slot = page.head[k];
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
    page.head[k] = slot;
    if (slot === NONE) page.tail[k] = NONE;
    else this.prev[slot] = NONE;
    page.total[k] -= taken;
    page.count[k] -= gone;
    this.lastLeft = left;
    return n;
  }

  /** Whether the opposite side holds at least `size` between level `from` (its best) and `lastLevel`. */
  private canFill(bid: boolean, from: number, lastLevel: number, size: number): boolean {
    let available = 0;
    let lvl = from;
    if (bid) {
      while (lvl !== NONE && lvl <= lastLevel) {
        available += this.pageOf(false, lvl).total[lvl & PAGE_MASK];
        if (available >= size) return true;
        lvl = this.askLevels.nextUp(lvl + 1);
      }
    } else {
      while (lvl !== NONE && lvl >= lastLevel) {
        available += this.pageOf(true, lvl).total[lvl & PAGE_MASK];
        if (available >= size) return true;
        lvl = this.bidLevels.nextDown(lvl - 1);
      }
    }
    return false;
  }

  /**
   * Whether taking `size` from level `from` (the opposite side's best) to `lastLevel` would trade with more
   * than `max` resting orders. Whole levels count their orders; the last one is walked oldest first, so
   * the work is bounded by the levels and `max`, not by the book.
   */
  private needsMoreFills(bid: boolean, from: number, lastLevel: number, size: number, max: number): boolean {
    let left = size;
    let fills = 0;
    let lvl = from;
    while (lvl !== NONE && (bid ? lvl <= lastLevel : lvl >= lastLevel)) {
      const page = this.pageOf(!bid, lvl);
      const k = lvl & PAGE_MASK;
      if (page.total[k] < left) {
        fills += page.count[k];
        if (fills > max) return true;
        left -= page.total[k];
      } else {
        for (let slot = page.head[k]; slot !== NONE; slot = this.next[slot]) {
          if (++fills > max) return true;
          left -= this.remaining[slot];
          if (left <= 0) return false;
        }
        return false;
      }
      lvl = bid ? this.askLevels.nextUp(lvl + 1) : this.bidLevels.nextDown(lvl - 1);
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
    const p = (bid ? 0 : PAGES_PER_SIDE) + (lvl >>> PAGE_BITS);
    const page = this.pages[p] ?? (this.pages[p] = new LevelPage());
    const k = lvl & PAGE_MASK;
    const tail = page.tail[k];
    this.prev[slot] = tail;
    this.next[slot] = NONE;
    if (tail === NONE) page.head[k] = slot;
    else this.next[tail] = slot;
    page.tail[k] = slot;
    page.total[k] += size;
    if (page.count[k]++ === 0) {
      if (bid) {
        this.bidLevels.add(lvl);
        if (lvl > this.bestBidLevel) this.bestBidLevel = lvl;
      } else {
        this.askLevels.add(lvl);
        if (this.bestAskLevel === NONE || lvl < this.bestAskLevel) this.bestAskLevel = lvl;
      }
    }
  }

  /** The page holding level `lvl` of a side; only for levels known to hold orders. */
  private pageOf(bid: boolean, lvl: number): LevelPage {
    return this.pages[(bid ? 0 : PAGES_PER_SIDE) + (lvl >>> PAGE_BITS)]!;
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
