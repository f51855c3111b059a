import { UNIT, type Rewards } from '@exchange/contracts';

/** Base units of price in a cent: `max_spread` is in cents, as upstream's `rewards_max_spread`. */
const CENT = UNIT / 100;

/**
 * Whether a resting order of a rewarded market earns liquidity rewards now: at least `min_size` shares
 * still open, and its price at most `max_spread` cents from the token's midpoint (the `/midpoint`
 * answer, so that a client can check it from public data). Integers in base units; the operator's
 * numbers are rounded to base units once.
 */
export function isScoring(order: { price: number; remaining: number }, midpoint: number, rewards: Rewards): boolean {
  const band = Math.round(rewards.max_spread * CENT);
  const minShares = Math.round(rewards.min_size * UNIT);
  return order.remaining >= minShares && Math.abs(order.price - midpoint) <= band;
}
