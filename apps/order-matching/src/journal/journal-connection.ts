import type { Pool } from 'pg';
import { pgPool } from '@exchange/service-kit';

/**
 * The journal's own connection. Group commit writes one batch at a time, so one connection is enough,
 * and the write never waits for a pooled connection held by a query or a checkpoint.
 * Its statements run on a generic plan: PostgreSQL's default planned the batch statement again at every
 * execution (a custom plan sees each array's length and so always looked cheaper than the generic one),
 * which was a fifth of its CPU for the journal (docs/performance.md, seventh session).
 */
export function journalConnection(databaseUrl: string): Pool {
  return pgPool('journal', { connectionString: databaseUrl, max: 1, options: '-c plan_cache_mode=force_generic_plan' });
}
