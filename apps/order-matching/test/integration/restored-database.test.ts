import { Pool } from 'pg';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const BEFORE = `0x${'6a'.repeat(32)}`;
const AFTER = `0x${'6b'.repeat(32)}`;
const CHANGED = `0x${'6c'.repeat(32)}`;

/**
 * order-matching's database restored from a backup while NATS kept its consumer's position: the markets
 * the catalog announced after the backup must be learnt again (real PostgreSQL, NATS and JetStream). A
 * verification probe saw such an engine refuse their orders as unknown tokens while the catalog showed
 * them open.
 */
describe('order-matching on a database restored from a backup', () => {
  let om: MatchingUnderTest;
  let db: Pool;

  beforeAll(async () => {
    om = await startMatching();
    db = new Pool({ connectionString: om.databaseUrl });
  });
  afterAll(async () => {
    await db.end();
    await om.stop();
  });

  const position = async () => (await db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'catalog-feed-position'")).rows[0]?.value;
  const tickSize = async (conditionId: string) =>
    (await db.query<{ tick_size: number }>('SELECT tick_size FROM markets WHERE condition_id = $1', [conditionId])).rows[0]?.tick_size;

  it('learns the markets made and changed after the backup, though NATS acknowledged them before', async () => {
    await om.publishMarket(aMarketSnapshot(BEFORE, ['801', '802']));
    await om.publishMarket(aMarketSnapshot(CHANGED, ['803', '804'], { tickSizeUnits: 10_000, updatedAt: '2027-01-01T00:00:00.000Z' }));
    // The backup: what the tables held then.
    const backup = { position: await position() };
    expect(JSON.parse(backup.position!)).toEqual({ streamCreated: expect.any(String), seq: expect.any(Number) });

    await om.publishMarket(aMarketSnapshot(AFTER, ['805', '806']));
    await om.publishMarket(aMarketSnapshot(CHANGED, ['803', '804'], { tickSizeUnits: 1_000, updatedAt: '2027-01-01T00:00:01.000Z' }));
    expect(JSON.parse((await position())!).seq).toBeGreaterThan(JSON.parse(backup.position!).seq);
    // A plain restart first: the consumer is made anew and has acknowledged nothing since (a probe found
    // a restore after such a start unnoticed when the start compared with NATS's acknowledgement floor).
    await om.restart();

    // The restore, as far as the catalog's markets go: the tables as they were at the backup.
    await db.query('DELETE FROM markets WHERE condition_id = $1', [AFTER]);
    await db.query("UPDATE markets SET tick_size = 10000, catalog_updated_at = '2027-01-01T00:00:00.000Z' WHERE condition_id = $1", [CHANGED]);
    await db.query("UPDATE settings SET value = $1 WHERE key = 'catalog-feed-position'", [backup.position]);
    await om.restart();

    expect(om.engine().state.markets.has(AFTER)).toBe(true);
    expect(om.engine().state.markets.get(CHANGED)!.tickSize).toBe(1_000);
    expect(await tickSize(CHANGED)).toBe(1_000);
    expect(JSON.parse((await position())!).seq).toBeGreaterThan(JSON.parse(backup.position!).seq);
  });

  it('replays the stream from its start when its position is in an earlier stream of that name (recreated since the backup)', async () => {
    await db.query('DELETE FROM markets WHERE condition_id = $1', [AFTER]);
    await db.query("UPDATE settings SET value = $1 WHERE key = 'catalog-feed-position'", [JSON.stringify({ streamCreated: '2026-01-01T00:00:00Z', seq: 1_000 })]);
    await om.restart();
    expect(om.engine().state.markets.has(AFTER)).toBe(true);
    expect(JSON.parse((await position())!).streamCreated).not.toBe('2026-01-01T00:00:00Z');
  });
});
