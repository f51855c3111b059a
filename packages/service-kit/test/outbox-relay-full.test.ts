import { Logger } from '@nestjs/common';
import { connect, DiscardPolicy, nanos, type NatsConnection } from 'nats';
import { deleteStreams, eventually, readStream, sleep, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { OutboxRelay } from '../src/jetstream/outbox-relay';
import { prefixed, streamName } from '../src/nats/subjects';
import { createOutboxDatabase, PgOutboxStore, TEST_STREAM, type OutboxDatabase } from './support/pg-outbox';

/**
 * JetStream without room for the relay's stream: its storage full, or the stream at its limits with
 * discard new. Both answer each publish 503; here the stream is made small, which the test can undo.
 */
describe('OutboxRelay while JetStream has no room for its stream (a real PostgreSQL outbox table, real JetStream)', () => {
  const prefix = testPrefix('relayfull');
  let nc: NatsConnection;
  let db: OutboxDatabase;

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    db = await createOutboxDatabase('relayfull');
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await nc?.close();
    await db?.drop();
    await deleteStreams(prefix);
  });

  it('backs off instead of retrying at every offer, says so in a few lines, and publishes in order once there is room', async () => {
    const jsm = await nc.jetstreamManager();
    const name = streamName(prefix, 'TEST');
    await jsm.streams.add({ name, subjects: [prefixed(prefix, 'test.evt.>')], max_bytes: 2_048, discard: DiscardPolicy.New, duplicate_window: nanos(120_000) });
    // The relay's lines, as the Nest logger receives them.
    const said: string[] = [];
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...[message]: unknown[]) {
        if ((this as unknown as { context?: string }).context === OutboxRelay.name) said.push(String(message));
      });
    }
    const row = (i: number) => ({ subject: 'test.evt.n', payload: { i, padding: 'x'.repeat(100) } });
    await db.write([...Array(40).keys()].map(row));
    const store = new PgOutboxStore(db.pool);
    const relay = new OutboxRelay(nc, prefix, store, TEST_STREAM, 100);
    await relay.start();
    let written = 40;
    try {
      // A busy writer offers what it commits, as order-matching does each batch: 100 offers in 2 s.
      const polled = store.polls;
      for (let n = 0; n < 100; n++) {
        void relay.offer(await db.write([row(written++)]));
        await sleep(20);
      }
      // Pauses of 250, 500 and 1,000 ms: a handful of drains, each reading the table once; until
      // 2026-11-27 one per offer (about 100).
      expect(store.polls - polled).toBeLessThanOrEqual(6);
      expect(said).toEqual([expect.stringContaining(`outbox publish failed, will retry: JetStream has no room for stream ${name} (maximum bytes exceeded)`)]);
      expect((await jsm.streams.info(name)).state.messages).toBeLessThan(written);
      // What /healthz names while it lasts (HealthChecks).
      expect(relay.failing).toMatch(/^JetStream has no room for stream .* \(maximum bytes exceeded\): events wait in the outbox$/);

      await jsm.streams.update(name, { max_bytes: -1 });
      await eventually(async () => (await db.unpublished()).length === 0, 'the rows waiting in the outbox published', 20_000);
      // Cleared when the drain that marked them ends, which may be a moment after the marks are visible
      // (a fresh-clone CI run read the flag in between once).
      await eventually(async () => relay.failing === undefined, 'the relay no longer failing', 5_000);
    } finally {
      await relay.stop();
    }
    const values = (await readStream(prefix, 'TEST')).map((m) => (m.data as { i: number }).i);
    expect(values).toEqual([...Array(written).keys()]);
    expect(said).toHaveLength(2);
    expect(said[1]).toMatch(/^outbox publishing again after \d+ failures$/);
  }, 60_000);
});
