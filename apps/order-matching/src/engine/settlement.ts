import { capFee, makerFeeBetween, rebateFor, type FeeTally } from './fees';
import { costAtCap, flipFor, valueOf } from './book-terms';
import { DEFAULT_MAX_FEE_RATE_BPS, type EngineState } from './engine-state';
import { COLLATERAL } from './ledger';
import type { MarketState, OrderState } from './model';

/**
 * Moves collateral and shares for one fill between a taker and a maker order, which may trade the same
 * token (a normal trade), or the two tokens of the market: two BUYs mint a pair from their collateral,
 * two SELLs merge a pair into collateral. The maker's price is the trade price. `takerFees` tallies the
 * taker's fills of this placement. Returns the fees charged.
 */
export function settleFill(
  state: EngineState,
  market: MarketState,
  taker: OrderState,
  maker: OrderState,
  shares: number,
  bookPrice: number,
  takerFees: FeeTally,
): { takerValue: number; takerFee: number; makerFee: number; rebate: number } {
  const takerPrice = flipFor(taker.outcome, bookPrice);
  const makerPrice = flipFor(maker.outcome, bookPrice);
  // Same token: both prices are equal. Two tokens: the prices add up to 1, so the values add up to `shares`.
  const takerValue = valueOf(shares, takerPrice);
  const makerValue = valueOf(shares, makerPrice);
  const cap = state.settings.maxFeeRateBps ?? DEFAULT_MAX_FEE_RATE_BPS;
  const takerFee = applyToOrder(state, taker, shares, takerValue, capFee(takerFees.add(shares, takerPrice), takerValue, cap));
  const makerFee = applyToOrder(state, maker, shares, makerValue, capFee(makerFeeBetween(market.fee, makerPrice, maker.matched, maker.matched + shares), makerValue, cap));
  // The schedule may have changed since it rested: what it no longer owes goes back at once.
  if (maker.side === 'BUY') keepMakerReserve(state, market, maker);
  const rebate = rebateFor(market.fee, takerFee);
  state.ledger.credit(state.settings.feeAccount, COLLATERAL, takerFee + makerFee - rebate);
  state.ledger.credit(maker.maker, COLLATERAL, rebate);
  return { takerValue, takerFee, makerFee, rebate };
}

/** One side of a fill: a BUY pays value + fee from its reservation and gets shares; a SELL the reverse. */
function applyToOrder(state: EngineState, order: OrderState, shares: number, value: number, fee: number): number {
  const { ledger } = state;
  order.matched += shares;
  if (order.side === 'BUY') {
    // Never charge beyond what was reserved for fees: what stays reserved must still buy the rest.
    if (order.costLeft !== undefined) order.costLeft -= value;
    const stillNeeded = order.costLeft ?? costAtCap(order.size - order.matched, order.price);
    const charged = Math.max(0, Math.min(fee, order.reserved - value - stillNeeded));
    ledger.spendReserved(order.maker, COLLATERAL, value + charged);
    order.reserved -= value + charged;
    ledger.credit(order.maker, order.tokenId, shares);
    return charged;
  }
  const charged = Math.min(fee, value);
  ledger.spendReserved(order.maker, order.tokenId, shares);
  order.reserved -= shares;
  ledger.credit(order.maker, COLLATERAL, value - charged);
  return charged;
}

/**
 * A BUY that rests trades only as a maker from now on, at its own price: it keeps what the rest costs
 * there and the maker fees it may still owe (`makerFeeBetween`; none when the schedule is taker-only), and
 * gives back the rest: what it held for a taker's fee, what better prices saved it, and a maker fee the
 * schedule no longer charges. It never takes more: a fee raised after it rested is charged up to what it
 * holds.
 */
export function keepMakerReserve(state: EngineState, market: MarketState, order: OrderState): void {
  const rest = order.size - order.matched;
  const needed = valueOf(rest, order.price) + makerFeeBetween(market.fee, order.price, order.matched, order.size);
  if (order.reserved <= needed) return;
  state.ledger.release(order.maker, COLLATERAL, order.reserved - needed);
  order.reserved = needed;
}
