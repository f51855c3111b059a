import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: cancel', (_name, create) => {
  it('removes a resting order and answers the size it had left', () => {
    const { book, rest } = makeBook(create);
    const id = rest(BID, cents(50), shares(3));

    expect(book.cancel(id)).toBe(shares(3));
    expect(book.order(id)).toBeUndefined();
    expect(book.size).toBe(0);
    expect(book.depth(BID, 5)).toEqual([]);
    expect(book.bestBid()).toBe(0);
  });

  it('answers what is left of a partly filled order', () => {
    const { book, place, rest } = makeBook(create);
    const id = rest(ASK, cents(50), shares(3));
    place({ side: BID, price: cents(50), size: shares(1) });

    expect(book.cancel(id)).toBe(shares(2));
  });

  it('answers 0 for an unknown id, a cancelled one and a filled one', () => {
    const { book, place, rest } = makeBook(create);
    const cancelled = rest(BID, cents(50), shares(1));
    const filled = rest(ASK, cents(60), shares(1));
    book.cancel(cancelled);
    place({ side: BID, price: cents(60), size: shares(1) });

    expect(book.cancel(12345)).toBe(0);
    expect(book.cancel(cancelled)).toBe(0);
    expect(book.cancel(filled)).toBe(0);
  });

  it('keeps the arrival order of the others when the head, middle or tail of a level goes', () => {
    const { book, rest } = makeBook(create);
    const ids = [1, 2, 3, 4, 5].map(() => rest(ASK, cents(50), shares(1)));

    book.cancel(ids[2]);
    book.cancel(ids[0]);
    book.cancel(ids[4]);
    const added = rest(ASK, cents(50), shares(1));

    expect(ordersOf(book).map((o) => o.id)).toEqual([ids[1], ids[3], added]);
    expect(book.depth(ASK, 1)).toEqual([{ price: cents(50), size: shares(3) }]);
  });

  it('moves the best price to the next level when the best level empties', () => {
    const { book, rest } = makeBook(create);
    const b50 = rest(BID, cents(50), shares(1));
    rest(BID, cents(45), shares(1));
    const a55 = rest(ASK, cents(55), shares(1));
    rest(ASK, cents(70), shares(1));

    book.cancel(b50);
    book.cancel(a55);

    expect(book.bestBid()).toBe(cents(45));
    expect(book.bestAsk()).toBe(cents(70));
  });

  it('leaves the best price alone when a worse level empties', () => {
    const { book, rest } = makeBook(create);
    rest(BID, cents(50), shares(1));
    const b45 = rest(BID, cents(45), shares(1));

    book.cancel(b45);

    expect(book.bestBid()).toBe(cents(50));
    expect(book.depth(BID, 5)).toEqual([{ price: cents(50), size: shares(1) }]);
  });

  it('frees the id: it may rest again', () => {
    const { book, place, rest } = makeBook(create);
    const id = rest(BID, cents(50), shares(1));
    book.cancel(id);

    expect(place({ side: ASK, price: cents(60), size: shares(1) }, id).outcome).toBe('RESTING');
    expect(book.order(id)).toEqual({ id, side: ASK, price: cents(60), remaining: shares(1) });
  });
});
