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
});
