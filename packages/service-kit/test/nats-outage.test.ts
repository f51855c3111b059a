import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from 'nats';
import { ok, type Failure, type ListTagsRequest, type Reply, type Tag } from '@exchange/contracts';
import { startPrivateNats, testPrefix, until, type PrivateNats } from '@exchange/testing';
import { HealthController } from '../src/bootstrap/health.controller';
import { PrefixedNatsServer } from '../src/nats/prefixed-nats-server';
import { connectionState } from '../src/nats/connection-state';
import { neverSent, RpcClient } from '../src/nats/rpc-client';
import { RpcRoute } from '../src/nats/rpc-route';

@Controller()
class TagsController {
  @RpcRoute('catalog.tags.list.v1')
  async list(_request: ListTagsRequest): Promise<Reply<Tag[]>> {
    return ok([]);
  }
}

@Module({ controllers: [TagsController] })
class TagsModule {}

describe('a service across a NATS outage longer than ten reconnection attempts', () => {
  const prefix = testPrefix('outage');
  let nats: PrivateNats;
  let app: INestMicroservice;
  let client: NatsConnection;

  beforeAll(async () => {
    nats = await startPrivateNats();
    // Attempts 50 ms apart: nats.js' default of ten gives up within about 1.5 s (jitter included).
    const strategy = new PrefixedNatsServer({ servers: nats.url, prefix, queue: 'outage-test', reconnectTimeWaitMs: 50 });
    app = await NestFactory.createMicroservice(TagsModule, { strategy, logger: false });
    await app.listen();
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await nats.close();
  });

  it('takes requests again once NATS is back; meanwhile a client says at once that it sent nothing', async () => {
    client = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 50 });
    const rpc = new RpcClient(client, prefix, 1_000);
    expect(await rpc.request('catalog.tags.list.v1', {})).toEqual({ ok: true, data: [] });
    await nats.stop();

    // Before, the request was held until the reconnection and answered "timed out" after its timeout,
    // so that a placement was told it might have been placed (found by a chaos probe).
    await until(async () => (connectionState(client).connected ? undefined : true));
    const started = Date.now();
    const unsent = await rpc.request('catalog.tags.list.v1', {});
    expect(Date.now() - started).toBeLessThan(50);
    expect(unsent).toEqual({
      ok: false,
      status: 503,
      body: { error: 'not connected to the message bus (NATS): nothing was sent; retry shortly', code: 'service_unavailable', retry_after_seconds: 1 },
    });
    expect(neverSent(unsent as Failure)).toBe(true);

    // Long enough for thirty attempts and more: before, the service's connection had closed for good.
    await new Promise((r) => setTimeout(r, 3_000));
    await nats.start();

    let reply = await rpc.request('catalog.tags.list.v1', {});
    // The service resubscribes when its reconnection succeeds: give it a few of its 50 ms attempts.
    for (let i = 0; i < 60 && !reply.ok; i++) {
      await new Promise((r) => setTimeout(r, 100));
      reply = await rpc.request('catalog.tags.list.v1', {});
    }
    expect(reply).toEqual({ ok: true, data: [] });
  });
});

describe('the health endpoint of a service whose NATS connection closed', () => {
  it('answers 503, which a probe acts on (it answered 200 with status down)', async () => {
    const nats = await startPrivateNats();
    try {
      const nc = await connect({ servers: nats.url });
      const health = new HealthController(nc);
      expect(health.health()).toEqual({ status: 'ok' });
      await nc.close();
      expect(() => health.health()).toThrow(expect.objectContaining({ status: 503, response: { status: 'down' } }));
    } finally {
      await nats.close();
    }
  });
});
