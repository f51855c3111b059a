import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: postOnly', (_name, create) => {
  it('rejects a BID that would take an ask, changing nothing', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, cents(50), shares(1));
    const before = ordersOf(book);

    const bid = place({ side: BID, price: cents(51), size: shares(1), postOnly: true });

    expect(bid).toMatchObject({ outcome: 'REJECTED_POST_ONLY', filled: 0, remaining: shares(1), fills: 0 });
    expect(ordersOf(book)).toEqual(before);
  });

  it('rejects at a price equal to the opposite best', () => {
    const { place, rest } = makeBook(create);
    rest(ASK, cents(50), shares(1));
    rest(BID, cents(45), shares(1));

    expect(place({ side: BID, price: cents(50), size: shares(1), postOnly: true }).outcome).toBe('REJECTED_POST_ONLY');
    expect(place({ side: ASK, price: cents(45), size: shares(1), postOnly: true }).outcome).toBe('REJECTED_POST_ONLY');
  });

  it('rests when it does not cross', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, cents(50), shares(1));
    rest(BID, cents(45), shares(1));

    expect(place({ side: BID, price: cents(49), size: shares(1), postOnly: true }).outcome).toBe('RESTING');
    expect(place({ side: ASK, price: cents(50), size: shares(1), postOnly: true }).outcome).toBe('RESTING');
    expect(book.bestBid()).toBe(cents(49));
    expect(book.bestAsk()).toBe(cents(50));
    expect(book.depth(ASK, 1)).toEqual([{ price: cents(50), size: shares(2) }]);
  });

  it('rests on an empty book', () => {
    const { place } = makeBook(create);
    expect(place({ side: ASK, price: cents(1), size: 1, postOnly: true }).outcome).toBe('RESTING');
  });

  it('is checked before FOK and FAK (the core does not refuse the combination; the service does)', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, cents(50), shares(1));

    expect(place({ side: BID, price: cents(50), size: shares(1), tif: 'FOK', postOnly: true }).outcome).toBe('REJECTED_POST_ONLY');
    expect(place({ side: BID, price: cents(50), size: shares(1), tif: 'FAK', postOnly: true }).outcome).toBe('REJECTED_POST_ONLY');
    expect(place({ side: BID, price: cents(49), size: shares(1), tif: 'FAK', postOnly: true })).toMatchObject({ outcome: 'CANCELLED_REST', filled: 0 });
    expect(place({ side: BID, price: cents(49), size: shares(1), tif: 'FOK', postOnly: true }).outcome).toBe('REJECTED_FOK');
    expect(book.size).toBe(1);
  });
});
