import { Logger } from '@nestjs/common';
import { Pool, type PoolClient, type PoolConfig } from 'pg';

/**
 * A pg pool that outlives the loss of an idle connection (PostgreSQL restarted, an operator's
 * `pg_terminate_backend`, a network cut). pg reports that loss as an 'error' event on the pool, and an
 * 'error' event nobody listens to ends the process; with this listener the pool drops that connection
 * and opens another for the next query. A query that was running when its connection died still fails
 * to its caller. Its sessions run without JIT compilation: the services' queries are short, and a plan
 * whose estimate passed `jit_above_cost` spent 340 ms compiling a query that ran in 30 (a trades read).
 */
export function pgPool(name: string, config: PoolConfig): Pool {
  const pool = new Pool({ ...config, options: [config.options, '-c jit=off'].filter(Boolean).join(' ') });
  const logger = new Logger(name);
  pool.on('error', (error) => logger.warn(`lost an idle PostgreSQL connection: ${error.message}`));
  return pool;
}

/**
 * Runs `work` in one transaction on a connection of the pool (`begin` says which kind), committed when
 * it resolves and rolled back when it throws; the connection goes back to the pool either way, or is
 * closed when it was lost meanwhile. The pool does not listen to a connection it has handed out: until
 * the thirty-fourth session a connection lost during a transaction emitted an 'error' nobody heard, and
 * the process ended (order-matching at nearly every PostgreSQL restart under load: its fenced writes
 * run every second; found by a probe).
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onLost = (error: Error) => (lost = error);
  client.on('error', onLost);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!lost) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onLost);
    client.release(lost);
  }
}
