import { connect, type NatsConnection } from 'nats';
import { deleteStreams, readStream, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { OutboxRelay, type OutboxRecord, type OutboxStore } from '../src/jetstream/outbox-relay';
import { ensureStream } from '../src/jetstream/streams';

/** An outbox table kept in memory: the relay's contract with a service's database. */
class MemoryOutbox implements OutboxStore {
  rows: (OutboxRecord & { published: boolean })[] = [];
  failMarking = false;
  polls = 0;

  add(subject: string, payload: unknown) {
    this.rows.push({ id: BigInt(this.rows.length + 1), subject, payload, published: false });
  }
  /** A row whose writer already has the payload's JSON text. */
  addJson(subject: string, json: string) {
    this.rows.push({ id: BigInt(this.rows.length + 1), subject, json, published: false });
  }
  async pending(limit: number) {
    this.polls++;
    return this.rows.filter((r) => !r.published).slice(0, limit);
  }
  async markPublished(ids: bigint[]) {
    if (this.failMarking) throw new Error('database unavailable');
    for (const row of this.rows) if (ids.includes(row.id)) row.published = true;
  }
}

describe('OutboxRelay on real JetStream', () => {
  const prefix = testPrefix('outbox');
  /** A stream of its own for the fast-path test, which reads the whole stream. */
  const fastPrefix = testPrefix('offer');
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    await ensureStream(nc, prefix, { name: 'TEST', subjects: 'test.evt.>' });
    await ensureStream(nc, fastPrefix, { name: 'TEST', subjects: 'test.evt.>' });
  });
  afterAll(async () => {
    await nc.close();
    await deleteStreams(prefix);
    await deleteStreams(fastPrefix);
  });

  it('publishes pending rows in order and marks them, payloads as values or as JSON text', async () => {
    const store = new MemoryOutbox();
    for (let i = 0; i < 1_200; i++) {
      if (i % 2) store.addJson(`test.evt.n${i % 3}`, `{"i":${i}}`);
      else store.add(`test.evt.n${i % 3}`, { i });
    }
    await new OutboxRelay(nc, prefix, store).kick();
    const messages = await readStream(prefix, 'TEST');
    expect(messages.map((m) => (m.data as { i: number }).i)).toEqual([...Array(1_200).keys()]);
    expect(messages[1]!.subject).toBe('test.evt.n1');
    expect(store.rows.every((r) => r.published)).toBe(true);
  });

  it('republishes after a failed mark without duplicating in the stream', async () => {
    const before = (await readStream(prefix, 'TEST')).length;
    const store = new MemoryOutbox();
    store.rows = [{ id: 5_000n, subject: 'test.evt.once', payload: { once: true }, published: false }];
    store.failMarking = true;
    const relay = new OutboxRelay(nc, prefix, store);
    await relay.kick();
    expect(store.rows[0]!.published).toBe(false);
    store.failMarking = false;
    await relay.kick();
    expect(store.rows[0]!.published).toBe(true);
    expect((await readStream(prefix, 'TEST')).length).toBe(before + 1);
  });

  it('publishes offered rows in order, after what a poll found, without publishing any twice', async () => {
    const store = new MemoryOutbox();
    store.add('test.evt.a', { i: 0 });
    store.add('test.evt.a', { i: 1 });
    const relay = new OutboxRelay(nc, fastPrefix, store);
    // Row 2 was committed and offered before the first poll ran: the poll finds it, the offer is skipped.
    store.add('test.evt.a', { i: 2 });
    await relay.offer([store.rows[2]!]);
    store.add('test.evt.a', { i: 3 });
    store.add('test.evt.a', { i: 4 });
    await relay.offer([store.rows[3]!, store.rows[4]!]);
    const messages = await readStream(fastPrefix, 'TEST');
    expect(messages.map((m) => (m.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
    // Rows 3 and 4 went out from the offer, not from reading the store again.
    expect(store.polls).toBe(1);
  });

  it('publishes a row that committed after a row with a higher id was published (concurrent writers)', async () => {
    const latePrefix = testPrefix('late');
    await ensureStream(nc, latePrefix, { name: 'TEST', subjects: 'test.evt.>' });
    try {
      const store = new MemoryOutbox();
      store.add('test.evt.a', { i: 1 });
      store.add('test.evt.a', { i: 2 });
      // Row 1's transaction has not committed yet: the store does not show it.
      const [first] = store.rows.splice(0, 1);
      const relay = new OutboxRelay(nc, latePrefix, store);
      await relay.kick();
      store.rows.unshift(first!);
      await relay.kick();
      expect((await readStream(latePrefix, 'TEST')).map((m) => (m.data as { i: number }).i)).toEqual([2, 1]);
      expect(store.rows.every((r) => r.published)).toBe(true);
    } finally {
      await deleteStreams(latePrefix);
    }
  });
});
