import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: FAK and FOK', (_name, create) => {
  describe('FAK', () => {
    it('fills what crosses and drops the rest', () => {
      const { book, place, rest } = makeBook(create);
      rest(ASK, cents(50), shares(2));

      const taker = place({ side: BID, price: cents(50), size: shares(5), tif: 'FAK' }, 50);

      expect(taker).toMatchObject({ outcome: 'CANCELLED_REST', filled: shares(2), remaining: shares(3), fills: 1 });
      expect(book.order(50)).toBeUndefined();
      expect(book.size).toBe(0);
      expect(book.bestBid()).toBe(0);
    });

    it('drops the whole order when nothing crosses', () => {
      const { book, place, rest } = makeBook(create);
      const maker = rest(ASK, cents(50), shares(2));

      const taker = place({ side: BID, price: cents(49), size: shares(1), tif: 'FAK' });

      expect(taker).toMatchObject({ outcome: 'CANCELLED_REST', filled: 0, remaining: shares(1), fills: 0 });
      expect(ordersOf(book)).toEqual([{ id: maker, side: ASK, price: cents(50), remaining: shares(2) }]);
    });

    it('on an empty book fills nothing', () => {
      const { book, place } = makeBook(create);
      expect(place({ side: ASK, price: 0, size: shares(1), tif: 'FAK' })).toMatchObject({ outcome: 'CANCELLED_REST', filled: 0 });
      expect(book.size).toBe(0);
    });

    it('reports FILLED when it fills entirely', () => {
      const { place, rest } = makeBook(create);
      rest(BID, cents(50), shares(2));
      expect(place({ side: ASK, price: cents(50), size: shares(2), tif: 'FAK' })).toMatchObject({ outcome: 'FILLED', filled: shares(2), remaining: 0 });
    });

    it('takes an off-grid worst-price cap: a BID trades at prices <= the cap', () => {
      const { place, rest } = makeBook(create);
      const inside = rest(ASK, 505_000, shares(1));
      rest(ASK, 505_100, shares(1));

      const taker = place({ side: BID, price: 505_050, size: shares(2), tif: 'FAK' });

      expect(taker.fillList.map((f) => f.makerId)).toEqual([inside]);
      expect(taker).toMatchObject({ outcome: 'CANCELLED_REST', filled: shares(1) });
    });

    it('takes an off-grid worst-price cap: an ASK trades at prices >= the cap', () => {
      const { place, rest } = makeBook(create);
      const inside = rest(BID, 505_000, shares(1));
      rest(BID, 504_900, shares(1));

      const taker = place({ side: ASK, price: 504_950, size: shares(2), tif: 'FAK' });

      expect(taker.fillList.map((f) => f.makerId)).toEqual([inside]);
    });

    it('with caps 1 and 0 acts as a market order over the whole side', () => {
      const { book, place, rest } = makeBook(create);
      rest(ASK, cents(10), shares(1));
      rest(ASK, 999_900, shares(1));
      rest(BID, 100, shares(1));
      rest(BID, cents(5), shares(1));

      expect(place({ side: BID, price: 1_000_000, size: shares(5), tif: 'FAK' })).toMatchObject({ filled: shares(2), fills: 2 });
      expect(place({ side: ASK, price: 0, size: shares(5), tif: 'FAK' })).toMatchObject({ filled: shares(2), fills: 2 });
      expect(book.size).toBe(0);
    });
  });

  describe('FOK', () => {
    it('fills across levels when the book holds enough within the limit', () => {
      const { book, place, rest } = makeBook(create);
      rest(ASK, cents(50), shares(1));
      rest(ASK, cents(51), shares(1));
      rest(ASK, cents(52), shares(1));

      const taker = place({ side: BID, price: cents(51), size: shares(2), tif: 'FOK' });

      expect(taker).toMatchObject({ outcome: 'FILLED', filled: shares(2), remaining: 0, fills: 2 });
      expect(book.bestAsk()).toBe(cents(52));
    });

    it('fills when the book holds exactly its size', () => {
      const { book, place, rest } = makeBook(create);
      rest(BID, cents(50), shares(1));
      rest(BID, cents(49), 500_000);

      expect(place({ side: ASK, price: cents(49), size: 1_500_000, tif: 'FOK' })).toMatchObject({ outcome: 'FILLED' });
      expect(book.size).toBe(0);
    });

    it('is rejected, changing nothing, when liquidity within the limit falls short', () => {
      const { book, place, rest } = makeBook(create);
      rest(ASK, cents(50), shares(1));
      rest(ASK, cents(51), shares(1));
      rest(ASK, cents(52), shares(5)); // beyond the limit: does not count
      rest(BID, cents(40), shares(1));
      const before = ordersOf(book);

      const taker = place({ side: BID, price: cents(51), size: 2_000_001, tif: 'FOK' });

      expect(taker).toMatchObject({ outcome: 'REJECTED_FOK', filled: 0, remaining: 2_000_001, fills: 0 });
      expect(taker.fillList).toEqual([]);
      expect(ordersOf(book)).toEqual(before);
      expect(book.bestAsk()).toBe(cents(50));
    });

    it('is rejected on an empty side', () => {
      const { book, place, rest } = makeBook(create);
      rest(BID, cents(40), shares(1));
      expect(place({ side: BID, price: 1_000_000, size: 1, tif: 'FOK' }).outcome).toBe('REJECTED_FOK');
      expect(book.size).toBe(1);
    });

    it('counts only prices on the right side of an off-grid limit', () => {
      const { place, rest } = makeBook(create);
      rest(BID, 505_000, shares(1));
      rest(BID, 504_900, shares(1));

      expect(place({ side: ASK, price: 504_901, size: shares(2), tif: 'FOK' }).outcome).toBe('REJECTED_FOK');
      expect(place({ side: ASK, price: 504_900, size: shares(2), tif: 'FOK' }).outcome).toBe('FILLED');
    });
  });
});
