import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: price-time priority', (_name, create) => {
  it('takes the cheapest ask first, whatever the order it arrived in', () => {
    const { place, rest } = makeBook(create);
    const a52 = rest(ASK, cents(52), shares(1));
    const a50 = rest(ASK, cents(50), shares(1));
    const a51 = rest(ASK, cents(51), shares(1));

    const taker = place({ side: BID, price: cents(52), size: shares(3) });

    expect(taker.outcome).toBe('FILLED');
    expect(taker.fillList.map((f) => [f.makerId, f.price])).toEqual([
      [a50, cents(50)],
      [a51, cents(51)],
      [a52, cents(52)],
    ]);
  });

  it('takes the highest bid first', () => {
    const { place, rest } = makeBook(create);
    const b48 = rest(BID, cents(48), shares(1));
    const b50 = rest(BID, cents(50), shares(1));
    const b49 = rest(BID, cents(49), shares(1));

    const taker = place({ side: ASK, price: cents(48), size: shares(3) });

    expect(taker.fillList.map((f) => f.makerId)).toEqual([b50, b49, b48]);
  });

  it('fills orders at one price in the order they arrived', () => {
    const { place, rest } = makeBook(create);
    const first = rest(ASK, cents(50), shares(1));
    const second = rest(ASK, cents(50), shares(1));
    const third = rest(ASK, cents(50), shares(1));

    const taker = place({ side: BID, price: cents(50), size: shares(3) });

    expect(taker.fillList.map((f) => f.makerId)).toEqual([first, second, third]);
  });

  it('trades at the maker price, not the taker limit', () => {
    const { place, rest } = makeBook(create);
    rest(ASK, cents(50), shares(1));
    rest(BID, cents(40), shares(1));

    expect(place({ side: BID, price: cents(60), size: shares(1) }).fillList[0].price).toBe(cents(50));
    expect(place({ side: ASK, price: cents(30), size: shares(1) }).fillList[0].price).toBe(cents(40));
  });

  it('does not trade past the limit and rests the order at its own price', () => {
    const { book, place, rest } = makeBook(create);
    rest(ASK, cents(52), shares(1));

    const bid = place({ side: BID, price: cents(51), size: shares(1) });

    expect(bid).toMatchObject({ outcome: 'RESTING', filled: 0, remaining: shares(1), fills: 0 });
    expect(book.bestBid()).toBe(cents(51));
    expect(book.bestAsk()).toBe(cents(52));
  });

  it('keeps a partly filled maker at the head of its level', () => {
    const { book, place, rest } = makeBook(create);
    const first = rest(ASK, cents(50), shares(2));
    const second = rest(ASK, cents(50), shares(2));

    place({ side: BID, price: cents(50), size: shares(1) });
    const next = place({ side: BID, price: cents(50), size: shares(2) });

    expect(next.fillList.map((f) => [f.makerId, f.size])).toEqual([
      [first, shares(1)],
      [second, shares(1)],
    ]);
    expect(ordersOf(book)).toEqual([{ id: second, side: ASK, price: cents(50), remaining: shares(1) }]);
  });

  it('puts a new order at a price behind the ones already there', () => {
    const { book, rest } = makeBook(create);
    const a = rest(BID, cents(50), shares(1));
    const b = rest(BID, cents(51), shares(1));
    const c = rest(BID, cents(50), shares(1));

    expect(ordersOf(book).map((o) => o.id)).toEqual([b, a, c]);
  });
});
