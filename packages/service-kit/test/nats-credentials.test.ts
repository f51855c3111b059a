import { Controller, Inject, Module, type INestApplication } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import { ok, type ListTagsRequest, type Reply, type Tag } from '@exchange/contracts';
import { startPrivateNats, testPrefix, type PrivateNats } from '@exchange/testing';
import { bootstrapService } from '../src/bootstrap/bootstrap-service';
import { ensureStream } from '../src/jetstream/streams';
import { MessagingModule, NATS_CONNECTION } from '../src/nats/messaging.module';
import { natsServerOptions } from '../src/nats/nats-servers';
import { RpcClient } from '../src/nats/rpc-client';
import { RpcRoute } from '../src/nats/rpc-route';

/** Answers over the service's request listener and creates a stream over its other connection. */
@Controller()
class TagsController {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  @RpcRoute('catalog.tags.list.v1')
  async list(_request: ListTagsRequest): Promise<Reply<Tag[]>> {
    const stream = await ensureStream(this.nc, prefix, { name: 'LOGIN', subjects: 'login.>' });
    return ok([{ id: '1', label: stream, slug: 'login', createdAt: '', updatedAt: '', requiresTranslation: false }]);
  }
}

const prefix = testPrefix('login');

/** A NATS server that asks for credentials, as a managed or hardened one does. */
describe.each([
  ['a user and a password', { user: 'order-matching', pass: 'p@ss:w/rd' }, 'order-matching:p%40ss%3Aw%2Frd@'],
  ['a token', { token: 't0ken-9f2c' }, 't0ken-9f2c@'],
])('a service whose NATS_URL carries %s', (_kind, login, userPart) => {
  let nats: PrivateNats;
  let app: INestApplication | undefined;
  let client: NatsConnection;

  const env = (natsUrl: string) => ({ NATS_URL: natsUrl, NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 2000, LOG_LEVEL: 'error' as const });
  const start = (natsUrl: string) => {
    @Module({ imports: [MessagingModule.forRoot(env(natsUrl), 'login-test')], controllers: [TagsController] })
    class TestModule {}
    return bootstrapService({ name: 'login-test', module: TestModule, env: env(natsUrl), healthPort: 0 });
  };

  beforeAll(async () => {
    nats = await startPrivateNats({ jetstream: true, login });
    client = await connect({ servers: nats.url, ...login });
  });
  afterAll(async () => {
    await app?.close();
    await client?.close();
    await nats.close();
  });

  it('logs in with both of its connections: requests are answered and JetStream is used', async () => {
    app = await start(nats.url.replace('nats://', `nats://${userPart}`));
    const rpc = new RpcClient(client, prefix, 2000);
    expect(await rpc.request('catalog.tags.list.v1', {})).toEqual({ ok: true, data: [expect.objectContaining({ label: `${prefix}_LOGIN` })] });
  });

  it('does not send them to a tls:// server that offers no TLS', async () => {
    await expect(connect(natsServerOptions(nats.url.replace('nats://', `tls://${userPart}`)))).rejects.toThrow(/tls/i);
  });

  it('is refused by that server without them, as it was when nats.js was handed the URL with its user part', async () => {
    await expect(connect({ servers: nats.url })).rejects.toThrow(/Authorization Violation/i);
    await expect(connect({ servers: nats.url.replace('nats://', `nats://${userPart}`) })).rejects.toThrow(/Authorization Violation/i);
  });
});
