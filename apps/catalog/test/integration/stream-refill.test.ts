import { Client } from 'pg';
import type { MarketSnapshot } from '@exchange/contracts';
import { readStream, until } from '@exchange/testing';
import { anEvent } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

/**
 * The CATALOG stream holds every market's history for new databases of order-matching and market-data
 * to replay: when it is lost, the catalog writes every snapshot into it again (real PostgreSQL, NATS).
 */
describe('the CATALOG stream created anew (real PostgreSQL, NATS and JetStream)', () => {
  let catalog: CatalogUnderTest;

  beforeAll(async () => {
    catalog = await startCatalog();
  });
  afterAll(() => catalog.stop());

  const deleteStream = async () => (await catalog.nc.jetstreamManager()).streams.delete(`${catalog.prefix}_CATALOG`);
  const createEvent = async () => (await catalog.data('catalog.admin.events.create.v1', { body: anEvent() })).markets[0]!.conditionId;
  /** The condition ids of the market snapshots the stream holds once all of `wanted` are in it. */
  const streamHolds = (wanted: string[]) =>
    until(async () => {
      const held = (await readStream(catalog.prefix, 'CATALOG').catch(() => [])).filter((m) => m.subject.startsWith('catalog.evt.market.'));
      const ids = held.map((m) => (m.data as MarketSnapshot).conditionId);
      return wanted.every((id) => ids.includes(id)) ? ids : undefined;
    }, 20_000, `market snapshots ${wanted.join(', ')} in the stream`);

  it('writes every market again when a publish finds the stream gone, and at a start that had to create it', async () => {
    const first = await createEvent();
    await streamHolds([first]);

    // Deleted while the catalog runs: the next change's publish finds no stream.
    await deleteStream();
    const second = await createEvent();
    const afterDeletion = await streamHolds([first, second]);
    expect(afterDeletion.filter((id) => id === first)).toHaveLength(1);

    // Deleted while the catalog is down: its start creates the stream and fills it.
    await deleteStream();
    await catalog.restart();
    const afterRestart = await streamHolds([first, second]);
    expect(afterRestart.sort()).toEqual([first, second].sort());
  });

  it('makes the stream anew at start when it holds changes the database never numbered (restored from a backup)', async () => {
    const first = await createEvent();
    await streamHolds([first]);
    const db = new Client({ connectionString: catalog.databaseUrl });
    await db.connect();
    try {
      const backup = (await db.query<{ last_value: string }>('SELECT last_value FROM outbox_id_seq')).rows[0]!.last_value;
      const lost = await createEvent();
      await streamHolds([first, lost]);
      const jsm = await catalog.nc.jetstreamManager();
      const created = (await jsm.streams.info(`${catalog.prefix}_CATALOG`)).created;
      // The database as a backup left it, as far as its outbox's numbering goes.
      await db.query('SELECT setval($1, $2)', ['outbox_id_seq', backup]);
      await catalog.restart();
      expect((await jsm.streams.info(`${catalog.prefix}_CATALOG`)).created).not.toBe(created);
      // Refilled from the database: every market it holds, once each.
      const held = await streamHolds([first, lost]);
      expect(held.filter((id) => id === first)).toHaveLength(1);
    } finally {
      await db.end();
    }
  });
});
