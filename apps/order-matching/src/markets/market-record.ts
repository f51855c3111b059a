import type { MarketSnapshot } from '@exchange/contracts';
import { OrderBook } from '../core';
import type { MarketState } from '../engine/model';

/** A market row of this service's database (the read model of the catalog's markets). */
export interface MarketRow {
  condition_id: string;
  token_ids: string[];
  outcomes: string[];
  tick_size: number;
  min_order_size: string;
  neg_risk: boolean;
  neg_risk_market_id: string;
  fee_rate_ppm: number;
  fee_exponent: number;
  fee_taker_only: boolean;
  rebate_rate_ppm: number;
  accepting_orders: boolean;
  winning_outcome: number;
  book_seq: string;
}

export function rowFromSnapshot(snapshot: MarketSnapshot): Omit<MarketRow, 'winning_outcome' | 'book_seq'> {
  return {
    condition_id: snapshot.conditionId.toLowerCase(),
    token_ids: snapshot.tokenIds,
    outcomes: snapshot.outcomes,
    tick_size: snapshot.tickSizeUnits,
    min_order_size: String(snapshot.minOrderSizeUnits),
    neg_risk: snapshot.negRisk,
    neg_risk_market_id: snapshot.negRisk ? snapshot.negRiskMarketId : '',
    fee_rate_ppm: snapshot.feeSchedule.ratePpm,
    fee_exponent: snapshot.feeSchedule.exponent,
    fee_taker_only: snapshot.feeSchedule.takerOnly,
    rebate_rate_ppm: snapshot.feeSchedule.rebateRatePpm,
    accepting_orders: snapshot.acceptingOrders,
  };
}

export function marketFromRow(row: MarketRow): MarketState {
  return {
    conditionId: row.condition_id,
    tokenIds: [row.token_ids[0]!, row.token_ids[1]!],
    outcomes: [row.outcomes[0]!, row.outcomes[1]!],
    tickSize: row.tick_size,
    minOrderSize: Number(row.min_order_size),
    negRisk: row.neg_risk,
    negRiskMarketId: row.neg_risk_market_id,
    fee: {
      ratePpm: row.fee_rate_ppm,
      exponent: row.fee_exponent,
      takerOnly: row.fee_taker_only,
      rebateRatePpm: row.rebate_rate_ppm,
    },
    acceptingOrders: row.accepting_orders,
    winningOutcome: row.winning_outcome as -1 | 0 | 1,
    book: new OrderBook(),
  };
}

/** Settings of a known market change in place; its book and resolution stay. */
export function applySnapshot(market: MarketState, snapshot: MarketSnapshot): void {
  const row = rowFromSnapshot(snapshot);
  market.tickSize = row.tick_size;
  market.minOrderSize = Number(row.min_order_size);
  market.negRisk = row.neg_risk;
  market.negRiskMarketId = row.neg_risk_market_id;
  market.fee = { ratePpm: row.fee_rate_ppm, exponent: row.fee_exponent, takerOnly: row.fee_taker_only, rebateRatePpm: row.rebate_rate_ppm };
  market.acceptingOrders = market.winningOutcome === -1 && row.accepting_orders;
}
