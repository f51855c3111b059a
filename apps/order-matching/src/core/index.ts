/**
 * The matching core: a pure order book per binary market (no clock, no ids, no IO, integers only).
 * The service around it validates, stamps time and sequence, journals and publishes.
 */
export { OrderBook } from './order-book';
export { checkCommand } from './preconditions';
export {
  NO_ASK,
  NO_BID,
  PRICE_SCALE,
  PRICE_TICK,
  Side,
  type Fill,
  type MatchingBook,
  type PlaceCommand,
  type PlaceOutcome,
  type PlaceResult,
  type PriceLevel,
  type RestingOrder,
  type TimeInForce,
} from './types';
