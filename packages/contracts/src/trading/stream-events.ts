/**
 * What order-matching publishes on JetStream after each committed batch (stream MATCHING, subjects
 * `matching.evt.>`). Amounts are base units (6 decimals) as decimal strings; prices are base units of
 * the token named in the message.
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

export interface TradeEvent {
  id: string;
  batchId: string;
  conditionId: string;
  takerOrderId: string;
  taker: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  size: string;
  price: string;
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

export interface MarketStateEvent {
  conditionId: string;
  winningOutcome: number;
  resolvedAt: number;
}

export const MATCHING_STREAM = { name: 'MATCHING', subjects: 'matching.evt.>' } as const;
export const MATCHING_SUBJECTS = {
  order: 'matching.evt.order.v1',
  trade: 'matching.evt.trade.v1',
  book: 'matching.evt.book.v1',
  resolved: 'matching.evt.market-resolved.v1',
} as const;
