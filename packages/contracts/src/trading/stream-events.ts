import { z } from 'zod';
import { conditionIdSchema } from '../common/identifiers';

/**
 * What order-matching publishes on JetStream after each committed batch (stream MATCHING): one message
 * per batch on MATCHING_BATCH_SUBJECT holding the batch's events in the order the engine made them, and
 * each resolution once more on its own on MATCHING_MARKET_RESOLVED_SUBJECT (docs/trading.md, "Events").
 * Amounts are base units (6 decimals) as decimal strings; prices are base units of the token named in
 * the event.
 */
export interface OrderEvent {
  type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION';
  id: string;
  owner: string;
  maker: string;
  conditionId: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  price: string;
  originalSize: string;
  sizeMatched: string;
  status: string;
  orderType: string;
  expiration: number;
  createdAt: number;
  timestamp: number;
}

/**
 * A trade: the taker's side and the trade's totals, with its makers' fills. A trade with more than
 * MAX_MAKERS_PER_TRADE_EVENT makers is sent as several events with the same id and the same totals,
 * each with the next slice of the makers, so that no message outgrows NATS's maximum payload.
 */
export interface TradeEvent {
  id: string;
  batchId: string;
  conditionId: string;
  takerOrderId: string;
  taker: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  size: string;
  /** The taker's average price, rounded to a base unit. */
  price: string;
  /**
   * The fills' value at their prices, before the fee: a BUY taker paid it plus `fee`, a SELL taker
   * received it less `fee`. Absent in events of versions before 2026-11-26.
   */
  collateral?: string;
  fee: string;
  feeRateBps: number;
  matchTime: number;
  makers: { orderId: string; maker: string; tokenId: string; side: 'BUY' | 'SELL'; size: string; price: string; fee: string; rebate: string }[];
}

/** Aggregate sizes of the price levels one batch changed, in the YES token's terms; size "0" = level gone. */
export interface BookEvent {
  conditionId: string;
  /** Per market, increases by one per event: a consumer that sees a gap resynchronises. */
  bookSeq: number;
  changes: { side: 'BID' | 'ASK'; price: string; size: string }[];
  timestamp: number;
}

/**
 * Money in or out of an account, or between its collateral and its shares, outside trading: what a
 * consumer keeping balances or positions needs besides trades. Amounts are base units of collateral or
 * of shares (one share of each outcome per unit for split and merge).
 */
export interface MoneyMoveEvent {
  kind: 'deposit' | 'withdrawal' | 'split' | 'merge' | 'redeem';
  /** The account, in lower case. */
  address: string;
  /** The market of a split, merge or redemption; '' for deposits and withdrawals. */
  conditionId: string;
  /**
   * deposit / withdrawal: collateral in / out. split: collateral out, that many shares of each outcome
   * in. merge: that many shares of each outcome out, collateral in. redeem: every share of the market
   * held, both outcomes together (`shares` has each).
   */
  amount: string;
  /** redeem: the collateral paid out (one unit per winning share); "0" for the other kinds. */
  payout: string;
  /** redeem: the shares burned, [first outcome's token, second's]; [] for the other kinds. */
  shares: { tokenId: string; size: string }[];
  /** The operator's or trader's reference of the move, when it gave one. */
  reference?: string;
  timestamp: number;
}

export interface MarketStateEvent {
  conditionId: string;
  winningOutcome: number;
  resolvedAt: number;
}

export type MatchingEvent =
  | { type: 'order'; data: OrderEvent }
  | { type: 'trade'; data: TradeEvent }
  | { type: 'book'; data: BookEvent }
  | { type: 'market-resolved'; data: MarketStateEvent }
  | { type: 'money-move'; data: MoneyMoveEvent };

/**
 * A committed batch's events, in order. A batch whose events exceed MAX_EVENTS_PER_MESSAGE or
 * MAX_MESSAGE_BYTES goes out as several messages with the same batchId, in order.
 */
export interface MatchingEventBatch {
  batchId: string;
  events: MatchingEvent[];
}

export const MAX_EVENTS_PER_MESSAGE = 1_000;
/** About 250 bytes per maker fill: a trade event stays near 125 KB. */
export const MAX_MAKERS_PER_TRADE_EVENT = 500;
/** Well under NATS's default max_payload of 1 MiB. */
export const MAX_MESSAGE_BYTES = 512 * 1024;

/**
 * A total order of the events of the stream: stream sequence, then position in the message (what a
 * consumer keeps to skip an event it already applied).
 */
export function eventPosition(streamSeq: number, index: number): number {
  return streamSeq * MAX_EVENTS_PER_MESSAGE + index;
}

export const MATCHING_STREAM = { name: 'MATCHING', subjects: 'matching.evt.>' } as const;
export const MATCHING_BATCH_SUBJECT = 'matching.evt.batch.v1';

/**
 * A resolution on its own subject, besides its `market-resolved` event in the batch message: a service
 * that needs resolutions only (the catalog) filters them on the server instead of reading every batch.
 * Written in the same journal statement as the batch, so it is durable exactly when the resolution is.
 */
export const MATCHING_MARKET_RESOLVED_SUBJECT = 'matching.evt.market-resolved.v1';

/** The payload of MATCHING_MARKET_RESOLVED_SUBJECT: the batch's MarketStateEvent and the batch's id. */
export const marketResolvedMessage = z.object({
  conditionId: conditionIdSchema,
  winningOutcome: z.number().int().min(0).max(1),
  resolvedAt: z.number().int(),
  batchId: z.string(),
});
export type MarketResolvedMessage = z.output<typeof marketResolvedMessage>;
