import { z } from 'zod';
import { ADDRESS_PATTERN, conditionIdSchema, TOKEN_ID_PATTERN } from '../common/identifiers';
import { queryInt } from '../common/query';
import { cursorOffset, MAX_MARKETS_PAGE } from './cursor';

/** CLOB market resources of SPEC.md (snake_case), served by market-data. */

export interface Rewards {
  rates: { asset_address: string; rewards_daily_rate: number }[];
  min_size: number;
  max_spread: number;
}

export interface ClobToken {
  token_id: string;
  mirror_token_id: string;
  outcome: string;
  price: number;
  winner: boolean;
}

export interface ClobMarket {
  enable_order_book: boolean;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  notifications_enabled: boolean;
  neg_risk: boolean;
  is_50_50_outcome: boolean;
  accepting_order_timestamp: string;
  condition_id: string;
  creator: string;
  mirror_condition_id: string;
  status: string;
  question_id: string;
  question: string;
  slug: string;
  description: string;
  market_slug: string;
  end_date_iso: string;
  game_start_time: string;
  fpmm: string;
  neg_risk_market_id: string;
  neg_risk_request_id: string;
  icon: string;
  image: string;
  minimum_order_size: number;
  minimum_tick_size: number;
  seconds_delay: number;
  maker_base_fee: number;
  taker_base_fee: number;
  market_id: number;
  rewards: Rewards;
  tokens: ClobToken[];
  tags: string[];
  assets_ids: string[];
  outcomes: string[];
  event: { id: string; slug: string; title: string; ticker: string; description: string };
  raw_metadata: Record<string, unknown>;
}

export const getClobMarketRequest = z.object({ condition_id: conditionIdSchema });

/** A token id as upstream sends it: the decimal form of a uint256. */
export const tokenIdSchema = z
  .string({ error: 'Invalid token id' })
  .regex(TOKEN_ID_PATTERN, 'Invalid token id');

/** A sampling market: the CLOB market without the fields upstream leaves out of that list (SPEC.md). */
export type SamplingMarket = Omit<ClobMarket, 'status' | 'slug' | 'market_id' | 'assets_ids' | 'outcomes' | 'event' | 'raw_metadata'>;

/**
 * A market of upstream's simplified lists (`/simplified-markets`, `/sampling-simplified-markets`): what a
 * client scanning for markets to trade reads of each, its tokens with prices and the reward terms.
 */
export type SimplifiedMarket = Pick<ClobMarket, 'condition_id' | 'rewards' | 'tokens' | 'active' | 'closed' | 'archived' | 'accepting_orders'>;

/** Fee details in the abbreviated form of `/clob-markets` and `/fee-rate`: rate, exponent, takerOnly. */
export interface FeeDetails {
  r: number;
  e: number;
  to: boolean;
}

/** GET /clob-markets/{condition_id}: the settings a client needs to build orders (docs/market-data.md). */
export interface ClobMarketInfo {
  c: string;
  creator: string;
  mirror_condition_id: string;
  t: { t: string; mirror_token_id: string; o: string }[];
  mts: number;
  mos: number;
  nr: boolean;
  fd: FeeDetails;
  mbf: number;
  tbf: number;
  r: Rewards;
  gst: string;
  ao: boolean;
  aot: string;
  sd: number;
  rfqe: boolean;
  itode: boolean;
  ibce: boolean;
  oas: number;
}

export interface MarketByToken {
  condition_id: string;
  primary_token_id: string;
  secondary_token_id: string;
}

export interface FeeRate {
  /** The taker rate in basis points (ARCHITECTURE.md). */
  base_fee: number;
  fd: FeeDetails;
  fee_schedule: {
    rate: number;
    exponent: number;
    takerOnly: boolean;
    rebateRate: number;
    category: string;
    version: number;
    source: 'local';
  };
}

export const listClobMarketsRequest = z.object({
  next_cursor: cursorOffset.default(0),
  /** Extension: a smaller page than the default 500 (upstream clients never send it). */
  limit: queryInt('limit', 1, MAX_MARKETS_PAGE).default(MAX_MARKETS_PAGE),
});
export type ListClobMarketsRequest = z.output<typeof listClobMarketsRequest>;

export const tokenRequest = z.object({ token_id: tokenIdSchema });

/** `/fee-rate` without a token answers the default schedule. */
export const feeRateRequest = z.object({ token_id: tokenIdSchema.optional() });
export type FeeRateRequest = z.output<typeof feeRateRequest>;

const rewardRate = z.object({
  asset_address: z.string().regex(ADDRESS_PATTERN, 'asset_address must be a 0x address'),
  rewards_daily_rate: z.number().min(0).max(1e12),
});

/** Operator: the liquidity rewards of a market; a market with rates and accepting orders is sampled. */
export const setRewardsRequest = z.object({
  condition_id: conditionIdSchema,
  body: z
    .object({
      // One rate per asset: two would pay its makers twice over (an input probe found them accepted).
      rates: z
        .array(rewardRate)
        .max(10)
        .default([])
        .refine((rates) => new Set(rates.map((r) => r.asset_address.toLowerCase())).size === rates.length, 'rates must name each asset_address once'),
      min_size: z.number().min(0).max(1e12).default(0),
      max_spread: z.number().min(0).max(100).default(0),
    })
    .strict(),
});
export type SetRewardsRequest = z.output<typeof setRewardsRequest>;
