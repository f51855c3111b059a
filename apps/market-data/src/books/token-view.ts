import { formatUnits, UNIT, type BookLevel, type TradeFacts } from '@exchange/contracts';
import type { L2Book, LevelPairs } from './l2-book';

/** 0 = the primary (YES) token, whose terms the book is kept in; 1 = the other (NO) token. */
export type Outcome = 0 | 1;

/** YES price <-> NO price: the same map both ways. */
export function mirrored(price: number): number {
  return UNIT - price;
}

/**
 * A token's own view of the market's one book. The YES token sees it as it is. The NO token sees the
 * YES asks as its bids and the YES bids as its asks, at 1 - p: a BUY of NO at p is a SELL of YES at
 * 1 - p. Bids come ascending and asks descending (best level last), as upstream shows them.
 */
export function tokenLevels(book: L2Book, outcome: Outcome): { bids: LevelPairs; asks: LevelPairs } {
  const yesBids = book.levels('BID');
  const yesAsks = book.levels('ASK');
  if (outcome === 0) return { bids: yesBids, asks: [...yesAsks].reverse() };
  return {
    bids: [...yesAsks].reverse().map(([p, s]) => [mirrored(p), s] as const),
    asks: yesBids.map(([p, s]) => [mirrored(p), s] as const),
  };
}

export function bestBid(book: L2Book, outcome: Outcome): number | undefined {
  if (outcome === 0) return book.bestBid();
  const ask = book.bestAsk();
  return ask === undefined ? undefined : mirrored(ask);
}

export function bestAsk(book: L2Book, outcome: Outcome): number | undefined {
  if (outcome === 0) return book.bestAsk();
  const bid = book.bestBid();
  return bid === undefined ? undefined : mirrored(bid);
}

/** The last trade of a market in YES terms: the price of its last fill and the taker's side. */
export interface LastTrade {
  price: number;
  side: 'BUY' | 'SELL';
  /** Position of the trade event in the MATCHING stream (`eventPosition`): a redelivered older trade never wins. */
  seq: number;
  time: number;
}

/**
 * A trade event in YES terms. The price is that of the trade's last fill (the maker's price, in the
 * taker's token), which is the price the book last traded at; a NO taker is mirrored (BUY NO at p is a
 * SELL of YES at 1 - p).
 */
export function yesTermsOf(event: Pick<TradeFacts, 'tokenId' | 'side' | 'price' | 'makers'>, takerOutcome: Outcome): { price: number; side: 'BUY' | 'SELL' } {
  const last = event.makers[event.makers.length - 1];
  const ownPrice = !last ? Number(event.price) : last.tokenId === event.tokenId ? Number(last.price) : mirrored(Number(last.price));
  if (takerOutcome === 0) return { price: ownPrice, side: event.side };
  return { price: mirrored(ownPrice), side: event.side === 'BUY' ? 'SELL' : 'BUY' };
}

/** A market's last trade as one token sees it. */
export function lastTradeOf(last: LastTrade | undefined, outcome: Outcome): { price: number; side: 'BUY' | 'SELL' } | undefined {
  if (!last) return undefined;
  if (outcome === 0) return { price: last.price, side: last.side };
  return { price: mirrored(last.price), side: last.side === 'BUY' ? 'SELL' : 'BUY' };
}

/** The midpoint of the best bid and ask; with a side empty, the last trade; with neither, 0.5. */
export function midpointOf(book: L2Book, last: LastTrade | undefined, outcome: Outcome): number {
  const bid = bestBid(book, outcome);
  const ask = bestAsk(book, outcome);
  if (bid !== undefined && ask !== undefined) return Math.round((bid + ask) / 2);
  return lastTradeOf(last, outcome)?.price ?? UNIT / 2;
}

/** Best ask minus best bid, an empty bid side counting as 0 and an empty ask side as 1. */
export function spreadOf(book: L2Book, outcome: Outcome): number {
  return (bestAsk(book, outcome) ?? UNIT) - (bestBid(book, outcome) ?? 0);
}

export function toLevels(pairs: LevelPairs): BookLevel[] {
  return pairs.map(([price, size]) => ({ price: formatUnits(price), size: formatUnits(size) }));
}
