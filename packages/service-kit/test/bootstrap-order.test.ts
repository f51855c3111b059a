import { Controller, Injectable, Module, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import { ok, type ListTagsRequest, type Reply, type Tag } from '@exchange/contracts';
import { deleteStreams, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { bootstrapService } from '../src/bootstrap/bootstrap-service';
import { MessagingModule } from '../src/nats/messaging.module';
import { RpcClient } from '../src/nats/rpc-client';
import { RpcRoute } from '../src/nats/rpc-route';

/** State that takes a while to load, as order-matching's engine does. */
@Injectable()
class SlowState implements OnModuleInit {
  loaded = false;

  async onModuleInit(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 800));
    this.loaded = true;
  }
}

@Controller()
class StateController {
  constructor(private readonly state: SlowState) {}

  /** Answers with a tag named after whether the state was loaded when the request was served. */
  @RpcRoute('catalog.tags.list.v1')
  async list(_request: ListTagsRequest): Promise<Reply<Tag[]>> {
    return ok([{ id: '1', label: String(this.state.loaded), slug: 'state', createdAt: '', updatedAt: '', requiresTranslation: false }]);
  }
}

describe('bootstrapService', () => {
  const prefix = testPrefix('boot');
  const env = { NATS_URL: TEST_NATS_URL, NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 2000, LOG_LEVEL: 'error' as const };
  let app: INestApplication | undefined;
  let nc: NatsConnection;

  beforeAll(async () => {
    nc = await connect({ servers: TEST_NATS_URL });
  });
  afterAll(async () => {
    await app?.close();
    await nc.close();
    await deleteStreams(prefix);
  });

  it('serves no request before every module finished its onModuleInit', async () => {
    @Module({ imports: [MessagingModule.forRoot(env, 'boot-test')], controllers: [StateController], providers: [SlowState] })
    class TestModule {}
    const starting = bootstrapService({ name: 'boot-test', module: TestModule, env, healthPort: 0 });
    const rpc = new RpcClient(nc, prefix, 2000);
    // Ask over and over while the service starts: the first answer must already see the state loaded.
    let first: Reply<Tag[]> | undefined;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const reply = await rpc.request('catalog.tags.list.v1', {});
      if (reply.ok) {
        first = reply;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    app = await starting;
    expect(first).toEqual({ ok: true, data: [expect.objectContaining({ label: 'true' })] });
  });

  it('answers a request sent from another connection the moment it has started', async () => {
    @Module({
      imports: [MessagingModule.forRoot(env, 'boot-test')],
      controllers: [StateController],
      providers: [{ provide: SlowState, useValue: { loaded: true } }],
    })
    class TestModule {}
    await app?.close();
    const rpc = new RpcClient(nc, prefix, 2000);
    // Its subscriptions reach the NATS server asynchronously; a start that did not wait for them could be
    // answered "no responders" (a market-data test's request right after a restart was, once in CI).
    for (let round = 0; round < 20; round++) {
      app = await bootstrapService({ name: 'boot-test', module: TestModule, env, healthPort: 0 });
      expect(await rpc.request('catalog.tags.list.v1', {})).toMatchObject({ ok: true });
      await app.close();
      app = undefined;
    }
  });
});
