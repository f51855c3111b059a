import { inTransaction } from '@exchange/service-kit';
import { MatchingOutboxStore } from '../../src/engine-host/matching-outbox';
import { freshDatabase } from '../support/fresh-database';

/** The relay reads the outbox in id order, whatever the ids' digits (on a fresh, migrated database). */
describe('MatchingOutboxStore pending rows', () => {
  const db = freshDatabase('outbox_order', 2);

  it('come in numeric id order across a power of ten, so a full read never skips lower ids', async () => {
    // Ids 95 to 105: sorted as text they were 100-105 first, and publishing those moved the progress
    // past 95-99, which were never published.
    await db.pool.query(`INSERT INTO outbox (id, subject, payload) SELECT n, 'matching.evt.batch.v1', '{}' FROM generate_series(95, 105) AS n`);
    const store = new MatchingOutboxStore(db.pool, (work) => inTransaction(db.pool, work));
    const first = await store.pending(5);
    expect(first.map((r) => r.id)).toEqual([95n, 96n, 97n, 98n, 99n]);
    await store.markPublished(first.map((r) => r.id));
    expect((await store.pending(10)).map((r) => r.id)).toEqual([100n, 101n, 102n, 103n, 104n, 105n]);
  });
});
