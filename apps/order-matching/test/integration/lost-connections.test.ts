import { Pool } from 'pg';
import type { MatchingEventBatch } from '@exchange/contracts';
import { databaseRelay, eventually, readStream, sleep, until } from '@exchange/testing';
import { COLLATERAL } from '../../src/engine/ledger';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'cd'.repeat(32)}`;
const YES = '301';
const NO = '302';
const trader = traderOf(7);

/** PostgreSQL ending order-matching's idle connections (a restart, an operator, a network cut) is not fatal. */
describe('order-matching when PostgreSQL drops its connections', () => {
  let om: MatchingUnderTest;
  let admin: Pool;

  beforeAll(async () => {
    om = await startMatching();
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, NO]));
    // On the same database: it ends every connection there but its own.
    admin = new Pool({ connectionString: om.databaseUrl, max: 1 });
  });
  afterAll(async () => {
    await admin.end();
    await om.stop();
  });

  const place = (price: string) => om.place(trader, anOrder(trader, { token: YES, side: 'BUY', price, size: '10' }));
  const terminateAll = async (): Promise<number> => {
    const ended = await admin.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return ended.rows[0]!.n;
  };

  it("ends a transaction its query pool leaves idle after 30 s (a frozen process's fenced write would hold up a takeover), and asks for keepalives", async () => {
    const shown = await om.engine().pool.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout' OR name LIKE 'tcp_keepalives_%' ORDER BY name`,
    );
    expect(shown.rows).toEqual([
      { name: 'idle_in_transaction_session_timeout', setting: '30000' },
      { name: 'tcp_keepalives_count', setting: '4' },
      { name: 'tcp_keepalives_idle', setting: '10' },
      { name: 'tcp_keepalives_interval', setting: '5' },
    ]);
  });

  it('opens new connections and goes on journaling and answering queries', async () => {
    await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '100' });
    const before = await place('0.40');
    expect(before).toMatchObject({ success: true, status: 'live' });
    expect(await om.data('matching.orders.get.v1', { caller: trader, id: before.orderID })).toMatchObject({ status: 'LIVE' });

    // Both the journal's connection and the query pool's are idle now, and both are ended: the next
    // batch prepares its statement again on a new connection (that the process outlives the loss is
    // packages/service-kit's pg-pool test, in a process of its own).
    expect(await terminateAll()).toBeGreaterThanOrEqual(2);
    await sleep(300);

    const after = await place('0.41');
    expect(after).toMatchObject({ success: true, status: 'live' });
    const open = await om.data('matching.orders.list.v1', { caller: trader });
    expect(open.data.map((o) => o.price)).toEqual(['0.4', '0.41']);
    // Both reservations held, nothing else moved: the ledger balances, and the journal has all of it.
    const state = om.engine().state;
    const collateral = state.ledger.get(trader.address.toLowerCase(), COLLATERAL);
    expect(collateral.available + collateral.reserved).toBe(100_000_000);
    expect(collateral.reserved).toBe([...state.orders.values()].reduce((sum, o) => sum + o.reserved, 0));
    await om.expectConserved();
    await om.restart();
    expect(om.engine().state.ledger.get(trader.address.toLowerCase(), COLLATERAL)).toEqual(collateral);
    expect([...om.engine().state.orders.keys()].sort()).toEqual([before.orderID, after.orderID].sort());
  });

  it('answers an order whose journal write committed but whose answer was lost, and goes on with it', async () => {
    const relay = await databaseRelay(om.databaseUrl);
    await relay.open();
    try {
      await om.restart({ DATABASE_URL: relay.url });
      // The batch commits on the server; its answer stays in the relay, then every connection breaks.
      relay.hold();
      const placing = place('0.43');
      await eventually(async () => (await admin.query("SELECT 1 FROM orders WHERE price = 430000 AND status = 'LIVE'")).rowCount === 1, 'the order committed');
      relay.cut();
      const placed = await placing;
      expect(placed).toMatchObject({ success: true, status: 'live' });
      // Known as written: cancelling it updates the row rather than inserting it a second time.
      expect(await om.data('matching.orders.cancel.v1', { caller: trader, orderIds: [placed.orderID] })).toEqual({ canceled: [placed.orderID], not_canceled: {} });
      expect((await admin.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [placed.orderID])).rows).toEqual([{ status: 'CANCELED' }]);
      await om.expectConserved();
      // Its events, read back from the outbox, before the cancel's.
      const events = await until(async () => {
        const all = (await readStream(om.prefix, 'MATCHING')).flatMap((m) => (m.data as MatchingEventBatch).events);
        const mine = all.filter((e) => e.type === 'order' && e.data.id === placed.orderID);
        return mine.length === 2 ? mine : undefined;
      }, 10_000, 'both events of the order published');
      expect(events.map((e) => e.type === 'order' && e.data.type)).toEqual(['PLACEMENT', 'CANCELLATION']);
      expect(om.takeFatal()).toEqual([]);
    } finally {
      await om.restart();
      relay.cut();
      await relay.close();
    }
  });

  it('starts while PostgreSQL cannot be reached, waits for it, and loads everything once it can', async () => {
    const state = om.engine().state;
    const collateral = state.ledger.get(trader.address.toLowerCase(), COLLATERAL);
    const resting = [...state.orders.keys()].sort();

    // The same database behind a port that refuses connections until the relay opens, 1 s on. Before,
    // the load failed at once and the process exited into its supervisor's growing restart delays
    // (a chaos probe: back 15-22 s after PostgreSQL).
    const relay = await databaseRelay(om.databaseUrl);
    const opening = sleep(1_000).then(() => relay.open());
    const started = Date.now();
    try {
      await om.restart({ DATABASE_URL: relay.url });
      await opening;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      const loaded = om.engine().state;
      expect(loaded.ledger.get(trader.address.toLowerCase(), COLLATERAL)).toEqual(collateral);
      expect([...loaded.orders.keys()].sort()).toEqual(resting);
      await om.expectConserved();
      expect(await place('0.42')).toMatchObject({ success: true, status: 'live' });
    } finally {
      await om.restart();
      await relay.close();
    }
  });
});
