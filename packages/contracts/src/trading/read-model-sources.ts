import { z } from 'zod';
import type { BookEvent, TradeEvent } from './stream-events';

/**
 * What order-matching answers a consumer of the MATCHING stream whose start position the stream no
 * longer holds (its history expired: docs/trading.md, "How long the stream keeps them").
 *
 * The engine's books, a page of markets at a time: the consumer loads these and then applies the
 * stream from its first stored message, skipping book events at or below each market's `bookSeq`.
 */
export const bookSnapshotsRequest = z.object({
  /** The last condition id of the previous page; pages go in condition id order. */
  after: z.string().max(100).optional(),
});
export type BookSnapshotsRequest = z.output<typeof bookSnapshotsRequest>;

/** What a consumer needs of a trade to show its price and side in either token's terms. */
export type TradeFacts = Pick<TradeEvent, 'id' | 'conditionId' | 'tokenId' | 'side' | 'size' | 'price' | 'matchTime'> & {
  collateral: string;
  /** The trade's last fill, whose maker's price is the trade's price. */
  makers: Pick<TradeEvent['makers'][number], 'tokenId' | 'price'>[];
};

export interface MarketBookSnapshot {
  conditionId: string;
  /** The book sequence of the newest book event these levels include (0: no event yet). */
  bookSeq: number;
  /** Engine time (ms) when the snapshot was taken. */
  timestamp: number;
  /** Every non-empty level, YES terms, as a book event carries them. */
  levels: BookEvent['changes'];
  /** -1 while unresolved. */
  winningOutcome: -1 | 0 | 1;
  lastTrade: TradeFacts | null;
}

export interface BookSnapshotsPage {
  markets: MarketBookSnapshot[];
  /** The `after` of the next page; null on the last page. */
  next: string | null;
}

/** Every trade order-matching recorded, a page at a time in trade id order: for a price history to refill. */
export const tradeHistoryRequest = z.object({
  /** The last trade id of the previous page. */
  after: z.string().max(100).optional(),
});
export type TradeHistoryRequest = z.output<typeof tradeHistoryRequest>;

export interface TradeHistoryPage {
  trades: TradeFacts[];
  /** The `after` of the next page; null on the last page. */
  next: string | null;
}
