import { NO_ASK, NO_BID } from '../../../src/core';
import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: best prices, depth and listing', (_name, create) => {
  it('answers the sentinels on an empty book: 0 for no bid, 1_000_000 for no ask', () => {
    const { book } = makeBook(create);
    expect(book.bestBid()).toBe(NO_BID);
    expect(book.bestAsk()).toBe(NO_ASK);
    expect([NO_BID, NO_ASK]).toEqual([0, 1_000_000]);
    expect(book.depth(BID, 10)).toEqual([]);
    expect(book.depth(ASK, 10)).toEqual([]);
    expect(ordersOf(book)).toEqual([]);
    expect(book.size).toBe(0);
  });

  it('adds up each price level, best first, up to maxLevels', () => {
    const { book, rest } = makeBook(create);
    rest(BID, cents(48), shares(1));
    rest(BID, cents(50), shares(2));
    rest(BID, cents(48), 500_000);
    rest(BID, cents(30), shares(4));
    rest(ASK, cents(55), shares(1));
    rest(ASK, cents(52), shares(3));
    rest(ASK, cents(52), shares(1));

    expect(book.depth(BID, 10)).toEqual([
      { price: cents(50), size: shares(2) },
      { price: cents(48), size: 1_500_000 },
      { price: cents(30), size: shares(4) },
    ]);
    expect(book.depth(BID, 2)).toHaveLength(2);
    expect(book.depth(ASK, 10)).toEqual([
      { price: cents(52), size: shares(4) },
      { price: cents(55), size: shares(1) },
    ]);
    expect(book.depth(ASK, 0)).toEqual([]);
    expect(book.levelSize(BID, cents(48))).toBe(1_500_000);
    expect(book.levelSize(ASK, cents(52))).toBe(shares(4));
    expect(book.levelSize(ASK, cents(48))).toBe(0);
    expect(book.bestBid()).toBe(cents(50));
    expect(book.bestAsk()).toBe(cents(52));
    expect(book.size).toBe(7);
  });

  it('lists bids best first, then asks best first, in arrival order inside a level', () => {
    const { book, rest } = makeBook(create);
    const a1 = rest(ASK, cents(60), shares(1));
    const b1 = rest(BID, cents(40), shares(1));
    const a2 = rest(ASK, cents(55), shares(1));
    const b2 = rest(BID, cents(45), shares(1));
    const b3 = rest(BID, cents(40), shares(2));

    expect(ordersOf(book)).toEqual([
      { id: b2, side: BID, price: cents(45), remaining: shares(1) },
      { id: b1, side: BID, price: cents(40), remaining: shares(1) },
      { id: b3, side: BID, price: cents(40), remaining: shares(2) },
      { id: a2, side: ASK, price: cents(55), remaining: shares(1) },
      { id: a1, side: ASK, price: cents(60), remaining: shares(1) },
    ]);
  });

  it('can be rebuilt from its listing: placing the orders again in listed order gives the same book', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, cents(60), shares(1));
    rest(BID, cents(40), shares(1));
    rest(ASK, cents(55), shares(3));
    rest(BID, cents(45), shares(1));
    rest(BID, cents(40), shares(2));
    place({ side: BID, price: cents(55), size: shares(1) }); // partly fills the ask at 0.55
    const listed = ordersOf(book);

    const copy = create();
    for (const o of listed) {
      expect(copy.place({ id: o.id, side: o.side, price: o.price, size: o.remaining, tif: 'GTC', postOnly: true }, []).outcome).toBe('RESTING');
    }

    expect(ordersOf(copy)).toEqual(listed);
    expect(copy.depth(BID, 10)).toEqual(book.depth(BID, 10));
    expect(copy.depth(ASK, 10)).toEqual(book.depth(ASK, 10));
  });

  it('works at the edges of the price range (0.0001 and 0.9999)', () => {
    const { book, place, rest } = makeBook(create);
    rest(BID, 100, shares(1));
    rest(ASK, 999_900, shares(1));
    expect([book.bestBid(), book.bestAsk()]).toEqual([100, 999_900]);

    expect(place({ side: ASK, price: 100, size: shares(1), tif: 'FAK' }).fillList[0].price).toBe(100);
    expect(place({ side: BID, price: 999_900, size: shares(1), tif: 'FAK' }).fillList[0].price).toBe(999_900);
    expect(book.size).toBe(0);
  });

  it('finds the next level far away after the best one empties', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, 100, shares(1));
    rest(ASK, 999_900, shares(1));
    expect(place({ side: BID, price: 100, size: shares(1) }).outcome).toBe('FILLED');

    expect(book.bestAsk()).toBe(999_900);
    expect(book.bestBid()).toBe(0);
    rest(BID, 999_800, shares(1));
    rest(BID, 200, shares(1));
    place({ side: ASK, price: 999_800, size: shares(1), tif: 'FAK' });
    expect(book.bestBid()).toBe(200);
  });
});
