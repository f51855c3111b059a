import path from 'node:path';
import type { Pool } from 'pg';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import { journalConnection } from '../../src/journal/journal-connection';

/** The journal's connection on a fresh database: one connection, prepared statements on a generic plan. */
describe('journalConnection', () => {
  let url: string;
  let journal: Pool;

  beforeAll(async () => {
    url = await createTestDatabase(path.join(__dirname, '../..'), 'journalconn');
    journal = journalConnection(url);
  });
  afterAll(async () => {
    await journal.end();
    await dropDatabase(url);
  });

  it('plans a named statement over arrays once, generically, instead of at every execution', async () => {
    // The shape of the batch statement: arrays unnested; a custom plan would know each array's length.
    const statement = { name: 'unnest-count', text: 'SELECT count(*)::int AS n FROM UNNEST($1::text[]) AS u(id) WHERE u.id <> $2' };
    for (const size of [0, 1, 3, 8, 2, 5, 13]) {
      const ids = Array.from({ length: size }, (_, i) => `id-${i}`);
      const result = await journal.query<{ n: number }>({ ...statement, values: [ids, 'id-0'] });
      expect(result.rows[0]!.n).toBe(Math.max(0, size - 1));
    }
    const plans = await journal.query<{ generic: string; custom: string }>(
      `SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = 'unnest-count'`,
    );
    expect(plans.rows).toEqual([{ generic: '7', custom: '0' }]);
  });

  it('is a single connection: one backend answers every query', async () => {
    const pids = await Promise.all(Array.from({ length: 4 }, () => journal.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')));
    expect(new Set(pids.map((r) => r.rows[0]!.pid)).size).toBe(1);
  });
});
