import { Injectable } from '@nestjs/common';
import type { BookEvent, MarketBookSnapshot, MarketStateEvent } from '@exchange/contracts';
import { L2Book, type ApplyResult, type L2BookState } from './l2-book';
import { yesTermsOf, type LastTrade, type Outcome } from './token-view';

/** What market-data knows of one market from the MATCHING stream. */
export class MarketTape {
  book = new L2Book();
  last?: LastTrade;
  /** -1 while unresolved. */
  winner: -1 | 0 | 1 = -1;
}

export interface BooksState {
  markets: Record<string, { book: L2BookState; last?: LastTrade; winner: -1 | 0 | 1 }>;
}

/**
 * The in-memory read model built from the MATCHING stream: one L2 book per market (YES terms), the
 * last trade and the resolution of each market. Every request for a book or a price is answered from
 * here, never from the database.
 */
@Injectable()
export class MarketBooks {
  private readonly tapes = new Map<string, MarketTape>();
  /** Stream sequence of the newest message applied (the snapshot's position). */
  streamSeq = 0;
  /** Bumped on every change; snapshots are taken only when it moved. */
  changes = 0;

  tape(conditionId: string): MarketTape {
    const key = conditionId.toLowerCase();
    let tape = this.tapes.get(key);
    if (!tape) this.tapes.set(key, (tape = new MarketTape()));
    return tape;
  }

  peek(conditionId: string): MarketTape | undefined {
    return this.tapes.get(conditionId.toLowerCase());
  }

  /** Markets whose book misses events. */
  incomplete(): string[] {
    return [...this.tapes].filter(([, tape]) => !tape.book.complete).map(([id]) => id);
  }

  applyBook(event: BookEvent): ApplyResult {
    this.changes++;
    return this.tape(event.conditionId).book.apply(event);
  }

  applyTrade(conditionId: string, trade: LastTrade): void {
    const tape = this.tape(conditionId);
    if (tape.last && tape.last.seq >= trade.seq) return;
    tape.last = trade;
    tape.book.version++;
    this.changes++;
  }

  applyResolution(event: MarketStateEvent): void {
    const tape = this.tape(event.conditionId);
    tape.winner = event.winningOutcome === 1 ? 1 : 0;
    tape.book.version++;
    this.changes++;
  }

  toState(): BooksState {
    const markets: BooksState['markets'] = {};
    for (const [id, tape] of this.tapes) markets[id] = { book: tape.book.toState(), last: tape.last, winner: tape.winner };
    return { markets };
  }

  load(state: BooksState, streamSeq: number): void {
    this.tapes.clear();
    for (const [id, saved] of Object.entries(state.markets)) {
      const tape = new MarketTape();
      tape.book = L2Book.fromState(saved.book);
      tape.last = saved.last;
      tape.winner = saved.winner;
      this.tapes.set(id, tape);
    }
    this.streamSeq = streamSeq;
  }

  /**
   * Loads the engine's own books instead of a snapshot, for a stream whose history before `streamSeq`
   * is gone. Each book counts as having seen every event up to its `bookSeq`, so the older events the
   * stream still holds are skipped as duplicates; the last trade ranks below every trade event, so a
   * replayed one (the same or a later trade) takes its place. `outcomeOf` tells a token's outcome.
   */
  loadFromEngine(markets: MarketBookSnapshot[], streamSeq: number, outcomeOf: (tokenId: string) => Outcome | undefined): void {
    this.tapes.clear();
    for (const market of markets) {
      const tape = new MarketTape();
      const level = (side: 'BID' | 'ASK') =>
        market.levels.filter((l) => l.side === side).map((l): [number, number, number] => [Number(l.price), Number(l.size), market.bookSeq]);
      tape.book = L2Book.fromState({ lastSeq: market.bookSeq, timestamp: market.timestamp, missing: [], bids: level('BID'), asks: level('ASK') });
      const trade = market.lastTrade;
      const outcome = trade ? outcomeOf(trade.tokenId) : undefined;
      if (trade && outcome !== undefined) tape.last = { ...yesTermsOf(trade, outcome), seq: 0, time: trade.matchTime };
      tape.winner = market.winningOutcome;
      this.tapes.set(market.conditionId.toLowerCase(), tape);
    }
    this.streamSeq = streamSeq;
    this.changes++;
  }
}
