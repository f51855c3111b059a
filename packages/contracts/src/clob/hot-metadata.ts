/**
 * The hot market metadata market-data keeps in Redis, read by the gateway (order pre-checks,
 * `/tick-size`, `/neg-risk`, `/fee-rate`). One hash per token and one per condition id, with the same
 * fields; all values are strings. The prefix is the deployment's REDIS_KEY_PREFIX. Every key under
 * `{prefix}:md:` is a hash: the gateway keeps a local copy of them, invalidated by Redis.
 */
export interface HotMarketFields {
  condition_id: string;
  token_ids: string;
  /** 0 (primary, YES) or 1 for a token hash; "" for the condition hash. */
  outcome_index: string;
  tick_size: string;
  min_order_size: string;
  neg_risk: 'true' | 'false';
  accepting_orders: 'true' | 'false';
  /** The `/fee-rate` answer of the market, as JSON: served as it is. */
  fee_rate: string;
}

export const hotMetadataKeys = {
  token: (prefix: string, tokenId: string) => `${prefix}:md:token:${tokenId}`,
  market: (prefix: string, conditionId: string) => `${prefix}:md:market:${conditionId.toLowerCase()}`,
  /**
   * Pre-rendered answers of the hottest reads of a token (a hash of `HotQuoteFields`), rewritten by
   * market-data after every batch of book events: the gateway serves them as they are.
   */
  quote: (prefix: string, tokenId: string) => `${prefix}:md:quote:${tokenId}`,
  /** What holds for every market: `fee_rate` is the `/fee-rate` answer without a token (JSON). */
  defaults: (prefix: string) => `${prefix}:md:defaults`,
  /** The prefix of every key above: the gateway's local copy tracks writes under it. */
  all: (prefix: string) => `${prefix}:md:`,
};

/** Fields of a token's quote hash: the JSON bodies of `/book`, `/price` (per side) and `/midpoint`. */
export interface HotQuoteFields {
  book: string;
  BUY: string;
  SELL: string;
  mid: string;
}
