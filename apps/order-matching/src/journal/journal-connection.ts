import type { Pool } from 'pg';
import { pgPool } from '@exchange/service-kit';

/**
 * The journal's own connection. Group commit writes one batch at a time, so one connection is enough,
 * and the write never waits for a pooled connection held by a query or a checkpoint.
 * Its statements run on a generic plan: PostgreSQL's default planned the batch statement again at every
 * execution (a custom plan sees each array's length and so always looked cheaper than the generic one),
 * which was a fifth of its CPU for the journal (docs/performance.md, seventh session).
 * It stays open when idle: node-pg's default closed it after 10 s, and the next batch had to connect
 * again, which fails while the server is out of connections (found by a resource probe).
 */
export function journalConnection(databaseUrl: string): Pool {
  return pgPool('journal', { connectionString: databaseUrl, max: 1, idleTimeoutMillis: 0, options: '-c plan_cache_mode=force_generic_plan' });
}
