import path from 'node:path';
import { Pool } from 'pg';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';

/** A pool on a database of order-matching's schema, for the tests of one describe block. */
export interface FreshDatabase {
  readonly pool: Pool;
}

/**
 * Creates and migrates a database before the block's tests (`label` in its name) with a pool of
 * `poolSize` connections, and ends the pool and drops the database after them. Read `pool` in hooks and
 * tests only: it exists from the block's first beforeAll on.
 */
export function freshDatabase(label: string, poolSize: number): FreshDatabase {
  let database: { url: string; pool: Pool } | undefined;
  beforeAll(async () => {
    const url = await createTestDatabase(path.join(__dirname, '../..'), label);
    database = { url, pool: new Pool({ connectionString: url, max: poolSize }) };
  });
  afterAll(async () => {
    if (!database) return;
    await database.pool.end();
    await dropDatabase(database.url);
  });
  return {
    get pool() {
      if (!database) throw new Error('freshDatabase: read before its beforeAll ran');
      return database.pool;
    },
  };
}
