import { MATCHING_STREAM } from '@exchange/contracts';
import { until } from '@exchange/testing';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

/** The catalog's resolution feed (MATCHING) ending under it (real PostgreSQL, NATS and JetStream). */
describe('the catalog whose resolution consumer or its stream is deleted while it runs', () => {
  let catalog: CatalogUnderTest;

  beforeAll(async () => {
    catalog = await startCatalog();
  });
  afterAll(() => catalog.stop());

  const jsm = () => catalog.nc.jetstreamManager();
  const stream = () => `${catalog.prefix}_${MATCHING_STREAM.name}`;

  it('does not exit when it is shut down', async () => {
    await catalog.restart();
    expect(catalog.exits()).toBe(0);
  });

  it('exits when its consumer is deleted, and when the stream is; a new start makes a new consumer', async () => {
    const [consumer] = await (await jsm()).consumers.list(stream()).next();
    await (await jsm()).consumers.delete(stream(), consumer!.name);
    await until(async () => (catalog.exits() === 1 ? true : undefined), 10_000, 'an exit');
    // What the supervisor does.
    await catalog.restart();
    expect((await (await jsm()).consumers.list(stream()).next()).map((c) => c.name)).toEqual([consumer!.name]);

    await (await jsm()).streams.delete(stream());
    await until(async () => (catalog.exits() === 2 ? true : undefined), 10_000, 'an exit');
    await catalog.restart();
    expect(catalog.exits()).toBe(2);
  });
});
