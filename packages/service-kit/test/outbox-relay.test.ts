import { connect, type NatsConnection } from 'nats';
import { streamName } from '../src/nats/subjects';
import { Client, type Pool } from 'pg';
import { databaseRelay, deleteStreams, eventually, readStream, sleep, TEST_NATS_URL, testPrefix, until, type DatabaseRelay } from '@exchange/testing';
import { pgPool } from '../src/database/pg-pool';
import { OutboxRelay, outboxIdOf } from '../src/jetstream/outbox-relay';
import { ensureStream } from '../src/jetstream/streams';
import { createOutboxDatabase, PgOutboxStore, TEST_STREAM, type OutboxDatabase } from './support/pg-outbox';

/** How the relay's store names its connections, for the server to end them in an outage. */
const STORE_APPLICATION = 'outbox-relay-test-store';

describe('OutboxRelay on a real PostgreSQL outbox table and real JetStream', () => {
  const prefixes: string[] = [];
  let nc: NatsConnection;
  let db: OutboxDatabase;
  /** The relay's way to the database, which a test cuts. */
  let link: DatabaseRelay;
  /** The relay's store's pool, through `link`. */
  let storePool: Pool;
  let linkOpen = false;

  /** A stream of the test's own (tests read whole streams). */
  const aStream = async (label: string) => {
    const prefix = testPrefix(label);
    prefixes.push(prefix);
    await ensureStream(nc, prefix, TEST_STREAM);
    return prefix;
  };
  const values = async (prefix: string) => (await readStream(prefix, 'TEST')).map((m) => m.data);

  /**
   * The database goes away for the relay's store: new connections are refused and the server ends the
   * open ones. Answers once every connection through the link is gone.
   */
  const cutDatabase = async () => {
    linkOpen = false;
    const closed = link.close();
    await db.pool.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [STORE_APPLICATION],
    );
    await closed;
  };
  /** The database is back for the relay's store. */
  const restoreDatabase = async () => {
    if (linkOpen) return;
    await link.open();
    linkOpen = true;
  };

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    db = await createOutboxDatabase('outbox');
    link = await databaseRelay(db.url);
    await restoreDatabase();
    storePool = pgPool('outbox-store', { connectionString: link.url, max: 2, application_name: STORE_APPLICATION, connectionTimeoutMillis: 5_000 });
  });
  beforeEach(() => db.truncate());
  afterAll(async () => {
    await storePool?.end();
    await link?.close();
    await db?.drop();
    await nc?.close();
    for (const prefix of prefixes) await deleteStreams(prefix);
  });

  it('publishes pending rows in id order and marks them, payloads as values or as JSON text', async () => {
    const prefix = await aStream('outbox');
    const rows = await db.write(
      [...Array(1_200).keys()].map((i) => (i % 2 ? { subject: `test.evt.n${i % 3}`, json: `{"i":${i}}` } : { subject: `test.evt.n${i % 3}`, payload: { i } })),
    );
    expect(rows).toHaveLength(1_200);
    const store = new PgOutboxStore(storePool);
    await new OutboxRelay(nc, prefix, store, TEST_STREAM).kick();
    const messages = await readStream(prefix, 'TEST');
    expect(messages.map((m) => (m.data as { i: number }).i)).toEqual([...Array(1_200).keys()]);
    expect(messages.slice(0, 3).map((m) => m.subject)).toEqual(['test.evt.n0', 'test.evt.n1', 'test.evt.n2']);
    expect(await db.unpublished()).toEqual([]);
    // Batches of 500, each read from the table: 500, 500, then 200 (short: nothing more pending).
    expect(store.polls).toBe(3);
  });

  it('publishes again after its mark failed with the database gone, and the stream keeps the message once', async () => {
    const prefix = await aStream('mark');
    const [row] = await db.write([{ subject: 'test.evt.once', payload: { once: true } }]);
    const store = new PgOutboxStore(storePool);
    // The database goes away between the stream's acknowledgement and the mark.
    store.beforeMark = async () => {
      store.beforeMark = undefined;
      await cutDatabase();
    };
    const relay = new OutboxRelay(nc, prefix, store, TEST_STREAM);
    try {
      await relay.kick();
      expect(store.beforeMark).toBeUndefined();
      expect(await values(prefix)).toEqual([{ once: true }]);
      expect(await db.unpublished()).toEqual([row!.id]);
      // While the database stays away, a drain fails at its read and publishes nothing more.
      await relay.kick();
      expect(await db.unpublished()).toEqual([row!.id]);
    } finally {
      await restoreDatabase();
    }
    await relay.kick();
    expect(await db.unpublished()).toEqual([]);
    // Published twice with one message id: the stream's duplicate window dropped the second.
    expect(await values(prefix)).toEqual([{ once: true }]);
  });

  it('polls through a database outage and publishes what was committed meanwhile once the database is back', async () => {
    const prefix = await aStream('dbout');
    await db.write([{ subject: 'test.evt.a', payload: { i: 0 } }]);
    const relay = new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), TEST_STREAM, 100);
    await relay.start();
    try {
      await eventually(async () => (await db.unpublished()).length === 0, 'the first row published');
      await cutDatabase();
      // Committed by a writer that still reaches the database; the relay's polls fail meanwhile.
      await db.write([1, 2, 3].map((i) => ({ subject: 'test.evt.a', payload: { i } })));
      await sleep(500);
      expect(await values(prefix)).toEqual([{ i: 0 }]);
      await restoreDatabase();
      await eventually(async () => (await db.unpublished()).length === 0, 'the rows committed during the outage published');
    } finally {
      await restoreDatabase();
      await relay.stop();
    }
    expect(await values(prefix)).toEqual([0, 1, 2, 3].map((i) => ({ i })));
  });

  it('publishes offered rows in order, after what a poll found, without publishing any twice', async () => {
    const prefix = await aStream('offer');
    await db.write([0, 1].map((i) => ({ subject: 'test.evt.a', payload: { i } })));
    const store = new PgOutboxStore(storePool);
    const relay = new OutboxRelay(nc, prefix, store, TEST_STREAM);
    // Row 2 was committed and offered before the first poll ran: the poll finds it, the offer is skipped.
    await relay.offer(await db.write([{ subject: 'test.evt.a', payload: { i: 2 } }]));
    await relay.offer(await db.write([3, 4].map((i) => ({ subject: 'test.evt.a', payload: { i } }))));
    expect(await values(prefix)).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
    // Rows 3 and 4 went out from the offer, not from reading the table again; and they are marked.
    expect(store.polls).toBe(1);
    expect(await db.unpublished()).toEqual([]);
  });

  it('reads again for a kick that came while a read was under way: the row committed after that read goes out', async () => {
    const prefix = await aStream('kickrace');
    const store = new PgOutboxStore(storePool);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reading!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    store.afterRead = async () => {
      store.afterRead = undefined;
      reading();
      await held;
    };
    const relay = new OutboxRelay(nc, prefix, store, TEST_STREAM);
    const first = relay.kick();
    await read;
    // Committed after that read's snapshot, by a writer that cannot offer its rows and kicks instead
    // (order-matching after a batch whose answer was lost).
    await db.write([{ subject: 'test.evt.late', payload: { late: true } }]);
    const second = relay.kick();
    release();
    await Promise.all([first, second]);
    expect(await values(prefix)).toEqual([{ late: true }]);
    expect(await db.unpublished()).toEqual([]);
  });

  it('publishes a row that committed after a row with a higher id was published (concurrent writers)', async () => {
    const prefix = await aStream('late');
    const slow = new Client({ connectionString: db.url });
    await slow.connect();
    try {
      // The first writer takes the lower id, then commits after the second writer's row went out.
      await slow.query('BEGIN');
      const [first] = await db.write([{ subject: 'test.evt.a', payload: { i: 1 } }], slow);
      const [second] = await db.write([{ subject: 'test.evt.a', payload: { i: 2 } }]);
      expect(first!.id).toBeLessThan(second!.id);
      const relay = new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), TEST_STREAM);
      await relay.kick();
      expect(await values(prefix)).toEqual([{ i: 2 }]);
      await slow.query('COMMIT');
      await relay.kick();
      expect(await values(prefix)).toEqual([{ i: 2 }, { i: 1 }]);
      expect(await db.unpublished()).toEqual([]);
    } finally {
      await slow.end();
    }
  });

  it('publishes a row under an id already published with other bytes (a database restored from a backup), and stores the same row once', async () => {
    const prefix = await aStream('restored');
    const [first] = await db.write([{ subject: 'test.evt.a', payload: { timeline: 'lost' } }]);
    const relay = new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), TEST_STREAM);
    await relay.kick();
    // The database goes back to before that row: the next row takes its id.
    await db.pool.query('DELETE FROM outbox');
    await db.pool.query("SELECT setval(pg_get_serial_sequence('outbox', 'id'), $1, false)", [first!.id.toString()]);
    const [second] = await db.write([{ subject: 'test.evt.a', payload: { timeline: 'restored' } }]);
    expect(second!.id).toBe(first!.id);
    await relay.kick();
    // Within the stream's 2-minute duplicate window; until the twenty-fourth session the second was dropped.
    expect(await values(prefix)).toEqual([{ timeline: 'lost' }, { timeline: 'restored' }]);
    // The same row published again is still stored once.
    await db.pool.query('UPDATE outbox SET published_at = NULL');
    await relay.kick();
    expect(await values(prefix)).toEqual([{ timeline: 'lost' }, { timeline: 'restored' }]);
    const jsm = await nc.jetstreamManager();
    const stored = await jsm.streams.getMessage(streamName(prefix, 'TEST'), { seq: 2 });
    expect(outboxIdOf(stored.header.get('Nats-Msg-Id'))).toBe(second!.id);
  });

  it('creates its stream again when a publish finds none (deleted, or lost with the server\'s storage)', async () => {
    const prefix = await aStream('recreate');
    await db.write([{ subject: 'test.evt.a', payload: { i: 0 } }]);
    const relay = new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), TEST_STREAM, 100);
    await relay.start();
    try {
      await eventually(async () => (await db.unpublished()).length === 0, 'the first row published');
      await (await nc.jetstreamManager()).streams.delete(streamName(prefix, 'TEST'));
      await db.write([{ subject: 'test.evt.a', payload: { i: 1 } }]);
      await eventually(async () => (await db.unpublished()).length === 0, 'the row written after the deletion published', 20_000);
    } finally {
      await relay.stop();
    }
    expect(await values(prefix)).toEqual([{ i: 1 }]);
  });

  it("makes its stream anew at start when the stream holds a later row than its database numbered (a restored database)", async () => {
    const prefix = await aStream('ahead');
    const rows = await db.write([{ subject: 'test.evt.n', payload: { i: 1 } }, { subject: 'test.evt.n', payload: { i: 2 } }]);
    await new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), TEST_STREAM).kick();
    const jsm = await nc.jetstreamManager();
    const created = async () => (await jsm.streams.info(streamName(prefix, 'TEST'))).created;
    const before = await created();
    const refills: number[] = [];
    const startWith = async (highest: bigint) => {
      const onCreated = async () => {
        refills.push(1);
        await db.write([{ subject: 'test.evt.n', payload: { i: 'refilled' } }]);
      };
      const relay = new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), { ...TEST_STREAM, onCreated, highestRowId: async () => highest });
      await relay.start();
      // What the stream holds as the start returns.
      const held = await values(prefix);
      await relay.stop();
      return held;
    };
    // The database numbered as far as the stream holds: kept.
    expect(await startWith(rows[1]!.id)).toEqual([{ i: 1 }, { i: 2 }]);
    expect(await created()).toBe(before);
    // The stream holds a row the database never numbered: made anew, and the owner refills it before
    // the start returns (the owner reports healthy only then).
    expect(await startWith(rows[0]!.id)).toEqual([{ i: 'refilled' }]);
    expect(await created()).not.toBe(before);
    expect(refills).toEqual([1]);
  });

  it('creates its stream again while idle, with its limits, and runs the owner\'s onCreated before publishing more', async () => {
    const prefix = await aStream('idle');
    const created: number[] = [];
    const stream = { ...TEST_STREAM, limits: { maxAgeSeconds: 3_600 }, onCreated: async () => void created.push(Date.now()) };
    const relay = new OutboxRelay(nc, prefix, new PgOutboxStore(storePool), stream, 100);
    // Made by aStream without limits: the start sets them, and created nothing.
    await relay.start();
    try {
      expect(created).toEqual([]);
      const jsm = await nc.jetstreamManager();
      // Deleted, then made again by someone else without limits (a consumer's start, say).
      await jsm.streams.delete(streamName(prefix, 'TEST'));
      await until(async () => (created.length === 1 ? true : undefined), 20_000, 'the stream created again without a publish');
      expect((await jsm.streams.info(streamName(prefix, 'TEST'))).config.max_age).toBe(3_600 * 1e9);
      await jsm.streams.update(streamName(prefix, 'TEST'), { subjects: [`${prefix}.test.evt.>`], max_age: 0 });
      await until(async () => ((await jsm.streams.info(streamName(prefix, 'TEST'))).config.max_age === 3_600 * 1e9 ? true : undefined), 20_000, 'its limits set again');
      expect(created).toHaveLength(1);
    } finally {
      await relay.stop();
    }
  });
});
