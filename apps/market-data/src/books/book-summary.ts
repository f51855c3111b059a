import { createHash } from 'node:crypto';
import type { BookLevel, OrderBookSummary } from '@exchange/contracts';

export interface BookSummaryInput {
  market: string;
  assetId: string;
  timestampMs: number;
  bids: BookLevel[];
  asks: BookLevel[];
  minOrderSize: string;
  tickSize: string;
  negRisk: boolean;
  lastTradePrice: string;
}

/**
 * The `/book` answer with its hash: SHA-1 (hex) of the answer's JSON with `hash` set to "", keys in
 * the order shown, which is what the upstream clients compute (`generateOrderBookSummaryHash`).
 */
export function bookSummary(input: BookSummaryInput): OrderBookSummary {
  const summary: OrderBookSummary = {
    market: input.market,
    asset_id: input.assetId,
    timestamp: String(input.timestampMs),
    hash: '',
    bids: input.bids,
    asks: input.asks,
    min_order_size: input.minOrderSize,
    tick_size: input.tickSize,
    neg_risk: input.negRisk,
    last_trade_price: input.lastTradePrice,
  };
  summary.hash = bookHash(summary);
  return summary;
}

export function bookHash(summary: OrderBookSummary): string {
  return createHash('sha1')
    .update(JSON.stringify({ ...summary, hash: '' }))
    .digest('hex');
}
