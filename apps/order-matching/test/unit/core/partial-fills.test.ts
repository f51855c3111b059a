import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: partial fills', (_name, create) => {
  it('rests what a GTC taker could not fill, at its limit', () => {
    const { book, place, rest } = makeBook(create);
    const maker = rest(ASK, cents(50), shares(2));

    const taker = place({ side: BID, price: cents(55), size: shares(5) }, 100);

    expect(taker).toMatchObject({ outcome: 'RESTING', filled: shares(2), remaining: shares(3), fills: 1 });
    expect(taker.fillList).toEqual([{ makerId: maker, price: cents(50), size: shares(2), makerRemaining: 0 }]);
    expect(book.order(maker)).toBeUndefined();
    expect(book.order(100)).toEqual({ id: 100, side: BID, price: cents(55), remaining: shares(3) });
    expect(book.bestBid()).toBe(cents(55));
    expect(book.bestAsk()).toBe(1_000_000);
  });

  it('leaves a partly filled maker on the book with what it has left', () => {
    const { book, place, rest } = makeBook(create);
    const maker = rest(BID, cents(45), shares(10));

    const taker = place({ side: ASK, price: cents(45), size: 2_500_000 });

    expect(taker).toMatchObject({ outcome: 'FILLED', filled: 2_500_000, remaining: 0 });
    expect(taker.fillList).toEqual([{ makerId: maker, price: cents(45), size: 2_500_000, makerRemaining: 7_500_000 }]);
    expect(book.order(maker)?.remaining).toBe(7_500_000);
    expect(book.depth(BID, 5)).toEqual([{ price: cents(45), size: 7_500_000 }]);
  });

  it('sweeps several levels and stops inside the last maker', () => {
    const { book, place, rest } = makeBook(create);
    const a = rest(ASK, cents(50), shares(1));
    const b = rest(ASK, cents(50), shares(1));
    const c = rest(ASK, cents(51), shares(2));
    const d = rest(ASK, cents(53), shares(2));

    const taker = place({ side: BID, price: cents(53), size: shares(5) });

    expect(taker).toMatchObject({ outcome: 'FILLED', filled: shares(5), fills: 4 });
    expect(taker.fillList).toEqual([
      { makerId: a, price: cents(50), size: shares(1), makerRemaining: 0 },
      { makerId: b, price: cents(50), size: shares(1), makerRemaining: 0 },
      { makerId: c, price: cents(51), size: shares(2), makerRemaining: 0 },
      { makerId: d, price: cents(53), size: shares(1), makerRemaining: shares(1) },
    ]);
    expect(ordersOf(book)).toEqual([{ id: d, side: ASK, price: cents(53), remaining: shares(1) }]);
    expect(book.bestAsk()).toBe(cents(53));
    expect(book.size).toBe(1);
  });

  it('fills exactly: both orders leave the book', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, cents(50), shares(3));

    expect(place({ side: BID, price: cents(50), size: shares(3) })).toMatchObject({ outcome: 'FILLED', remaining: 0 });
    expect(book.size).toBe(0);
    expect(book.bestAsk()).toBe(1_000_000);
    expect(book.bestBid()).toBe(0);
  });

  it('keeps sizes above 2^31 exact', () => {
    const { book, place, rest } = makeBook(create);
    const big = 900_000_000 * 1_000_000; // 900 million shares
    const maker = rest(ASK, cents(50), big);

    const taker = place({ side: BID, price: cents(50), size: big - 1 });

    expect(taker.fillList[0]).toEqual({ makerId: maker, price: cents(50), size: big - 1, makerRemaining: 1 });
    expect(book.depth(ASK, 1)).toEqual([{ price: cents(50), size: 1 }]);
  });

  it('appends fills to the caller array after what is already there', () => {
    const { book, rest } = makeBook(create);
    const maker = rest(ASK, cents(50), shares(1));
    const earlier = { makerId: -1, price: 0, size: 0, makerRemaining: 0 };
    const out = [earlier];

    const result = book.place({ id: 99, side: BID, price: cents(50), size: shares(1), tif: 'GTC', postOnly: false }, out);

    expect(result.fills).toBe(1);
    expect(out).toEqual([earlier, { makerId: maker, price: cents(50), size: shares(1), makerRemaining: 0 }]);
  });
});
