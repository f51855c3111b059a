import { z } from 'zod';
import { UNIT } from '../common/decimal';
import { tokenIdSchema } from '../clob/markets';
import { caller, orderIdSchema } from './requests';

/** The most order ids one scoring request may name (upstream's `/orders-scoring` gives none; cancels allow as many). */
export const MAX_SCORING_ORDER_IDS = 1_000;

/** order-matching: which of these orders are the caller's and rest in a book now. */
export const liveOrdersRequest = z.object({ caller, orderIds: z.array(orderIdSchema).min(1).max(MAX_SCORING_ORDER_IDS) });

/** A resting order as scoring reads it: its token, own-token price and shares still open, in base units. */
export const liveOrderTerms = z.object({
  id: orderIdSchema,
  token_id: tokenIdSchema,
  price: z.number().int().min(1).max(UNIT - 1),
  remaining: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});
export type LiveOrderTerms = z.output<typeof liveOrderTerms>;

/** market-data: whether each resting order earns liquidity rewards now, by order id. */
export const ordersScoringRequest = z.object({ orders: z.array(liveOrderTerms).max(MAX_SCORING_ORDER_IDS) });
