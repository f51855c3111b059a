import { Pool } from 'pg';
import { createEmptyTestDatabase, dropDatabase } from '../src/database/databases';
import { TableVacuum } from '../src/database/table-vacuum';

/** TableVacuum on a real PostgreSQL: a VACUUM after enough dead rows, one at a time. */
describe('TableVacuum', () => {
  let url: string;
  let pool: Pool;
  beforeAll(async () => {
    url = await createEmptyTestDatabase('vacuum');
    pool = new Pool({ connectionString: url, max: 3 });
    await pool.query('CREATE TABLE churn (id int PRIMARY KEY, v int NOT NULL)');
    await pool.query('INSERT INTO churn SELECT g, 0 FROM generate_series(1, 100) g');
  });

  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
  });

  const vacuums = async () =>
    Number((await pool.query<{ n: string }>(`SELECT vacuum_count::text AS n FROM pg_stat_user_tables WHERE relname = 'churn'`)).rows[0]!.n);

  it('vacuums at the threshold, runs one VACUUM at a time, and counts the rows noted meanwhile toward the next', async () => {
    const vacuum = new TableVacuum(pool, 'churn', 10);
    await vacuum.note(9);
    expect(await vacuums()).toBe(0);

    // The tenth row starts a VACUUM; notes while it runs start none of their own (PostgreSQL would make
    // a second VACUUM of the table wait for the first) and resolve at once.
    const running = vacuum.note(1);
    await vacuum.note(25);
    await running;
    expect(await vacuums()).toBe(1);

    // The 25 rows noted during the run are past the threshold: the next note vacuums.
    await vacuum.note(0);
    expect(await vacuums()).toBe(2);
    await vacuum.note(9);
    expect(await vacuums()).toBe(2);
  });

  it('rejects with the failure of its VACUUM and vacuums again at the next threshold', async () => {
    const missing = new TableVacuum(pool, 'no_such_table', 1);
    await expect(missing.note(1)).rejects.toThrow(/no_such_table/);
    await expect(missing.note(1)).rejects.toThrow(/no_such_table/);
  });
});
