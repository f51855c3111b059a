import type { BookEvent } from '@exchange/contracts';
import { L2Book } from '../../src/books/l2-book';

const ev = (bookSeq: number, changes: [BookEvent['changes'][number]['side'], number, number][], timestamp = bookSeq): BookEvent => ({
  conditionId: '0xabc',
  bookSeq,
  timestamp,
  changes: changes.map(([side, price, size]) => ({ side, price: String(price), size: String(size) })),
});

describe('L2Book', () => {
  const events = [
    ev(1, [['BID', 400_000, 10]]),
    ev(2, [['ASK', 600_000, 5], ['BID', 380_000, 2]]),
    ev(3, [['BID', 400_000, 0], ['ASK', 650_000, 7]]),
    ev(4, [['BID', 400_000, 4], ['ASK', 600_000, 0]]),
  ];

  it('keeps aggregate levels, sorted ascending, without empty ones', () => {
    const book = new L2Book();
    events.forEach((e) => expect(book.apply(e)).toBe('applied'));
    expect(book.levels('BID')).toEqual([
      [380_000, 2],
      [400_000, 4],
    ]);
    expect(book.levels('ASK')).toEqual([[650_000, 7]]);
    expect([book.bestBid(), book.bestAsk(), book.lastSeq, book.timestamp, book.complete]).toEqual([400_000, 650_000, 4, 4, true]);
  });

  it('ends in the same book whatever the order or repetition of the events', () => {
    const reference = new L2Book();
    events.forEach((e) => reference.apply(e));
    for (const order of [[3, 2, 1, 0], [1, 0, 3, 2], [0, 0, 2, 1, 3, 3, 1]]) {
      const book = new L2Book();
      order.forEach((i) => book.apply(events[i]!));
      expect([book.levels('BID'), book.levels('ASK'), book.complete]).toEqual([reference.levels('BID'), reference.levels('ASK'), true]);
    }
  });

  it('detects gaps, remembers what is missing until it arrives, and tells duplicates apart', () => {
    const book = new L2Book();
    expect(book.apply(events[0]!)).toBe('applied');
    expect(book.apply(events[3]!)).toBe('gap');
    expect([...book.missing].sort()).toEqual([2, 3]);
    expect(book.complete).toBe(false);
    expect(book.apply(events[2]!)).toBe('applied');
    expect(book.apply(events[1]!)).toBe('applied');
    expect(book.complete).toBe(true);
    expect(book.apply(events[1]!)).toBe('duplicate');
  });

  it('survives a round trip through its saved state', () => {
    const book = new L2Book();
    [events[0]!, events[2]!].forEach((e) => book.apply(e));
    const copy = L2Book.fromState(JSON.parse(JSON.stringify(book.toState())));
    expect(copy.toState()).toEqual(book.toState());
    copy.apply(events[1]!);
    expect(copy.complete).toBe(true);
    // The level removed by event 3 stays removed though event 2 (older) arrives after it.
    expect(copy.levels('BID')).toEqual([[380_000, 2]]);
  });
});
