import path from 'node:path';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import type { MarketDataEnv } from '../../src/config';
import { PrismaService } from '../../src/prisma/prisma.service';
import { SNAPSHOTS_VACUUM_AFTER_SAVES, SnapshotRepository } from '../../src/streams/snapshot.repository';

/** The snapshots' table on a real PostgreSQL whose autovacuum is off: the repository vacuums it itself. */
describe('SnapshotRepository', () => {
  let url: string;
  let prisma: PrismaService;
  beforeAll(async () => {
    url = await createTestDatabase(path.join(__dirname, '../..'), 'snapvac');
    prisma = new PrismaService({ DATABASE_URL: url } as MarketDataEnv);
  });
  afterAll(async () => {
    await prisma.onApplicationShutdown();
    await dropDatabase(url);
  });

  const vacuums = async () =>
    Number((await prisma.pool.query<{ n: string }>(`SELECT vacuum_count::text AS n FROM pg_stat_user_tables WHERE relname = 'stream_snapshots'`)).rows[0]!.n);

  it('vacuums stream_snapshots after every so many saves that replaced a row, not counting those that did not', async () => {
    const snapshots = new SnapshotRepository(prisma);
    const state = { books: 'x'.repeat(10_000) };
    for (let seq = 1; seq < SNAPSHOTS_VACUUM_AFTER_SAVES; seq++) await snapshots.save('books', seq, state);
    // Behind the saved position: nothing is written, nothing counted.
    await snapshots.save('books', 1, state);
    expect(await vacuums()).toBe(0);

    await snapshots.save('books', SNAPSHOTS_VACUUM_AFTER_SAVES, state);
    expect(await vacuums()).toBe(1);
    expect(await snapshots.load('books')).toMatchObject({ streamSeq: SNAPSHOTS_VACUUM_AFTER_SAVES, state });
  });
});
