import { UNIT } from '@exchange/contracts';
import { Side } from '../core';

export const SHARE_STEP = 10_000; // trades happen in 0.01 shares

/**
 * One book per binary market, in YES terms: a BUY of NO at p is a SELL of YES at 1 − p, and a SELL of
 * NO at p a BUY of YES at 1 − p (docs/trading.md, "Matching").
 */
export function bookSide(side: 'BUY' | 'SELL', outcome: 0 | 1): Side {
  return (side === 'BUY') === (outcome === 0) ? Side.BID : Side.ASK;
}

/** Converts a price between a token's own terms and the YES book's terms (the same map both ways). */
export function flipFor(outcome: 0 | 1, price: number): number {
  return outcome === 0 ? price : UNIT - price;
}

/**
 * Collateral value of shares at a price. Shares are multiples of 0.01 and prices of 0.0001, so the
 * value is an exact integer: (shares / 10^4) × (price / 10^2).
 */
export function valueOf(shares: number, price: number): number {
  return (shares / SHARE_STEP) * (price / 100);
}

/** Collateral that shares cost at a cap price that may be off the grid, rounded up. */
export function costAtCap(shares: number, price: number): number {
  return Number((BigInt(shares) * BigInt(price) + BigInt(UNIT - 1)) / BigInt(UNIT));
}

/** The average price of shares bought or sold for a collateral amount, rounded to the nearest unit. */
export function averagePrice(collateral: number, shares: number): number {
  if (shares === 0) return 0;
  return Number((BigInt(collateral) * BigInt(UNIT) * 2n + BigInt(shares)) / (2n * BigInt(shares)));
}
