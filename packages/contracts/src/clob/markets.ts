import { z } from 'zod';
import { conditionIdSchema } from '../common/identifiers';

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
export type GetClobMarketRequest = z.output<typeof getClobMarketRequest>;
