import { Pool } from 'pg';
import { until } from '@exchange/testing';
import { CatalogOutbox } from '../../src/outbox/catalog-outbox';
import { anEvent } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

describe("the catalog's outbox keeps a day of published rows (real PostgreSQL and NATS)", () => {
  let catalog: CatalogUnderTest;
  let pool: Pool;

  beforeAll(async () => {
    catalog = await startCatalog();
    pool = new Pool({ connectionString: catalog.databaseUrl, max: 1 });
  });
  afterAll(async () => {
    await pool.end();
    await catalog.stop();
  });

  const rows = async () => (await pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox')).rows[0]!.n;
  const unpublished = async () => (await pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox WHERE published_at IS NULL')).rows[0]!.n;

  it('deletes rows published more than a day ago, and only those (they were kept for good)', async () => {
    await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    await until(async () => ((await unpublished()) === '0' ? true : undefined));
    const old = (await pool.query("UPDATE outbox SET published_at = now() - interval '25 hours'")).rowCount;
    expect(old).toBe(2);
    await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    await until(async () => ((await unpublished()) === '0' ? true : undefined));
    expect(await rows()).toBe('4');

    expect(await catalog.service(CatalogOutbox).prune(Date.now())).toBe(2);
    expect(await rows()).toBe('2');
    expect(await catalog.service(CatalogOutbox).prune(Date.now())).toBe(0);
  });
});
