import { Client } from 'pg';
import { aMarketSnapshot, startMarketData, type MarketDataUnderTest } from '../support/market-data-harness';

/**
 * market-data's database restored from a backup while NATS kept its catalog consumer's position (real
 * PostgreSQL, Redis, NATS and JetStream): the markets announced after the backup must be known again,
 * where the consumer alone resumed past them.
 */
describe('market-data on a database restored from a backup', () => {
  let md: MarketDataUnderTest;
  const before = aMarketSnapshot();
  const after = aMarketSnapshot();

  beforeAll(async () => {
    md = await startMarketData();
  });
  afterAll(() => md?.stop());

  const sql = async <T>(run: (db: Client) => Promise<T>): Promise<T> => {
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    try {
      return await run(db);
    } finally {
      await db.end();
    }
  };
  const position = () => sql(async (db) => (await db.query<{ seq: string }>("SELECT seq FROM feed_positions WHERE feed = 'catalog'")).rows[0]?.seq);
  const known = async (conditionId: string) => (await md.request('marketdata.markets.get.v1', { condition_id: conditionId })).ok;

  it('knows the markets announced after the backup as soon as it has started', async () => {
    await md.publishMarket(before);
    await md.untilMarketKnown(before.conditionId);
    const backup = await position();
    expect(Number(backup)).toBeGreaterThan(0);
    await md.publishMarket(after);
    await md.untilMarketKnown(after.conditionId);
    expect(Number(await position())).toBeGreaterThan(Number(backup));

    await md.restart(() =>
      sql(async (db) => {
        // The restore, as far as the catalog's markets go: the tables as they were at the backup.
        await db.query('DELETE FROM markets WHERE condition_id = $1', [after.conditionId.toLowerCase()]);
        await db.query("UPDATE feed_positions SET seq = $1 WHERE feed = 'catalog'", [backup]);
      }),
    );
    expect(await known(before.conditionId)).toBe(true);
    expect(await known(after.conditionId)).toBe(true);
    expect(Number(await position())).toBeGreaterThan(Number(backup));
  });
});
