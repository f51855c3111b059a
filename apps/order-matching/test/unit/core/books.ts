import { OrderBook, Side, type Fill, type MatchingBook, type PlaceResult, type TimeInForce } from '../../../src/core';
import { ReferenceBook } from '../../../src/core/reference-book';

/** Both implementations, for `describe.each`: every example runs against the fast book and the oracle. */
export const implementations: [string, () => MatchingBook][] = [
  ['OrderBook', () => new OrderBook()],
  ['ReferenceBook', () => new ReferenceBook()],
];

/** Whole shares in size units. */
export const shares = (n: number): number => n * 1_000_000;
/** A price in cents of collateral per share, in price units (55 -> 550_000). */
export const cents = (n: number): number => n * 10_000;

export const { BID, ASK } = Side;

export interface Placed extends PlaceResult {
  fillList: Fill[];
}

export interface Order {
  side: Side;
  price: number;
  size: number;
  tif?: TimeInForce;
  postOnly?: boolean;
  maxFills?: number;
}

/** A book plus a place() that takes a few defaults and returns the fills with the result. */
export function makeBook(create: () => MatchingBook) {
  const book = create();
  let nextId = 1;
  const place = (order: Order, id = nextId++): Placed => {
    const out: Fill[] = [];
    const result = book.place({ id, tif: 'GTC', postOnly: false, ...order }, out);
    expect(out).toHaveLength(result.fills);
    return { ...result, fillList: out };
  };
  const rest = (side: Side, price: number, size: number): number => {
    const id = nextId++;
    expect(place({ side, price, size }, id).outcome).toBe('RESTING');
    return id;
  };
  return { book, place, rest };
}

export const ordersOf = (book: MatchingBook) => [...book.orders()];
