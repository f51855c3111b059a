import { UNIT, type TradeEvent } from '@exchange/contracts';
import type { L2Book } from '../books/l2-book';

/**
 * What a trade adds to its market's volume: the value of its fills at their prices (before the fee), base units.
 * Events of versions before it was published carry only the taker's average price, rounded to a base
 * unit: size x price is within half a base unit per share of it.
 */
export function takerCollateral(trade: Pick<TradeEvent, 'size' | 'price' | 'collateral'>): bigint {
  if (trade.collateral !== undefined) return BigInt(trade.collateral);
  return (BigInt(trade.size) * BigInt(trade.price)) / BigInt(UNIT);
}

/** The collateral value of a book's resting orders: each level's size times its price, bids and asks (YES terms). */
export function bookValue(book: L2Book): bigint {
  let micro = 0n;
  for (const side of ['BID', 'ASK'] as const) {
    for (const [price, size] of book.levels(side)) micro += BigInt(price) * BigInt(size);
  }
  return micro / BigInt(UNIT);
}
