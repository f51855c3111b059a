import { Pool } from 'pg';
import type { OrderResult } from '@exchange/contracts';
import { eventually, sleep } from '@exchange/testing';
import { ORDERS_VACUUM_AFTER_ROWS } from '../../src/engine-host/engine.service';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'ab'.repeat(32)}`;
const YES = '801';
const alice = traderOf(1);

/** The engine keeps `orders` vacuumed itself: the PostgreSQL of these machines runs without autovacuum. */
describe('orders vacuum, on real PostgreSQL and NATS', () => {
  let om: MatchingUnderTest;
  let pool: Pool;

  beforeAll(async () => {
    om = await startMatching();
    pool = new Pool({ connectionString: om.databaseUrl, max: 1 });
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '802']));
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '1000000' });
  });
  afterAll(async () => {
    await pool.end();
    await om.stop();
  });

  const stats = async () =>
    (
      await pool.query<{ vacuums: number; dead: number }>(
        `SELECT vacuum_count::int AS vacuums, n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'orders'`,
      )
    ).rows[0]!;

  it('vacuums orders once enough resting orders ended, and not before', async () => {
    const placeResting = async (count: number) => {
      // Placements of at most 15 orders (POST /orders), 16 of them per message.
      for (let i = 0; i < count; i += 240) {
        const orders = Array.from({ length: Math.min(240, count - i) }, () => anOrder(alice, { token: YES, side: 'BUY', price: '0.10', size: '5' }));
        const placements = Array.from({ length: Math.ceil(orders.length / 15) }, (_, p) => ({ caller: alice, orders: orders.slice(p * 15, p * 15 + 15) }));
        const results = (await om.data('matching.orders.place.v1', { placements })) as OrderResult[][];
        expect(results.flat().every((r) => r.success && r.status === 'live')).toBe(true);
      }
    };
    // One short of the threshold: each cancel updates a row, no VACUUM yet.
    await placeResting(ORDERS_VACUUM_AFTER_ROWS - 1);
    const first = await om.data('matching.orders.cancel-all.v1', { caller: alice });
    expect(first.canceled).toHaveLength(ORDERS_VACUUM_AFTER_ROWS - 1);
    await sleep(200);
    expect((await stats()).vacuums).toBe(0);

    await placeResting(1);
    await om.data('matching.orders.cancel-all.v1', { caller: alice });
    await eventually(async () => (await stats()).vacuums > 0, 'a VACUUM of orders');
    const after = await stats();
    expect(after.vacuums).toBe(1);
    expect(after.dead).toBe(0);
  });
});
