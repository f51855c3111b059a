import { z } from 'zod';
import { queryInt } from '../common/query';
import { tokenIdSchema } from './markets';

/** Book and price resources of the CLOB surface, served by market-data from its in-memory books. */

export interface BookLevel {
  price: string;
  size: string;
}

/** GET /book: all strings but neg_risk; bids ascending and asks descending (best level last). */
export interface OrderBookSummary {
  market: string;
  asset_id: string;
  /** Milliseconds, of the last change of the book. */
  timestamp: string;
  /** SHA-1 hex of this JSON with `hash` set to "". */
  hash: string;
  bids: BookLevel[];
  asks: BookLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

/** A price entry of SPEC.md: BUY is the best bid, SELL the best ask (ARCHITECTURE.md). */
export interface PriceEntry {
  BUY: string;
  SELL: string;
}

export interface LastTradePrice {
  price: string;
  side: 'BUY' | 'SELL' | '';
}

export interface HistoryPoint {
  /** Unix seconds. */
  t: number;
  p: number;
}

/** Largest batch of the POST book and price routes (UPSTREAM.md §4). */
export const MAX_BATCH_TOKENS = 500;
/** Largest batch of POST /batch-prices-history. */
export const MAX_HISTORY_MARKETS = 20;

const side = z.preprocess(
  (v) => (typeof v === 'string' ? v.toUpperCase() : v),
  z.enum(['BUY', 'SELL'], { error: 'side must be BUY or SELL' }),
);

export const priceRequest = z.object({ token_id: tokenIdSchema, side });

/** The body of the POST batch routes: `[{token_id, side?}]`, 1 to 500 items. */
export const tokenBatchRequest = z
  .array(z.object({ token_id: tokenIdSchema, side: side.optional() }), { error: 'the body must be an array of {token_id, side?}' })
  .min(1, 'give at least one token')
  .max(MAX_BATCH_TOKENS, `at most ${MAX_BATCH_TOKENS} tokens per request`);
export type TokenBatchRequest = z.output<typeof tokenBatchRequest>;

export const HISTORY_INTERVALS = ['1h', '6h', '1d', '1w', '1m', 'max', 'all'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

/** Seconds, not milliseconds: a 13-digit value is refused as upstream does. */
const unixSeconds = (name: string) => queryInt(name, 0, 99_999_999_999);
const interval = z.enum(HISTORY_INTERVALS, { error: `interval must be one of ${HISTORY_INTERVALS.join(', ')}` });
/** Minutes per point; at most a month. */
const fidelity = queryInt('fidelity', 1, 43_200);

function checkRange(r: { interval?: HistoryInterval; start?: number; end?: number }, ctx: z.RefinementCtx): void {
  if (r.interval === undefined && r.start === undefined) {
    ctx.addIssue({ code: 'custom', message: 'give an interval or a start timestamp' });
  }
  if (r.start !== undefined && r.end !== undefined && r.end < r.start) {
    ctx.addIssue({ code: 'custom', message: 'the end timestamp must not be before the start timestamp' });
  }
}

export const pricesHistoryRequest = z
  .object({
    market: tokenIdSchema,
    interval: interval.optional(),
    startTs: unixSeconds('startTs').optional(),
    endTs: unixSeconds('endTs').optional(),
    fidelity: fidelity.default(1),
  })
  .superRefine((r, ctx) => checkRange({ interval: r.interval, start: r.startTs, end: r.endTs }, ctx));
export type PricesHistoryRequest = z.output<typeof pricesHistoryRequest>;

export const batchPricesHistoryRequest = z
  .object({
    markets: z
      .array(tokenIdSchema, { error: 'markets must be an array of token ids' })
      .min(1, 'give at least one market')
      .max(MAX_HISTORY_MARKETS, `at most ${MAX_HISTORY_MARKETS} markets per request`),
    interval: interval.optional(),
    start_ts: unixSeconds('start_ts').optional(),
    end_ts: unixSeconds('end_ts').optional(),
    fidelity: fidelity.default(1),
  })
  .superRefine((r, ctx) => checkRange({ interval: r.interval, start: r.start_ts, end: r.end_ts }, ctx));
export type BatchPricesHistoryRequest = z.output<typeof batchPricesHistoryRequest>;
