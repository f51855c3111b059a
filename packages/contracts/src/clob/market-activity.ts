import { z } from 'zod';

/** Markets per page of `marketdata.activity.v1`. */
export const MARKET_ACTIVITY_PAGE = 500;

/** The catalog's market ids after `after` (exclusive), in id order, a page at a time. */
export const marketActivityRequest = z.object({ after: z.number().int().nonnegative().optional() });

/**
 * What trading has done to one market, as market-data measures it (docs/market-data.md, "Activity"):
 * base units of collateral (6 decimals) as decimal strings.
 */
export interface MarketActivity {
  /** The catalog's market id. */
  id: number;
  conditionId: string;
  /** Collateral value of every trade: the taker's size times the taker's price, summed. */
  volume: string;
  /** Collateral value of the resting book now: each level's size times its price, both sides. */
  liquidity: string;
}

export interface MarketActivityPage {
  markets: MarketActivity[];
  /** The `after` of the next page; null on the last page. */
  next: number | null;
}
