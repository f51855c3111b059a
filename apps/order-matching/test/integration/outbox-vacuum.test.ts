import { inTransaction } from '@exchange/service-kit';
import { eventually } from '@exchange/testing';
import { MatchingOutboxStore, OUTBOX_VACUUM_AFTER_ROWS } from '../../src/engine-host/matching-outbox';
import { freshDatabase } from '../support/fresh-database';

/** The outbox's checkpoints on a fresh, migrated database (no engine running). */
describe('MatchingOutboxStore checkpoints', () => {
  const db = freshDatabase('outbox', 3);

  /** Writes `count` rows of a payload large enough to go to TOAST, as the journal's batches do; answers the last id. */
  const write = async (count: number): Promise<bigint> => {
    const payload = JSON.stringify({ events: 'x'.repeat(4_000) });
    const rows = await db.pool.query<{ id: string }>(
      `INSERT INTO outbox (subject, payload) SELECT 'matching.evt.batch.v1', $1 FROM generate_series(1, $2) RETURNING id::text`,
      [payload, count],
    );
    return BigInt(rows.rows.at(-1)!.id);
  };
  const vacuums = async () =>
    Number((await db.pool.query<{ n: string }>(`SELECT vacuum_count::text AS n FROM pg_stat_user_tables WHERE relname = 'outbox'`)).rows[0]!.n);
  const rows = async () => Number((await db.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM outbox')).rows[0]!.n);

  it('deletes published rows, keeps the rest, and vacuums the table after enough deletions', async () => {
    const store = new MatchingOutboxStore(db.pool, (work) => inTransaction(db.pool, work));
    expect(await store.pending(10)).toEqual([]);

    const first = await write(OUTBOX_VACUUM_AFTER_ROWS - 1);
    const unpublished = await write(5);
    await store.markPublished([first]);
    await store.checkpoint();
    expect(await rows()).toBe(5);
    expect(await vacuums()).toBe(0);

    const second = await write(10);
    await store.markPublished([unpublished, second]);
    // Two ticks at once: one checkpoint runs, the other waits for it.
    await Promise.all([store.checkpoint(), store.checkpoint()]);
    expect(await rows()).toBe(0);
    await eventually(async () => (await vacuums()) > 0, 'a VACUUM of the outbox');
    expect(await vacuums()).toBe(1);

    // The progress survives: a new store (a restart) reads nothing before it.
    const third = await write(3);
    const restarted = new MatchingOutboxStore(db.pool, (work) => inTransaction(db.pool, work));
    expect((await restarted.pending(10)).map((r) => r.id)).toEqual([third - 2n, third - 1n, third]);
  });

  it('saves, in a checkpoint asked for while another runs, the progress of its own moment', async () => {
    const store = new MatchingOutboxStore(db.pool, (work) => inTransaction(db.pool, work));
    await store.pending(1);
    const first = await write(2);
    await store.markPublished([first]);
    const running = store.checkpoint();
    const second = await write(2);
    await store.markPublished([second]);
    await Promise.all([running, store.checkpoint()]);
    expect(await rows()).toBe(0);
    const saved = await db.pool.query<{ last_id: string }>('SELECT last_id::text FROM outbox_cursor WHERE id = 1');
    expect(BigInt(saved.rows[0]!.last_id)).toBe(second);
  });
});
