import { Pool } from 'pg';
import { until } from '@exchange/testing';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'5a'.repeat(32)}`;
const YES = '601';
const MARKER = `0x${'5b'.repeat(32)}`;
const alice = traderOf(1);

/**
 * The catalog's market snapshots in the engine, when one arrives after a newer one: its consumer was
 * killed before acknowledging it, and it came again behind the newer one. A probe saw the engine apply
 * such late closes over later reopens, and refuse orders for good on markets the catalog showed open.
 */
describe('catalog market snapshots in order-matching (real PostgreSQL and NATS)', () => {
  let om: MatchingUnderTest;
  let db: Pool;

  beforeAll(async () => {
    om = await startMatching();
    db = new Pool({ connectionString: om.databaseUrl });
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '602'], { updatedAt: '2027-01-01T00:00:00.000Z' }));
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '100' });
  });
  afterAll(async () => {
    await db.end();
    await om.stop();
  });

  const accepting = () => om.engine().state.markets.get(CONDITION)!.acceptingOrders;
  const stored = async () =>
    (await db.query<{ accepting_orders: boolean; catalog_updated_at: Date }>('SELECT accepting_orders, catalog_updated_at FROM markets WHERE condition_id = $1', [CONDITION])).rows[0]!;
  const place = () => om.place(alice, anOrder(alice, { token: YES, side: 'BUY', price: '0.10', size: '5' }));
  /** Publishes a snapshot of another market and waits for it: the feed applies in order, so everything before it is applied. */
  let markers = 0;
  const applied = async () => {
    const tokens: [string, string] = [String(700 + 2 * markers), String(701 + 2 * markers)];
    await om.publishMarket(aMarketSnapshot(`${MARKER.slice(0, -4)}${String(markers++).padStart(4, '0')}`, tokens));
  };

  it('keeps the newest snapshot when an older one arrives later, in memory and in its table, across a restart', async () => {
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '602'], { updatedAt: '2027-01-01T00:00:02.000Z', acceptingOrders: false }));
    await until(async () => (accepting() ? undefined : true));
    // The close of 00:00:01, older than the reopen of 00:00:03, comes after it.
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '602'], { updatedAt: '2027-01-01T00:00:03.000Z', acceptingOrders: true }));
    await until(async () => (accepting() ? true : undefined));
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '602'], { updatedAt: '2027-01-01T00:00:01.000Z', acceptingOrders: false }));
    await applied();

    expect(accepting()).toBe(true);
    expect(await stored()).toEqual({ accepting_orders: true, catalog_updated_at: new Date('2027-01-01T00:00:03.000Z') });
    expect(await place()).toMatchObject({ success: true, status: 'live' });

    await om.restart();
    expect(accepting()).toBe(true);
    expect(await place()).toMatchObject({ success: true });
  });

  it('applies a snapshot as new as the stored one again (a redelivery of the same change)', async () => {
    const same = aMarketSnapshot(CONDITION, [YES, '602'], { updatedAt: '2027-01-01T00:00:03.000Z', acceptingOrders: true, tickSizeUnits: 1_000 });
    await om.publishMarket(same);
    await applied();
    expect(om.engine().state.markets.get(CONDITION)!.tickSize).toBe(1_000);
  });
});
