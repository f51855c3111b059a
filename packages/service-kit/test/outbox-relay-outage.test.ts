import { connect, type NatsConnection } from 'nats';
import { startPrivateNats, testPrefix, until, type PrivateNats } from '@exchange/testing';
import { OutboxRelay, type OutboxRecord, type OutboxStore } from '../src/jetstream/outbox-relay';
import { ensureStream } from '../src/jetstream/streams';

/** An outbox table kept in memory. */
class MemoryOutbox implements OutboxStore {
  rows: (OutboxRecord & { published: boolean })[] = [];
  add(i: number) {
    this.rows.push({ id: BigInt(this.rows.length + 1), subject: 'test.evt.n', payload: { i }, published: false });
  }
  async pending(limit: number) {
    return this.rows.filter((r) => !r.published).slice(0, limit);
  }
  async markPublished(ids: bigint[]) {
    for (const row of this.rows) if (ids.includes(row.id)) row.published = true;
  }
}

describe('OutboxRelay across a NATS outage', () => {
  const prefix = testPrefix('relayout');
  let nats: PrivateNats;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startPrivateNats({ jetstream: true });
    nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
    await ensureStream(nc, prefix, { name: 'TEST', subjects: 'test.evt.>' });
  });
  afterAll(async () => {
    await nc.close();
    await nats.close();
  });

  it.each([1, 3, 6])('publishes what was written during an outage of %i s within about a second of NATS coming back', async (seconds) => {
    const store = new MemoryOutbox();
    const relay = new OutboxRelay(nc, prefix, store, 200);
    relay.start();
    store.add(0);
    await until(async () => (store.rows[0]!.published ? true : undefined));

    await nats.stop();
    for (let i = 1; i <= seconds * 2; i++) {
      store.add(i);
      void relay.kick();
      await new Promise((r) => setTimeout(r, 500));
    }
    await nats.start();
    const back = Date.now();
    await until(async () => (store.rows.every((r) => r.published) ? true : undefined), 15_000);
    const lag = Date.now() - back;
    await relay.stop();

    // Before, 2-4 s: a publish sent as the server came back was waited out for nats.js' 5 s default.
    expect(lag).toBeLessThan(1_800);
  }, 30_000);
});
