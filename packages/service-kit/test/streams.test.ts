import { connect, nanos, type NatsConnection } from 'nats';
import { deleteStreams, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { ensureStream, storedSeqs } from '../src/jetstream/streams';
import { streamName } from '../src/nats/subjects';

describe('ensureStream on real JetStream', () => {
  const prefix = testPrefix('streams');
  const stream = { name: 'KEPT', subjects: 'kept.evt.>' };
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
  });
  afterAll(async () => {
    await nc.close();
    await deleteStreams(prefix);
  });

  const config = async () => (await (await nc.jetstreamManager()).streams.info(streamName(prefix, stream.name))).config;

  it("keeps the owner's age limit when a consumer ensures the stream, and lets the owner change it", async () => {
    // A consumer may come first: the stream then keeps everything until its owner sets the limit.
    await ensureStream(nc, prefix, stream);
    expect((await config()).max_age).toBe(0);

    await ensureStream(nc, prefix, stream, { maxAgeSeconds: 7 * 24 * 3_600 });
    expect((await config()).max_age).toBe(nanos(7 * 24 * 3_600 * 1_000));

    await ensureStream(nc, prefix, stream);
    expect((await config()).max_age).toBe(nanos(7 * 24 * 3_600 * 1_000));

    await ensureStream(nc, prefix, stream, { maxAgeSeconds: 3_600 });
    expect((await config()).max_age).toBe(nanos(3_600 * 1_000));
    expect((await config()).duplicate_window).toBe(nanos(2 * 60 * 1_000));
  });

  it('tells the sequences still stored once older messages are gone', async () => {
    expect(await storedSeqs(nc, prefix, stream)).toMatchObject({ first: 0, last: 0 });
    const js = nc.jetstream();
    for (let i = 0; i < 5; i++) await js.publish(`${prefix}.kept.evt.n`, new TextEncoder().encode(String(i)));
    expect(await storedSeqs(nc, prefix, stream)).toMatchObject({ first: 1, last: 5 });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.purge(streamName(prefix, stream.name), { keep: 2 });
    expect(await storedSeqs(nc, prefix, stream)).toMatchObject({ first: 4, last: 5 });
    await jsm.streams.purge(streamName(prefix, stream.name));
    expect(await storedSeqs(nc, prefix, stream)).toMatchObject({ first: 6, last: 5 });
  });
});
