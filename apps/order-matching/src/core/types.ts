/**
 * Types of the matching core: one book per binary market, in YES terms, integers only.
 *
 * - price: micro-units of collateral per share (0.55 = 550_000). Resting prices are multiples of
 *   {@link PRICE_TICK} in [PRICE_TICK, PRICE_SCALE - PRICE_TICK]; a taker's limit may be any integer in
 *   [0, PRICE_SCALE] (a market order's worst-price cap is off the grid).
 * - size: micro-units of shares (1 share = 1_000_000), a positive safe integer. Sizes can pass 2^31,
 *   so they are never stored in 32-bit integers.
 * - id: assigned by the caller (the service's sequence); the core never makes ids.
 *
 * The core does not validate these bounds: the service checks a command before it reaches the book.
 */

/** BID buys YES, ASK sells YES. The service maps BUY NO at p to ASK at 1-p and SELL NO at p to BID at 1-p. */
export const Side = { BID: 0, ASK: 1 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** GTD is GTC for the core: the service cancels an order when it expires. */
export type TimeInForce = 'GTC' | 'FOK' | 'FAK';

/** 1.0 in price units: a price is micro-units of collateral per share. */
export const PRICE_SCALE = 1_000_000;
/** The finest tick (0.0001): every resting price is a multiple of it. */
export const PRICE_TICK = 100;
/** What {@link MatchingBook.bestBid} answers when there is no bid. */
export const NO_BID = 0;
/** What {@link MatchingBook.bestAsk} answers when there is no ask. */
export const NO_ASK = PRICE_SCALE;

export interface PlaceCommand {
  id: number;
  side: Side;
  /** GTC: the resting price (on the tick grid). FOK/FAK: the worst acceptable price, any integer in [0, PRICE_SCALE]. */
  price: number;
  size: number;
  tif: TimeInForce;
  postOnly: boolean;
  /** The most resting orders the command may trade with; one that would need more is refused whole. None: no limit. */
  maxFills?: number;
}

/** One trade against a resting order. The maker's price is the trade price. */
export interface Fill {
  makerId: number;
  price: number;
  size: number;
  /** What is left of the maker after this fill; 0 means it left the book. */
  makerRemaining: number;
}

export type PlaceOutcome =
  /** GTC: nothing or part filled, the rest is on the book. */
  | 'RESTING'
  /** Fully filled (any time in force). */
  | 'FILLED'
  /** FAK: the part that did not fill was dropped (`filled` may be 0). */
  | 'CANCELLED_REST'
  /** postOnly and an opposite order sits at an acceptable price: nothing happened. */
  | 'REJECTED_POST_ONLY'
  /** FOK and the book cannot fill all of it within the limit: nothing happened. */
  | 'REJECTED_FOK'
  /** An order with this id is resting on the book: nothing happened. */
  | 'REJECTED_DUPLICATE_ID'
  /** Filling it (as far as its limit and time in force let it) would trade with more than `maxFills` resting orders: nothing happened. */
  | 'REJECTED_TOO_MANY_FILLS';

export interface PlaceResult {
  outcome: PlaceOutcome;
  /** Size traded by this command. */
  filled: number;
  /** size - filled: resting (RESTING), dropped (CANCELLED_REST), or the whole size on a rejection. */
  remaining: number;
  /** Number of fills appended to `out`. */
  fills: number;
}

export interface RestingOrder {
  id: number;
  side: Side;
  price: number;
  remaining: number;
}

export interface PriceLevel {
  price: number;
  /** Sum of the remaining sizes resting at this price. */
  size: number;
}

/**
 * The book both implementations offer (the fast {@link OrderBook} and the test oracle `ReferenceBook`).
 *
 * Priority is price, then time of arrival. A BID crosses asks priced <= its limit, an ASK crosses bids
 * priced >= its limit. Checks in order: duplicate id, postOnly, FOK fillability; a rejected command changes
 * nothing. A command that breaks the preconditions above (see `checkCommand`) throws a RangeError: that is a
 * bug in the caller, not a rejection.
 */
export interface MatchingBook {
  /**
   * Matches `cmd` and rests what is left if it is GTC. Appends one Fill per maker touched, in the order
   * they traded, to `out` (the caller clears and reuses the array); `result.fills` counts them.
   */
  place(cmd: PlaceCommand, out: Fill[]): PlaceResult;
  /** Removes a resting order; answers the size it had left, 0 when the id does not rest here. */
  cancel(id: number): number;
  /** Highest bid price, {@link NO_BID} (0) when there is none. */
  bestBid(): number;
  /** Lowest ask price, {@link NO_ASK} (1_000_000) when there is none. */
  bestAsk(): number;
  /** Total remaining size resting on one side at one price (0 when none). */
  levelSize(side: Side, price: number): number;
  /** Up to `maxLevels` non-empty price levels of one side, best first. */
  depth(side: Side, maxLevels: number): PriceLevel[];
  order(id: number): RestingOrder | undefined;
  /** Every resting order: bids best level first, then asks best level first; arrival order inside a level. */
  orders(): Iterable<RestingOrder>;
  /** Number of resting orders. */
  readonly size: number;
}
