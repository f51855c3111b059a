import { z } from 'zod';
import { baseEnvSchema, parseEnv } from '@exchange/service-kit';
import { DEFAULT_MAX_FEE_RATE_BPS, DEFAULT_MAX_MAKERS_PER_ORDER, DEFAULT_MAX_OPEN_ORDERS_PER_ACCOUNT } from './engine/engine-state';

export const matchingEnvSchema = baseEnvSchema.extend({
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/exchange_matching'),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9103),
  /** Taker fees less maker rebates are credited here. */
  FEE_ACCOUNT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .default('0x00000000000000000000000000000000000fee00')
    .transform((v) => v.toLowerCase()),
  /** After a restart only post-only orders (and cancels) are accepted for this long. */
  POST_ONLY_AFTER_RESTART_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  /** Cancel-on-disconnect: orders of a key are cancelled when its heartbeats stop for this long. */
  HEARTBEAT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  /**
   * How long the MATCHING stream keeps its events (7 days by default). A market-data replica that was
   * away longer rebuilds its books from the engine instead (docs/trading.md, "Events").
   */
  MATCHING_STREAM_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(87_600).default(168),
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  /** The most orders one engine command of a trader's cancel or a resolution ends; more are cut into steps (engine-host/stepped-cancels.ts). */
  CANCEL_STEP_ORDERS: z.coerce.number().int().min(1).max(100_000).default(500),
  /** The most resting orders one order may trade with; one that would take more is refused whole (docs/trading.md, "Matching"). */
  MAX_MAKERS_PER_ORDER: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_MAX_MAKERS_PER_ORDER),
  /** The most orders one account may have resting; past it only FOK/FAK orders and cancels (docs/trading.md, "Matching"). */
  MAX_OPEN_ORDERS_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000_000).default(DEFAULT_MAX_OPEN_ORDERS_PER_ACCOUNT),
  /** The most a fill's fee may be, in basis points of the fill's value, as upstream's `maxFeeRateBps` (docs/trading.md, "Fees"). */
  MAX_FEE_RATE_BPS: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_MAX_FEE_RATE_BPS),
});
export type MatchingEnv = z.output<typeof matchingEnvSchema>;

export const MATCHING_ENV = Symbol('MATCHING_ENV');

export function loadMatchingEnv(env: NodeJS.ProcessEnv = process.env): MatchingEnv {
  return parseEnv(matchingEnvSchema, env);
}
