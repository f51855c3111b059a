import type { Pool } from 'pg';
import type { OutboxRecord, OutboxStore } from '@exchange/service-kit';

/** The outbox table of order-matching, read by the relay; rows are written by the journal. */
export class MatchingOutboxStore implements OutboxStore {
  constructor(private readonly pool: Pool) {}

  async pending(limit: number): Promise<OutboxRecord[]> {
    const rows = await this.pool.query<{ id: string; subject: string; payload: unknown }>(
      'SELECT id::text, subject, payload FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT $1',
      [limit],
    );
    return rows.rows.map((r) => ({ id: BigInt(r.id), subject: r.subject, payload: r.payload }));
  }

  async markPublished(ids: bigint[]): Promise<void> {
    await this.pool.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [ids.map(String)]);
  }
}
