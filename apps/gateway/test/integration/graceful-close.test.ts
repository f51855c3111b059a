import { createConnection } from 'node:net';
import { connect, JSONCodec, type Msg, type NatsConnection } from 'nats';
import { socketText, TEST_NATS_URL, until } from '@exchange/testing';
import { startAuthGateway, type AuthGateway } from '../support/auth-harness';

const codec = JSONCodec();

/**
 * A gateway told to stop (SIGTERM: a rolling update, a scale-down) serves the requests its open connections
 * still bring, each answer closing its connection. Until the thirty-second session Fastify answered those
 * with a 503 of its own shape (no `code`, no request id, no Retry-After; found by a probe of two replicas).
 */
describe('a gateway closing with connections still open', () => {
  let gw: AuthGateway;
  let nc: NatsConnection;
  let closed = false;

  beforeAll(async () => {
    gw = await startAuthGateway('gw_close');
    nc = await connect({ servers: TEST_NATS_URL });
  });
  afterAll(async () => {
    await nc?.close();
    if (!closed) await gw?.close();
  });

  it('answers a request arriving on a busy connection during the close as usual, with Connection: close', async () => {
    // The catalog's tag list, held until the test lets it go: a request in flight when the close begins.
    const held: Msg[] = [];
    const service = nc.subscribe(`${gw.env.NATS_PREFIX}.catalog.tags.list.v1`, { callback: (_error, msg) => held.push(msg) });
    await nc.flush();
    const answer = (msg: Msg) => msg.respond(codec.encode({ id: (codec.decode(msg.data) as { id: string }).id, response: { ok: true, data: [] }, isDisposed: true }));

    const socket = createConnection(gw.gateway.ports.combined, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const received = socketText(socket);
    socket.write('GET /tags HTTP/1.1\r\nHost: x\r\nx-request-id: first\r\n\r\n');
    await until(async () => (held.length === 1 ? true : undefined), 5_000, 'the first request forwarded');

    closed = true;
    const closing = gw.close();
    // The close has begun (idle connections are dropped, no new ones taken); this one is busy.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('GET /tags HTTP/1.1\r\nHost: x\r\nx-request-id: second\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer(held[0]!);
    await until(async () => (held.length === 2 ? true : undefined), 5_000, 'the second request forwarded');
    answer(held[1]!);

    const text = await received;
    await closing;
    service.unsubscribe();
    const answers = text.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[0]).toMatch(/\r\nx-request-id: first\r\n/i);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[1]).toMatch(/\r\nx-request-id: second\r\n/i);
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
  });
});
