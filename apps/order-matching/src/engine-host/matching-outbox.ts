import type { Pool, PoolClient } from 'pg';
import { TableVacuum, type OutboxRecord, type OutboxStore } from '@exchange/service-kit';
import { OneAtATime } from '../journal/one-at-a-time';

/**
 * Deleted rows after which a checkpoint vacuums the outbox: about every second under load. Every 1,000
 * rows, each VACUUM wrote enough WAL (pages of TOAST chunks) that the next batch's commit waited
 * 100-150 ms for its flush; small and often, no VACUUM was seen to last 30 ms.
 */
export const OUTBOX_VACUUM_AFTER_ROWS = 100;

/**
 * The outbox of order-matching: rows written by the journal, the relay's progress kept in one cursor
 * row. The progress is known in memory at once and written (`checkpoint`) about once a second, not
 * after every publish: a write per batch was a second commit, and a second WAL flush, per batch. After a
 * crash the rows of that last second are published again with their message ids, which JetStream's
 * two-minute duplicate window drops. A checkpoint also deletes the published rows: JetStream holds the
 * events from then on, and the journal's own tables hold the orders, trades and balances. Every
 * OUTBOX_VACUUM_AFTER_ROWS deleted rows it vacuums the table itself rather than count on autovacuum,
 * which may be off (it is on these machines): unvacuumed, the table and its TOAST grew by every
 * payload ever written (2.2 GB after a day of benchmarks) and each insert extended the files.
 */
export class MatchingOutboxStore implements OutboxStore {
  private published = 0n;
  private persisted = 0n;
  private readonly checkpoints = new OneAtATime();
  private readonly vacuum: TableVacuum;
  /** Whether the saved progress was read (once, at the first poll). */
  private loaded = false;

  /** `write` runs the checkpoint's write (the engine fences it by the journal's epoch). */
  constructor(
    private readonly pool: Pool,
    private readonly write: <T>(work: (client: PoolClient) => Promise<T>) => Promise<T>,
  ) {
    this.vacuum = new TableVacuum(pool, 'outbox', OUTBOX_VACUUM_AFTER_ROWS);
  }

  /**
   * Rows after the progress, by the primary key. The bound is a plain parameter: when it came from a
   * subquery, the planner could not see it and planned for a third of the table (a parallel bitmap
   * scan and a sort, tens of milliseconds every second).
   */
  async pending(limit: number): Promise<OutboxRecord[]> {
    if (!this.loaded) {
      const saved = await this.pool.query<{ last_id: string }>('SELECT last_id::text FROM outbox_cursor WHERE id = 1');
      const last = BigInt(saved.rows[0]?.last_id ?? 0);
      if (last > this.published) this.published = last;
      this.persisted = last;
      this.loaded = true;
    }
    const rows = await this.pool.query<{ id: string; subject: string; payload: string }>(
      // By outbox.id: a bare `id` is the text output column, and ids 9, 10, 100 came out as 10, 100, 9.
      'SELECT id::text, subject, payload FROM outbox WHERE id > $2::bigint ORDER BY outbox.id LIMIT $1',
      [limit, String(this.published)],
    );
    return rows.rows.map((r) => ({ id: BigInt(r.id), subject: r.subject, json: r.payload }));
  }

  markPublished(ids: bigint[]): Promise<void> {
    for (const id of ids) if (id > this.published) this.published = id;
    return Promise.resolve();
  }

  /**
   * Writes the progress and deletes the rows up to it. One checkpoint runs at a time (a VACUUM may
   * outlast a tick); a call during one runs after it, so that it saves the progress of its own moment
   * (the one at shutdown, say).
   */
  checkpoint(): Promise<void> {
    return this.checkpoints.run(() => this.writeCheckpoint());
  }

  private async writeCheckpoint(): Promise<void> {
    const last = this.published;
    if (last === this.persisted) return;
    const deleted = await this.write((client) =>
      client.query(
        `WITH c AS (
           INSERT INTO outbox_cursor (id, last_id) VALUES (1, $1) ON CONFLICT (id)
           DO UPDATE SET last_id = GREATEST(outbox_cursor.last_id, EXCLUDED.last_id))
         DELETE FROM outbox WHERE id <= $1::bigint`,
        [String(last)],
      ),
    );
    this.persisted = last;
    // The space of deleted rows and their TOAST chunks is reused; inserts go on meanwhile.
    await this.vacuum.note(deleted.rowCount ?? 0);
  }
}
