import type { Pool } from 'pg';
import type { OutboxRecord, OutboxStore } from '@exchange/service-kit';

/**
 * The outbox of order-matching: rows written by the journal, progress kept in one cursor row. Published
 * rows are deleted (`prune`): JetStream holds the events from then on, and the journal's own tables
 * hold the orders, trades and balances.
 */
export class MatchingOutboxStore implements OutboxStore {
  constructor(private readonly pool: Pool) {}

  async pending(limit: number): Promise<OutboxRecord[]> {
    const rows = await this.pool.query<{ id: string; subject: string; payload: unknown }>(
      `SELECT id::text, subject, payload FROM outbox
       WHERE id > COALESCE((SELECT last_id FROM outbox_cursor WHERE id = 1), 0) ORDER BY id LIMIT $1`,
      [limit],
    );
    return rows.rows.map((r) => ({ id: BigInt(r.id), subject: r.subject, payload: r.payload }));
  }

  async markPublished(ids: bigint[]): Promise<void> {
    const last = ids.reduce((a, b) => (a > b ? a : b));
    await this.pool.query(
      `INSERT INTO outbox_cursor (id, last_id) VALUES (1, $1)
       ON CONFLICT (id) DO UPDATE SET last_id = GREATEST(outbox_cursor.last_id, EXCLUDED.last_id)`,
      [String(last)],
    );
  }

  /** Deletes the rows the relay has published; answers how many. */
  async prune(): Promise<number> {
    const result = await this.pool.query(`DELETE FROM outbox WHERE id <= (SELECT last_id FROM outbox_cursor WHERE id = 1)`);
    return result.rowCount ?? 0;
  }
}
