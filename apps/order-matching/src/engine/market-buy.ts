import { UNIT } from '@exchange/contracts';
import { Side, type MatchingBook } from '../core';
import { costAtCap, SHARE_STEP, valueOf } from './book-terms';
import { FeeTally, type FeeSchedule } from './fees';

/** What a marketable BUY's collateral buys from the book right now. */
export interface BudgetWalk {
  /** Shares, a multiple of 0.01. */
  shares: number;
  /** Collateral they cost at the makers' prices (at most the budget). */
  cost: number;
  /** The taker fee of those shares at the prices of the levels they come from, as their fills will owe it. */
  fee: number;
  /** Whether the budget is spent: what is left does not buy 0.01 share at the cap. */
  spent: boolean;
}

/** Levels read from the book at a time; the next reads twice as many. */
const FIRST_LEVELS = 16;

/**
 * A marketable BUY (FOK, FAK) spends a collateral amount, as upstream's market BUY does ("BUY amount =
 * USD to spend"; the taker gets the price improvement, as more shares): its signed share amount only
 * sets the worst price. Walks the opposite side of the YES book best level first, as far as the cap,
 * taking at each level the whole 0.01 shares that what is left of the budget pays for. A BUY of YES
 * (a bid) takes asks at their price; a BUY of NO (an ask at 1 − p) takes bids, each share costing
 * 1 − the bid. `cap` is in the bought token's terms. Prices are on the 0.0001 grid, so every cost is
 * an exact integer. The book does not change between this walk and the command that fills it (both run
 * in one engine step), so the core then fills exactly these shares.
 */
export function walkBudget(book: MatchingBook, takerSide: Side, cap: number, budget: number, schedule: FeeSchedule): BudgetWalk {
  const bid = takerSide === Side.BID;
  const opposite = bid ? Side.ASK : Side.BID;
  let shares = 0;
  let cost = 0;
  const fees = new FeeTally(schedule);
  const walked = () => ({ shares, cost, fee: fees.total, spent: budget - cost < costAtCap(SHARE_STEP, cap) });
  for (let read = 0, wanted = FIRST_LEVELS; ; wanted *= 2) {
    const levels = book.depth(opposite, wanted);
    for (; read < levels.length; read++) {
      const level = levels[read]!;
      const price = bid ? level.price : UNIT - level.price;
      if (price > cap) return walked();
      const affordable = Math.floor((budget - cost) / valueOf(SHARE_STEP, price)) * SHARE_STEP;
      const take = Math.min(level.size, affordable);
      shares += take;
      cost += valueOf(take, price);
      fees.add(take, price);
      // Less than a level's worth left: less than 0.01 share's cost here, and every later level costs more.
      if (take < level.size) return { shares, cost, fee: fees.total, spent: true };
    }
    if (levels.length < wanted) return walked();
  }
}

/** What a limit BUY would take from the book on arrival. */
export interface Crossing {
  shares: number;
  /** Their taker fee at the prices of the levels they come from, as their fills will owe it. */
  fee: number;
}

/**
 * How many of `wanted` shares a limit BUY (GTC, GTD) would take from the book right now, at prices up to
 * its own (`cap`, in the bought token's terms), and their taker fee: the part of it that owes one.
 */
export function crossingOf(book: MatchingBook, takerSide: Side, cap: number, wanted: number, schedule: FeeSchedule): Crossing {
  const bid = takerSide === Side.BID;
  // Most quotes cross nothing: the best opposite price alone says so, without reading levels.
  if ((bid ? book.bestAsk() : UNIT - book.bestBid()) > cap) return { shares: 0, fee: 0 };
  const opposite = bid ? Side.ASK : Side.BID;
  const fees = new FeeTally(schedule);
  let shares = 0;
  for (let read = 0, levels = FIRST_LEVELS; ; levels *= 2) {
    const depth = book.depth(opposite, levels);
    for (; read < depth.length; read++) {
      const level = depth[read]!;
      const price = bid ? level.price : UNIT - level.price;
      if (price > cap) return { shares, fee: fees.total };
      const take = Math.min(level.size, wanted - shares);
      shares += take;
      fees.add(take, price);
      if (shares === wanted) return { shares, fee: fees.total };
    }
    if (depth.length < levels) return { shares, fee: fees.total };
  }
}
