import { Controller, Logger, Module, type INestApplication } from '@nestjs/common';
import { connect, headers as natsHeaders, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { fail, ok, type Failure, type ListTagsRequest, type Reply, type Tag } from '@exchange/contracts';
import { deleteStreams, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { bootstrapService } from '../src/bootstrap/bootstrap-service';
import { HealthController } from '../src/bootstrap/health.controller';
import { currentRequestId } from '../src/logging/request-context';
import { MessagingModule } from '../src/nats/messaging.module';
import { PARTS_HEADER } from '../src/nats/large-payloads';
import { NothingDoneError } from '../src/nats/nothing-done';
import { mayHaveActed, OutcomeUnknownError } from '../src/nats/outcome-unknown';
import { answeredByNobody, RpcClient } from '../src/nats/rpc-client';
import { RpcRoute } from '../src/nats/rpc-route';

const seen: { request: ListTagsRequest; requestId?: string }[] = [];
/** Which replica's controller ran each call (every app has its own instance), by the request's offset. */
const servedBy: { offset: number; replica: TagsTestController }[] = [];

/** A service answering one contract subject, the way real services do. */
@Controller()
class TagsTestController {
  @RpcRoute('catalog.tags.list.v1')
  async list(request: ListTagsRequest): Promise<Reply<Tag[]>> {
    seen.push({ request, requestId: currentRequestId() });
    servedBy.push({ offset: request.offset, replica: this });
    if (request.offset === 13) throw new Error('unexpected failure');
    // A query on a database that is not there, as during a restart of PostgreSQL.
    if (request.offset === 5432) await new Pool({ connectionString: 'postgresql://postgres@127.0.0.1:1/none', max: 1 }).query('SELECT 1');
    if (request.offset === 7) return fail('tag_not_found', 'no tags there');
    // A write whose connection was lost while it ran, which looks like an unavailable database too.
    if (request.offset === 57) throw new OutcomeUnknownError('could not tell whether its write committed', { cause: Object.assign(new Error('terminating connection'), { code: '57P01' }) });
    // Refused before anything was done, whatever the cause (here one that is a 500 of its own).
    if (request.offset === 99) throw new NothingDoneError('the service restarts', { cause: new TypeError('a bug') });
    return ok([]);
  }
}

describe('request/reply over real NATS with the Nest transport', () => {
  const prefix = testPrefix('kit');
  const env = { NATS_URL: TEST_NATS_URL, NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 2000, LOG_LEVEL: 'error' as const };
  let app: INestApplication;
  let nc: NatsConnection;
  let rpc: RpcClient;

  @Module({ imports: [MessagingModule.forRoot(env, 'kit-test')], controllers: [TagsTestController, HealthController] })
  class TestModule {}
  /** One replica of the service: each started so joins the same prefix and queue group ('kit-test'). */
  const startReplica = () => bootstrapService({ name: 'kit-test', module: TestModule, env, healthPort: 0 });

  beforeAll(async () => {
    app = await startReplica();
    nc = await connect({ servers: TEST_NATS_URL });
    rpc = new RpcClient(nc, prefix, 2000);
  });

  afterAll(async () => {
    await app.close();
    await nc.close();
    await deleteStreams(prefix);
  });

  it('delivers a validated request and the reply, with the request id in the handler context', async () => {
    const { requestContext } = await import('../src/logging/request-context');
    const reply = await requestContext.run({ requestId: 'abc-123' }, () => rpc.request('catalog.tags.list.v1', { limit: '5' }));
    expect(reply).toEqual({ ok: true, data: [] });
    expect(seen.at(-1)).toEqual({ request: { limit: 5, offset: 0, ascending: true }, requestId: 'abc-123' });
  });

  it('answers an invalid payload with a 400 reply without calling the handler', async () => {
    const before = seen.length;
    const reply = await rpc.request('catalog.tags.list.v1', { limit: 0 });
    expect(reply).toEqual({ ok: false, status: 400, body: { error: 'limit must be >= 1', code: 'invalid_request' } });
    expect(seen).toHaveLength(before);
  });

  it('passes a coded rejection through and turns an exception into a 500 reply', async () => {
    expect(await rpc.request('catalog.tags.list.v1', { offset: 7 })).toEqual(fail('tag_not_found', 'no tags there'));
    expect(await rpc.request('catalog.tags.list.v1', { offset: 13 })).toEqual(fail('internal_error', 'internal error'));
  });

  it('answers 503 with a retry when the handler could not reach its database, and logs each outage once', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 3; i++) {
        expect(await rpc.request('catalog.tags.list.v1', { offset: 5432 })).toEqual({
          ok: false,
          status: 503,
          body: { error: 'the database is unavailable; retry shortly', code: 'service_unavailable', retry_after_seconds: 1 },
        });
      }
      const outageLines = () => warned.mock.calls.filter(([line]) => String(line).includes('the database is unavailable'));
      expect(outageLines()).toHaveLength(1);
      // An answer that did not meet it ends the outage: the next one is said at once.
      expect(await rpc.request('catalog.tags.list.v1', {})).toEqual({ ok: true, data: [] });
      await rpc.request('catalog.tags.list.v1', { offset: 5432 });
      expect(outageLines()).toHaveLength(2);
    } finally {
      warned.mockRestore();
    }
  });

  it('answers 503 saying the change may have been made when the handler could not tell whether its write committed', async () => {
    const reply = await rpc.request('catalog.tags.list.v1', { offset: 57 });
    expect(reply).toEqual({
      ok: false,
      status: 503,
      body: {
        error: 'catalog.tags.list.v1 could not tell whether its write committed: a change it asked for may have been made, so check before sending it again',
        code: 'service_unavailable',
        retry_after_seconds: 1,
      },
    });
    expect(mayHaveActed(reply as Failure)).toBe(true);
    expect(mayHaveActed(await rpc.request('catalog.tags.list.v1', { offset: 5432 }) as Failure)).toBe(false);
  });

  it('answers 503 to retry, saying nothing was done, when the handler refused before doing anything', async () => {
    const reply = await rpc.request('catalog.tags.list.v1', { offset: 99 });
    expect(reply).toEqual({
      ok: false,
      status: 503,
      body: { error: 'the service restarts; nothing was done; retry shortly', code: 'service_unavailable', retry_after_seconds: 1 },
    });
    expect(mayHaveActed(reply as Failure)).toBe(false);
  });

  it('reports a subject nobody serves as 503 at once', async () => {
    // A timeout far longer than any answer on a loaded machine: "at once" is "well before it".
    const timeoutMs = 20_000;
    const other = new RpcClient(nc, `${prefix}x`, timeoutMs);
    const started = Date.now();
    const reply = await other.request('catalog.tags.list.v1', {});
    expect(reply).toMatchObject({ ok: false, status: 503, body: { code: 'service_unavailable' } });
    expect(Date.now() - started).toBeLessThan(timeoutMs / 4);
    expect(answeredByNobody(reply as Failure)).toBe(true);
    expect((reply as Failure).body.error).toBe('no service is answering catalog.tags.list.v1: nothing was done; retry shortly');
  });

  /** A service that answered in parts and died before they were fetched: their subject has no responder. */
  const answerInPartsAndDie = (subject: string) =>
    nc.subscribe(`${prefix}z.${subject}`, {
      callback: (_, msg) => {
        const parts = natsHeaders();
        parts.set(PARTS_HEADER, `${prefix}z.parts.gone ticket 2`);
        msg.respond(new Uint8Array(0), { headers: parts });
      },
    });
  const WRITE = 'matching.admin.post-only.v1';

  it('says a reply whose parts cannot be fetched may have acted, even when nobody holds them any more', async () => {
    const dead = answerInPartsAndDie(WRITE);
    await nc.flush();
    try {
      const reply = (await new RpcClient(nc, `${prefix}z`, 1000).request(WRITE, { enabled: false })) as Failure;
      expect(mayHaveActed(reply)).toBe(true);
      // It was "no service is answering …: nothing was done", which the gateway makes a 425 "retry".
      expect(answeredByNobody(reply)).toBe(false);
      expect(reply.body.error).toMatch(/^matching\.admin\.post-only\.v1 answered, but /);
    } finally {
      dead.unsubscribe();
    }
  });

  it('tells a service that is slow to answer from one that is not there', async () => {
    const silent = nc.subscribe(`${prefix}y.${WRITE}`);
    await nc.flush();
    try {
      const reply = await new RpcClient(nc, `${prefix}y`, 300).request(WRITE, { enabled: false });
      expect(reply).toMatchObject({ ok: false, status: 503, body: { code: 'service_unavailable', retry_after_seconds: 1 } });
      expect(answeredByNobody(reply as Failure)).toBe(false);
      expect(mayHaveActed(reply as Failure)).toBe(true);
      // It arrived: what it asked may have been done, and the client is told to check (it was "timed out").
      expect((reply as Failure).body.error).toBe('matching.admin.post-only.v1 timed out: a change it asked for may have been made, so check before sending it again');
    } finally {
      silent.unsubscribe();
    }
  });

  it('tells the caller of a read that timed out or lost its answer to retry it: a read changes nothing', async () => {
    const silent = nc.subscribe(`${prefix}y.catalog.tags.list.v1`);
    const dead = answerInPartsAndDie('catalog.tags.list.v1');
    await nc.flush();
    try {
      const slow = (await new RpcClient(nc, `${prefix}y`, 300).request('catalog.tags.list.v1', {})) as Failure;
      expect(slow).toMatchObject({ ok: false, status: 503, body: { code: 'service_unavailable', retry_after_seconds: 1 } });
      expect(slow.body.error).toBe('catalog.tags.list.v1 timed out: it changes nothing; retry shortly');
      expect(mayHaveActed(slow)).toBe(false);
      const lost = (await new RpcClient(nc, `${prefix}z`, 1000).request('catalog.tags.list.v1', {})) as Failure;
      expect(lost.body.error).toMatch(/^catalog\.tags\.list\.v1 answered, but .*: it changes nothing; retry shortly$/);
      expect(mayHaveActed(lost)).toBe(false);
    } finally {
      silent.unsubscribe();
      dead.unsubscribe();
    }
  });

  it('shares requests between two replicas of a service through its queue group: each request runs once', async () => {
    const second = await startReplica();
    try {
      // Offsets none of the other tests use, one per request, to tell these calls and each one apart.
      const offsets = Array.from({ length: 50 }, (_, i) => 1_000 + i);
      const replies = await Promise.all(offsets.map((offset) => rpc.request('catalog.tags.list.v1', { offset })));
      expect(replies.every((reply) => reply.ok)).toBe(true);
      const calls = servedBy.filter((call) => offsets.includes(call.offset));
      // Without the queue group every replica runs every request: 100 calls, each offset twice.
      expect(calls.map((call) => call.offset).sort((a, b) => a - b)).toEqual(offsets);
      const perReplica = [...new Set(calls.map((call) => call.replica))].map((replica) => calls.filter((call) => call.replica === replica).length);
      // Both replicas served (NATS picks a member at random: one left out of 50 is a chance of 2^-49).
      expect(perReplica).toHaveLength(2);
      expect(Math.min(...perReplica)).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('serves the health endpoint', async () => {
    const address = app.getHttpServer().address();
    const response = await fetch(`http://127.0.0.1:${address.port}/healthz`);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
