import { feeFor, rebateFor } from './fees';
import { costAtCap, flipFor, valueOf } from './book-terms';
import type { EngineState } from './engine-state';
import { COLLATERAL } from './ledger';
import type { MarketState, OrderState } from './model';

/**
 * Moves collateral and shares for one fill between a taker and a maker order, which may trade the same
 * token (a normal trade), or the two tokens of the market: two BUYs mint a pair from their collateral,
 * two SELLs merge a pair into collateral. The maker's price is the trade price. Returns the fees charged.
 */
export function settleFill(
  state: EngineState,
  market: MarketState,
  taker: OrderState,
  maker: OrderState,
  shares: number,
  bookPrice: number,
): { takerValue: number; takerFee: number; makerFee: number; rebate: number } {
  const takerPrice = flipFor(taker.outcome, bookPrice);
  const makerPrice = flipFor(maker.outcome, bookPrice);
  // Same token: both prices are equal. Two tokens: the prices add up to 1, so the values add up to `shares`.
  const takerValue = valueOf(shares, takerPrice);
  const makerValue = valueOf(shares, makerPrice);
  const takerFee = applyToOrder(state, taker, shares, takerValue, feeFor(market.fee, shares, takerPrice));
  const makerFee = applyToOrder(state, maker, shares, makerValue, market.fee.takerOnly ? 0 : feeFor(market.fee, shares, makerPrice));
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
