import type { BookEvent } from '@exchange/contracts';

// Prices and sizes are integers in base units of 10^-6 (contracts' UNIT; ARCHITECTURE.md).

export type BookSide = 'BID' | 'ASK';

/** A price level: its aggregate size and the book sequence of the event that set it. */
interface Level {
  size: number;
  seq: number;
}

export type ApplyResult = 'applied' | 'duplicate' | 'gap';

/** Levels as [price, size] pairs, in base units. */
export type LevelPairs = readonly (readonly [number, number])[];

export interface L2BookState {
  lastSeq: number;
  timestamp: number;
  missing: number[];
  bids: [number, number, number][];
  asks: [number, number, number][];
}

/**
 * The aggregate (L2) book of one binary market in YES terms, kept from the engine's BookEvents. Each
 * event carries the absolute size of the levels it changed, so a level keeps the size of the newest
 * event (highest `bookSeq`) that touched it: applying events twice or out of order gives the same book.
 * Gaps in `bookSeq` are detected and remembered until the missing events arrive.
 */
export class L2Book {
  private readonly bids = new Map<number, Level>();
  private readonly asks = new Map<number, Level>();
  /** Highest book sequence seen. */
  lastSeq = 0;
  /** Engine time (ms) of the newest event applied. */
  timestamp = 0;
  /** Bumped by every change: caches of rendered books compare it. */
  version = 0;
  /** Sequences below `lastSeq` not seen yet. */
  readonly missing = new Set<number>();
  private sortedBids?: LevelPairs;
  private sortedAsks?: LevelPairs;

  apply(event: Pick<BookEvent, 'bookSeq' | 'changes' | 'timestamp'>): ApplyResult {
    const seq = event.bookSeq;
    let result: ApplyResult = 'applied';
    if (seq <= this.lastSeq) {
      if (!this.missing.delete(seq)) return 'duplicate';
    } else {
      if (seq > this.lastSeq + 1) {
        for (let s = this.lastSeq + 1; s < seq; s++) this.missing.add(s);
        result = 'gap';
      }
      this.lastSeq = seq;
    }
    for (const change of event.changes) {
      const levels = change.side === 'BID' ? this.bids : this.asks;
      const price = Number(change.price);
      const current = levels.get(price);
      if (current && current.seq > seq) continue;
      levels.set(price, { size: Number(change.size), seq });
    }
    this.timestamp = Math.max(this.timestamp, event.timestamp);
    this.changed();
    return result;
  }

  /** True while no event is missing. */
  get complete(): boolean {
    return this.missing.size === 0;
  }

  /** Whether an event before `seq` is still missing. */
  missesBefore(seq: number): boolean {
    for (const missing of this.missing) if (missing < seq) return true;
    return false;
  }

  /** Non-empty levels, ascending by price. */
  levels(side: BookSide): LevelPairs {
    if (side === 'BID') return (this.sortedBids ??= sortedLevels(this.bids));
    return (this.sortedAsks ??= sortedLevels(this.asks));
  }

  bestBid(): number | undefined {
    const bids = this.levels('BID');
    return bids.length ? bids[bids.length - 1]![0] : undefined;
  }

  bestAsk(): number | undefined {
    const asks = this.levels('ASK');
    return asks.length ? asks[0]![0] : undefined;
  }

  toState(): L2BookState {
    const dump = (levels: Map<number, Level>) => [...levels].map(([price, l]): [number, number, number] => [price, l.size, l.seq]);
    return { lastSeq: this.lastSeq, timestamp: this.timestamp, missing: [...this.missing], bids: dump(this.bids), asks: dump(this.asks) };
  }

  static fromState(state: L2BookState): L2Book {
    const book = new L2Book();
    book.lastSeq = state.lastSeq;
    book.timestamp = state.timestamp;
    state.missing.forEach((s) => book.missing.add(s));
    for (const [price, size, seq] of state.bids) book.bids.set(price, { size, seq });
    for (const [price, size, seq] of state.asks) book.asks.set(price, { size, seq });
    book.changed();
    return book;
  }

  private changed(): void {
    this.version++;
    this.sortedBids = undefined;
    this.sortedAsks = undefined;
  }
}

function sortedLevels(levels: Map<number, Level>): LevelPairs {
  const pairs: [number, number][] = [];
  for (const [price, level] of levels) if (level.size > 0) pairs.push([price, level.size]);
  return pairs.sort((a, b) => a[0] - b[0]);
}
