import { z } from 'zod';
import { baseEnvSchema, parseEnv } from '@exchange/service-kit';

export const marketDataEnvSchema = baseEnvSchema.extend({
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/exchange_marketdata'),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9102),
  /** Hot market metadata for the gateway (docs/market-data.md). */
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1-64 letters, digits, _ : or -').default('exch'),
  /**
   * Name of this process's durable JetStream consumers. Every replica keeps its own read model, so
   * replicas need distinct names (the pod name); consumers of replicas gone for an hour are removed.
   */
  CONSUMER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'CONSUMER_NAME must be 1-64 letters, digits, _ or -')
    .default('market-data'),
  /** How often the in-memory books are saved (when they changed), so that a restart replays less. */
  SNAPSHOT_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  /**
   * While the MATCHING stream is busy, flushes (price history, quotes, the ack) start at most this
   * often; quotes then trail the books by up to this much (docs/market-data.md, "Hot data in Redis").
   */
  FLUSH_INTERVAL_MS: z.coerce.number().int().min(1).max(1_000).default(50),
  /**
   * How long a gap in a market's bookSeqs may stay open (its events late) before the books are loaded
   * from order-matching (docs/market-data.md, "Recovery").
   */
  BOOK_GAP_GRACE_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** A market of 0.01 ticks trading above 0.96 or below 0.04 gets 0.001 ticks, as upstream (docs/market-data.md). */
  FINER_TICK_AT_EXTREMES: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
});
export type MarketDataEnv = z.output<typeof marketDataEnvSchema>;

export const MARKET_DATA_ENV = Symbol('MARKET_DATA_ENV');

export function loadMarketDataEnv(env: NodeJS.ProcessEnv = process.env): MarketDataEnv {
  return parseEnv(marketDataEnvSchema, env);
}
