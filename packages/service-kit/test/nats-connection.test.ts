import { connect, type NatsConnection } from 'nats';
import { startPrivateNats, TEST_NATS_URL, testPrefix, type PrivateNats } from '@exchange/testing';
import { LargePayloads, PARTS_HEADER } from '../src/nats/large-payloads';
import { connectNats, LEAST_MAX_PAYLOAD } from '../src/nats/nats-connection';

/** A NATS server whose max_payload is below what the exchange needs (found by a resource probe). */
describe('NATS servers with a small max_payload', () => {
  let small: PrivateNats;
  let tiny: PrivateNats;
  beforeAll(async () => {
    [small, tiny] = await Promise.all([startPrivateNats({ maxPayload: 256 * 1024 }), startPrivateNats({ maxPayload: 64 * 1024 })]);
  });
  afterAll(async () => {
    await Promise.all([small?.close(), tiny?.close()]);
  });

  it("refuses to connect a service to a server whose max_payload is below the default, saying so, and connects to one that has it", async () => {
    await expect(connectNats(small.url, 'small-test')).rejects.toThrow(
      `the NATS server's max_payload is 262144 bytes; the exchange needs at least ${LEAST_MAX_PAYLOAD} (the server's default): raise it in the server's configuration`,
    );
    const nc = await connectNats(TEST_NATS_URL, 'default-test');
    try {
      expect(nc.info?.max_payload).toBeGreaterThanOrEqual(LEAST_MAX_PAYLOAD);
    } finally {
      await nc.close();
    }
  });

  it('still carries a large payload in parts of half the limit through a server of 64 KiB (parts of no bytes were cut for good)', async () => {
    const nc: NatsConnection = await connect({ servers: tiny.url });
    try {
      const payloads = LargePayloads.of(nc, testPrefix('tiny'));
      const payload = Buffer.alloc(200 * 1024, 7);
      const sent = payloads.outgoing(payload);
      expect(sent.data).toHaveLength(0);
      // 200 KiB in parts of 32 KiB.
      expect(sent.headers?.get(PARTS_HEADER).split(' ')[2]).toBe('7');
      expect(Buffer.from(await payloads.payloadOf(sent, 2_000)).equals(payload)).toBe(true);
    } finally {
      await nc.close();
    }
  });
});
