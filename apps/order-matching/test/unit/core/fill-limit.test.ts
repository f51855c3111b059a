import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: the most resting orders a command may trade with (maxFills)', (_name, create) => {
  /** Three asks of 2 shares at 0.50, two of 1 share at 0.51. */
  const setUp = () => {
    const made = makeBook(create);
    const makers = [made.rest(ASK, cents(50), shares(2)), made.rest(ASK, cents(50), shares(2)), made.rest(ASK, cents(50), shares(2))];
    makers.push(made.rest(ASK, cents(51), shares(1)), made.rest(ASK, cents(51), shares(1)));
    return { ...made, makers };
  };

  it('refuses a command that would trade with more, whole: nothing fills, nothing rests', () => {
    const { book, place } = setUp();
    const before = ordersOf(book);
    for (const tif of ['GTC', 'FAK', 'FOK'] as const) {
      // 5 shares take three orders at 0.50.
      expect(place({ side: BID, price: cents(50), size: shares(5), tif, maxFills: 2 })).toMatchObject({ outcome: 'REJECTED_TOO_MANY_FILLS', filled: 0, remaining: shares(5), fills: 0 });
    }
    expect(ordersOf(book)).toEqual(before);
  });

  it('counts only the orders the size reaches, across levels', () => {
    const { book, place, makers } = setUp();
    // 4 shares end exactly with the second order: two fills are allowed.
    expect(place({ side: BID, price: cents(50), size: shares(4), maxFills: 2 })).toMatchObject({ outcome: 'FILLED', fills: 2 });
    // 3.5 shares up to 0.51 take the last 0.50 order, one 0.51 order and half the other: three.
    expect(place({ side: BID, price: cents(51), size: shares(3.5), maxFills: 2 }).outcome).toBe('REJECTED_TOO_MANY_FILLS');
    expect(place({ side: BID, price: cents(51), size: shares(3.5), maxFills: 3 })).toMatchObject({ outcome: 'FILLED', fills: 3 });
    expect(ordersOf(book)).toEqual([{ id: makers[4], side: ASK, price: cents(51), remaining: shares(0.5) }]);
  });

  it('lets a GTC order rest what its limit leaves, counting only what crosses', () => {
    const { book, place } = setUp();
    const taker = place({ side: BID, price: cents(50), size: shares(10), maxFills: 3 }, 99);
    expect(taker).toMatchObject({ outcome: 'RESTING', filled: shares(6), remaining: shares(4), fills: 3 });
    expect(book.order(99)).toEqual({ id: 99, side: BID, price: cents(50), remaining: shares(4) });
  });

  it('does not limit a command that crosses nothing, even at 0', () => {
    const { place } = setUp();
    expect(place({ side: BID, price: cents(49), size: shares(1), maxFills: 0 }).outcome).toBe('RESTING');
    expect(place({ side: BID, price: cents(50), size: shares(1), maxFills: 0 }).outcome).toBe('REJECTED_TOO_MANY_FILLS');
  });
});
