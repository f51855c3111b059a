import type { PlaceCommand } from '../../../src/core';
import { ASK, BID, cents, implementations, makeBook, ordersOf, shares } from './books';

describe.each(implementations)('%s: duplicate ids and preconditions', (_name, create) => {
  it('rejects an id that rests on the book, whatever the command, changing nothing', () => {
    const { book, place, rest } = makeBook(create);
    const id = rest(BID, cents(50), shares(1));
    rest(ASK, cents(60), shares(1));
    const before = ordersOf(book);

    for (const tif of ['GTC', 'FAK', 'FOK'] as const) {
      expect(place({ side: BID, price: cents(60), size: shares(1), tif }, id)).toMatchObject({
        outcome: 'REJECTED_DUPLICATE_ID',
        filled: 0,
        remaining: shares(1),
        fills: 0,
      });
    }
    expect(ordersOf(book)).toEqual(before);
  });

  it('accepts the id of an order that no longer rests (the core knows only the book)', () => {
    const { place, rest } = makeBook(create);
    const id = rest(ASK, cents(50), shares(1));
    place({ side: BID, price: cents(50), size: shares(1) });

    expect(place({ side: BID, price: cents(40), size: shares(1) }, id).outcome).toBe('RESTING');
  });

  it.each<[string, Partial<PlaceCommand>]>([
    ['a resting price off the 100 grid', { price: 500_050 }],
    ['a resting price of 0', { price: 0 }],
    ['a resting price of 1', { price: 1_000_000 }],
    ['a zero size', { size: 0 }],
    ['a negative size', { size: -1 }],
    ['a fractional size', { size: 1.5 }],
    ['a fractional id', { id: 1.5 }],
    ['an FAK limit above 1', { tif: 'FAK', price: 1_000_001 }],
    ['an FAK limit below 0', { tif: 'FAK', price: -1 }],
    ['a fractional FOK limit', { tif: 'FOK', price: 500_000.5 }],
    ['an unknown side', { side: 2 as never }],
    ['an unknown time in force', { tif: 'IOC' as never }],
  ])('throws a RangeError for %s (a bug in the caller, not a rejection)', (_what, change) => {
    const { book } = makeBook(create);
    const cmd: PlaceCommand = { id: 1, side: BID, price: cents(50), size: shares(1), tif: 'GTC', postOnly: false, ...change };
    expect(() => book.place(cmd, [])).toThrow(RangeError);
    expect(book.size).toBe(0);
  });
});
