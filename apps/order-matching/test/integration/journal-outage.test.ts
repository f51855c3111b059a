import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { RpcClient } from '@exchange/service-kit';
import { eventually, rpcCalls, sleep, TEST_NATS_URL } from '@exchange/testing';
import { COLLATERAL } from '../../src/engine/ledger';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'0d'.repeat(32)}`;
const YES = '801';
const NO = '802';
const trader = traderOf(8);
/**
 * Short, for the session that times out during the outage (no other test here starts one); long enough
 * that it does not time out before the outage has begun on a busy machine.
 */
const HEARTBEAT_TIMEOUT_MS = 4_000;

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
    await om.restart({ DATABASE_URL: url.toString(), HEARTBEAT_TIMEOUT_SECONDS: String(HEARTBEAT_TIMEOUT_MS / 1000) });
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
  /** No new connection for the role; its open ones (the journal's, the queries') are ended. */
  const refuseConnections = async () => {
    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
  };
  const allowConnections = () => admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
  /** Why the journal cannot write now, as health reports it; undefined while it writes. */
  const journalProblem = () => {
    const health = om.health();
    return health.status === 'degraded' ? health.problems.journal : undefined;
  };

  it('keeps the batch it could not write, refuses new commands with a 503, and writes the batch once connections are free again', async () => {
    await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '100' });
    expect(await om.place(trader, order('0.40').placements[0]!.orders[0]!)).toMatchObject({ success: true, status: 'live' });

    await refuseConnections();
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

    await allowConnections();
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

  it('keeps a heartbeat session whose cancel on disconnect could not be written, and ends it at a later check once the journal writes again', async () => {
    const silent = traderOf(9);
    const bystander = traderOf(10);
    await om.data('matching.admin.deposit.v1', { address: silent.address, amount: '100' });
    const resting = await om.place(silent, anOrder(silent, { token: YES, side: 'BUY', price: '0.30', size: '10' }));
    expect(resting).toMatchObject({ success: true, status: 'live' });
    const reserved = () => om.engine().state.ledger.get(silent.address, COLLATERAL).reserved;
    expect(reserved()).toBe(3_000_000);
    const beat = (heartbeat_id: string) => during.request('matching.heartbeat.v1', { caller: silent, heartbeat_id });
    const started = await beat('');
    const id = started.ok ? started.data.heartbeat_id : '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const sessionRows = async () => (await admin.query('SELECT id FROM heartbeat_sessions WHERE api_key = $1', [silent.apiKey])).rows;
    expect(await sessionRows()).toEqual([{ id }]);

    await refuseConnections();
    // A write kept retrying, so the engine runs no command (the cancel included) until it is written.
    const pending = during.request('matching.admin.deposit.v1', { address: bystander.address, amount: '5' });
    await eventually(() => journalProblem() !== undefined, 'the journal failing');
    // The silence starts once writes are refused: an earlier timeout's cancel would join the retried batch and be written later, not refused.
    expect(await beat(id)).toEqual({ ok: true, data: { heartbeat_id: id } });
    await sleep(HEARTBEAT_TIMEOUT_MS + 1_000);
    // Timed out, its cancel refused at every check: the order rests, its session is still journaled. The
    // journal says either reason: refused connections, or, when the deposit's statement went out on the
    // ended connection before the engine read its end, "reconnecting" while it asks whether that
    // statement committed (a CI run under load).
    expect(journalProblem()).toMatch(/^cannot write, trying again: (.*too many connections for role|the matching engine's journal is reconnecting)/);
    expect(om.engine().state.orders.has(resting.orderID)).toBe(true);
    expect(reserved()).toBe(3_000_000);
    expect(await sessionRows()).toEqual([{ id }]);

    await allowConnections();
    expect(await pending).toMatchObject({ ok: true });
    // Without the session put back after its failed cancel, nothing would end it: the order would rest for good.
    await eventually(() => !om.engine().state.orders.has(resting.orderID), 'the order canceled on disconnect once writes succeed');
    expect(reserved()).toBe(0);
    await eventually(async () => (await sessionRows()).length === 0, 'the session row deleted');
    expect((await om.data('matching.orders.list.v1', { caller: silent })).data).toEqual([]);
    // Its id names an ended session now.
    expect(await beat(id)).toMatchObject({ ok: false, status: 400 });
    await om.expectConserved();
    expect(om.takeFatal()).toEqual([]);
  });
});
