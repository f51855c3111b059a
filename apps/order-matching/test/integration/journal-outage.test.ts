import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { RpcClient } from '@exchange/service-kit';
import { eventually, rpcCalls, sleep, TEST_NATS_URL } from '@exchange/testing';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'0d'.repeat(32)}`;
const YES = '801';
const NO = '802';
const trader = traderOf(8);

/**
 * PostgreSQL refusing the journal a connection (out of connections: here a real role's connection limit,
 * which binds even on a machine whose test user is a superuser) pauses the engine rather than ends it.
 */
describe('order-matching while PostgreSQL refuses it connections', () => {
  const role = `om_limited_${randomBytes(4).toString('hex')}`;
  let om: MatchingUnderTest;
  let admin: Pool;
  let nc: NatsConnection;
  // Requests during the outage: the harness's audit after each would compare memory with a journal that cannot be written yet.
  let during: ReturnType<typeof rpcCalls>;

  beforeAll(async () => {
    om = await startMatching();
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, NO]));
    admin = new Pool({ connectionString: om.databaseUrl, max: 1 });
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
    await admin.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    const url = new URL(om.databaseUrl);
    url.username = role;
    await om.restart({ DATABASE_URL: url.toString() });
    nc = await connect({ servers: TEST_NATS_URL });
    during = rpcCalls(new RpcClient(nc, om.prefix, 15_000));
  });
  afterAll(async () => {
    await nc.close();
    await admin.end();
    await om.stop();
    const server = new Pool({ connectionString: new URL('/postgres', om.databaseUrl).toString(), max: 1 });
    await server.query(`DROP ROLE IF EXISTS ${role}`);
    await server.end();
  });

  const order = (price: string) => ({ placements: [{ caller: trader, orders: [anOrder(trader, { token: YES, side: 'BUY', price, size: '10' })] }] });

  it('keeps the batch it could not write, refuses new commands with a 503, and writes the batch once connections are free again', async () => {
    await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '100' });
    expect(await om.place(trader, order('0.40').placements[0]!.orders[0]!)).toMatchObject({ success: true, status: 'live' });

    // No new connection for the role; its open ones (the journal's, the queries') are ended.
    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    await sleep(300);

    const waiting = during.request('matching.orders.place.v1', order('0.41'));
    let refused;
    for (let tries = 0; tries < 50 && refused === undefined; tries++) {
      await sleep(100);
      const reply = await during.request('matching.orders.place.v1', order('0.42'));
      if (!reply.ok) refused = reply;
    }
    expect(refused).toMatchObject({ ok: false, status: 503, body: { code: 'service_unavailable', error: 'the database is unavailable; retry shortly' } });
    // The outbox, which reads its rows from the same database, may be failing too.
    expect(om.health()).toMatchObject({ status: 'degraded', problems: { journal: expect.stringMatching(/^cannot write, trying again: .*too many connections for role/) } });
    await sleep(500);

    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
    const placed = await waiting;
    expect(placed).toMatchObject({ ok: true, data: [[{ success: true, status: 'live' }]] });
    expect(om.health()).not.toHaveProperty('problems.journal');
    // The outbox's once its pause after a failure (5 s at most) is over.
    await eventually(() => om.health().status === 'ok', 'healthy again', 10_000);
    const after = await om.place(trader, order('0.43').placements[0]!.orders[0]!);
    expect(after).toMatchObject({ success: true, status: 'live' });
    const open = await om.data('matching.orders.list.v1', { caller: trader });
    expect(open.data.map((o) => o.price).sort()).toEqual(['0.4', '0.41', '0.43']);
    await om.expectConserved();
    // And the process never asked to exit: the harness's stop fails if it did.
    expect(om.takeFatal()).toEqual([]);
  });
});
