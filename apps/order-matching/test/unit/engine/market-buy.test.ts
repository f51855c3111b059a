import { OrderBook, Side, type Fill } from '../../../src/core';
import { crossingOf, walkBudget as walkWithFees } from '../../../src/engine/market-buy';
import type { FeeSchedule } from '../../../src/engine/fees';

const FREE: FeeSchedule = { ratePpm: 0, exponent: 1, takerOnly: true, rebateRatePpm: 0 };
/** The walks of the first tests, on a market without fees. */
const walkBudget = (book: OrderBook, side: Side, cap: number, budget: number) => {
  const { fee, ...walk } = walkWithFees(book, side, cap, budget, FREE);
  expect(fee).toBe(0);
  return walk;
};

/** A book with one resting order per [side, price, shares] (micro-units). */
function bookOf(...orders: [Side, number, number][]): OrderBook {
  const book = new OrderBook();
  const out: Fill[] = [];
  orders.forEach(([side, price, size], i) => book.place({ id: i + 1, side, price, size, tif: 'GTC', postOnly: false }, out));
  return book;
}

describe('walkBudget: what a market BUY’s collateral buys', () => {
  it('takes whole 0.01 shares level by level and says when the budget, not the book, ended it', () => {
    const book = bookOf([Side.ASK, 500_000, 5_000_000], [Side.ASK, 550_000, 5_000_000]);
    expect(walkBudget(book, Side.BID, 550_000, 5_000_000)).toEqual({ shares: 9_540_000, cost: 4_997_000, spent: true });
    // Exactly the value of both levels: spent, with nothing left over.
    expect(walkBudget(book, Side.BID, 550_000, 5_250_000)).toEqual({ shares: 10_000_000, cost: 5_250_000, spent: true });
    // More than the book holds up to the cap: not spent.
    expect(walkBudget(book, Side.BID, 550_000, 5_300_000)).toEqual({ shares: 10_000_000, cost: 5_250_000, spent: false });
    // The cap stops the walk before the dearer level.
    expect(walkBudget(book, Side.BID, 540_000, 5_000_000)).toEqual({ shares: 5_000_000, cost: 2_500_000, spent: false });
    // Less than 0.01 share's cost at the cap is a spent budget, though the book holds more.
    expect(walkBudget(book, Side.BID, 550_000, 4_000)).toEqual({ shares: 0, cost: 0, spent: true });
  });

  it('buys NO from bids of YES at 1 − their price, best bid first', () => {
    const book = bookOf([Side.BID, 500_000, 10_000_000], [Side.BID, 600_000, 5_000_000]);
    // NO's cap 0.45 takes only the bid at 0.60 (NO at 0.40).
    expect(walkBudget(book, Side.ASK, 450_000, 4_000_000)).toEqual({ shares: 5_000_000, cost: 2_000_000, spent: false });
    expect(walkBudget(book, Side.ASK, 500_000, 4_000_000)).toEqual({ shares: 9_000_000, cost: 4_000_000, spent: true });
  });

  it('reads as many levels as the budget reaches', () => {
    // 40 levels of 1 share from 0.10 up by 0.01: the first 16 read are not enough.
    const levels = Array.from({ length: 40 }, (_, i): [Side, number, number] => [Side.ASK, 100_000 + i * 10_000, 1_000_000]);
    const book = bookOf(...levels);
    const all = levels.reduce((sum, [, price]) => sum + price, 0);
    expect(walkBudget(book, Side.BID, 990_000, all)).toEqual({ shares: 40_000_000, cost: all, spent: true });
    expect(walkBudget(book, Side.BID, 990_000, all + 1_000_000)).toEqual({ shares: 40_000_000, cost: all, spent: false });
  });
});

describe('walkBudget: the taker fee of what it buys', () => {
  it("is the fee of each level at that level's price, not at the cap or at 0.50", () => {
    const book = bookOf([Side.ASK, 500_000, 5_000_000], [Side.ASK, 550_000, 5_000_000]);
    const twoPercent: FeeSchedule = { ratePpm: 20_000, exponent: 1, takerOnly: true, rebateRatePpm: 0 };
    // 5 shares at 0.50: 5 × 0.02 × 0.25 = 0.025; 4.54 at 0.55: 4.54 × 0.02 × 0.2475 = 0.022473 → 0.02247.
    expect(walkWithFees(book, Side.BID, 600_000, 5_000_000, twoPercent)).toEqual({ shares: 9_540_000, cost: 4_997_000, fee: 47_470, spent: true });
    // NO bought from the YES bid at 0.45 (NO at 0.55): 3 × 0.02 × 0.2475 = 0.01485.
    const bids = bookOf([Side.BID, 450_000, 3_000_000]);
    expect(walkWithFees(bids, Side.ASK, 600_000, 5_000_000, twoPercent)).toEqual({ shares: 3_000_000, cost: 1_650_000, fee: 14_850, spent: false });
  });
});

describe('crossingOf: what a limit BUY would take on arrival (the part that owes a taker fee)', () => {
  const none: FeeSchedule = { ratePpm: 0, exponent: 1, takerOnly: true, rebateRatePpm: 0 };
  const sharesOf = (book: OrderBook, side: Side, cap: number, wanted: number) => crossingOf(book, side, cap, wanted, none).shares;

  it('counts the opposite side up to its price and its size, for YES and for NO', () => {
    const book = bookOf([Side.ASK, 500_000, 5_000_000], [Side.ASK, 550_000, 5_000_000], [Side.BID, 400_000, 7_000_000], [Side.BID, 300_000, 2_000_000]);
    expect(sharesOf(book, Side.BID, 450_000, 20_000_000)).toBe(0);
    expect(sharesOf(book, Side.BID, 500_000, 20_000_000)).toBe(5_000_000);
    expect(sharesOf(book, Side.BID, 600_000, 20_000_000)).toBe(10_000_000);
    expect(sharesOf(book, Side.BID, 600_000, 6_000_000)).toBe(6_000_000);
    // A BUY of NO at 0.65 meets the YES bid at 0.40 (NO at 0.60), not the one at 0.30 (NO at 0.70).
    expect(sharesOf(book, Side.ASK, 650_000, 20_000_000)).toBe(7_000_000);
    expect(sharesOf(book, Side.ASK, 550_000, 20_000_000)).toBe(0);
    expect(sharesOf(new OrderBook(), Side.ASK, 990_000, 1_000_000)).toBe(0);
  });

  it('owes the taker fee at the prices of the levels it takes, rounded once', () => {
    // Asks 5 at 0.40 and 5.37 at 0.45, a BUY of 20 at 0.50 (a probe's case: its fee was held at 0.50,
    // so a balance that paid every fee it would owe was refused). Rate 0.072, exponent 2:
    // 5 x 0.072 x 0.0576 = 0.020736 and 5.37 x 0.072 x 0.06125625 = 0.023683...; together 0.04442 (not
    // 0.06917 at 0.50).
    const book = bookOf([Side.ASK, 400_000, 5_000_000], [Side.ASK, 450_000, 5_370_000]);
    const squared: FeeSchedule = { ratePpm: 72_000, exponent: 2, takerOnly: true, rebateRatePpm: 0 };
    expect(crossingOf(book, Side.BID, 500_000, 20_000_000, squared)).toEqual({ shares: 10_370_000, fee: 44_420 });
    expect(crossingOf(book, Side.BID, 500_000, 6_000_000, squared)).toEqual({ shares: 6_000_000, fee: 25_150 });
  });
});
