import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type NatsConnection } from 'nats';
import { ok, type Failure, type ListTagsRequest, type Reply, type Tag } from '@exchange/contracts';
import { sleep, startPrivateNats, testPrefix, until, type PrivateNats } from '@exchange/testing';
import { HealthController } from '../src/bootstrap/health.controller';
import { HealthChecks } from '../src/bootstrap/health-checks';
import { PrefixedNatsServer } from '../src/nats/prefixed-nats-server';
import { connectionState } from '../src/nats/connection-state';
import { mayHaveActed } from '../src/nats/outcome-unknown';
import { RpcClient } from '../src/nats/rpc-client';
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
    const strategy = new PrefixedNatsServer({ natsUrl: nats.url, prefix, queue: 'outage-test', reconnectTimeWaitMs: 50 });
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
    // A client with a long timeout: held until the reconnection, the request would wait all of it.
    const patient = new RpcClient(client, prefix, 10_000);
    const started = Date.now();
    const unsent = await patient.request('catalog.tags.list.v1', {});
    expect(Date.now() - started).toBeLessThan(500);
    expect(unsent).toEqual({
      ok: false,
      status: 503,
      body: { error: 'not connected to the message bus (NATS): nothing was sent; retry shortly', code: 'service_unavailable', retry_after_seconds: 1 },
    });
    expect(mayHaveActed(unsent as Failure)).toBe(false);

    // Long enough for thirty attempts and more: before, the service's connection had closed for good.
    await sleep(3_000);
    await nats.start();

    // The service resubscribes when its reconnection succeeds: give it a few of its 50 ms attempts.
    let reply = await rpc.request('catalog.tags.list.v1', {});
    await until(async () => {
      if (!reply.ok) reply = await rpc.request('catalog.tags.list.v1', {});
      return reply.ok ? true : undefined;
    }, 20_000, 'the service answering after the outage').catch(() => undefined);
    // The last reply, whatever it was: a failure shows what the service answered.
    expect(reply).toEqual({ ok: true, data: [] });
  }, 60_000);
});

describe('the health endpoint of a service whose NATS connection closed', () => {
  it('answers 503, which a probe acts on (it answered 200 with status down)', async () => {
    const nats = await startPrivateNats();
    try {
      const nc = await connect({ servers: nats.url });
      const checks = new HealthChecks();
      const health = new HealthController(nc, checks);
      expect(health.health()).toEqual({ status: 'ok' });
      // A part kept from its work makes it degraded, still a 200 (a restart would not help).
      let problem: string | undefined = 'cannot write: disk full';
      checks.add('journal', () => problem);
      checks.add('outbox', () => undefined);
      expect(health.health()).toEqual({ status: 'degraded', problems: { journal: 'cannot write: disk full' } });
      problem = undefined;
      expect(health.health()).toEqual({ status: 'ok' });
      await nc.close();
      expect(() => health.health()).toThrow(expect.objectContaining({ status: 503, response: { status: 'down' } }));
    } finally {
      await nats.close();
    }
  });
});
