import { Controller, Module, type INestApplication } from '@nestjs/common';
import { connect, headers as natsHeaders, type NatsConnection } from 'nats';
import { ok, type ImportReport, type ImportRequest, type Reply } from '@exchange/contracts';
import { deleteStreams, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { bootstrapService } from '../src/bootstrap/bootstrap-service';
import { LargePayloads, PARTS_HEADER, PartsUnavailableError } from '../src/nats/large-payloads';
import { MessagingModule } from '../src/nats/messaging.module';
import { RpcClient } from '../src/nats/rpc-client';
import { RpcRoute } from '../src/nats/rpc-route';

/** Answers an import with every event's slug twice over: the reply is twice the request. */
@Controller()
class EchoController {
  @RpcRoute('catalog.admin.import.v1')
  async import(request: ImportRequest): Promise<Reply<ImportReport>> {
    const created = request.events.map((event, i) => ({ eventId: String(i), slug: `${String(event.slug)}${String(event.slug)}`, markets: i }));
    const at = '2026-11-26T00:00:00.000Z';
    return ok({ id: '0b5c2a7e-8d1f-4c3b-9a6e-2f4d5c6b7a89', status: 'done', total: created.length, created, skipped: [], startedAt: at, finishedAt: at });
  }
}

describe('payloads larger than one NATS message', () => {
  const prefix = testPrefix('large');
  const env = { NATS_URL: TEST_NATS_URL, NATS_PREFIX: prefix, RPC_TIMEOUT_MS: 5000, LOG_LEVEL: 'error' as const };
  let app: INestApplication;
  let nc: NatsConnection;
  let watcher: NatsConnection;
  let rpc: RpcClient;
  const partRequests: string[] = [];

  beforeAll(async () => {
    @Module({ imports: [MessagingModule.forRoot(env, 'large-test')], controllers: [EchoController] })
    class TestModule {}
    app = await bootstrapService({ name: 'large-test', module: TestModule, env, healthPort: 0 });
    nc = await connect({ servers: TEST_NATS_URL });
    rpc = new RpcClient(nc, prefix, 5000);
    watcher = await connect({ servers: TEST_NATS_URL });
    watcher.subscribe(`${prefix}.rpc.parts.>`, { callback: (_error, message) => partRequests.push(message.subject) });
    await watcher.flush();
  });

  afterAll(async () => {
    await app.close();
    await nc.close();
    await watcher.close();
    await deleteStreams(prefix);
  });

  it('carries a request and a reply of several megabytes whole, fetched in parts from each sender', async () => {
    const maxPayload = nc.info!.max_payload;
    // 40 events of 64 KB each: the request is 2.5 times the server's limit, the reply 5 times.
    const events = Array.from({ length: 40 }, (_, i) => ({ slug: `${i}-${'s'.repeat(64 * 1024)}` }));
    const reply = await rpc.request('catalog.admin.import.v1', { events });

    expect(reply.ok).toBe(true);
    const report = (reply as { data: ImportReport }).data;
    expect(report.created).toHaveLength(40);
    report.created.forEach((created, i) => expect(created).toEqual({ eventId: String(i), slug: `${events[i]!.slug}${events[i]!.slug}`, markets: i }));
    expect(JSON.stringify(report).length).toBeGreaterThan(4 * maxPayload);
    // The service fetched the request's parts from the client's subject and the client the reply's from the service's.
    await watcher.flush();
    const subjects = [...new Set(partRequests)];
    expect(subjects).toHaveLength(2);
    expect(partRequests.length).toBeGreaterThanOrEqual(3 + 5);
  });

  it('answers a request within the limit whose reply is not (the reply threw out of the transport)', async () => {
    const events = Array.from({ length: 4 }, (_, i) => ({ slug: `${i}-${'r'.repeat(200 * 1024)}` }));
    const reply = await rpc.request('catalog.admin.import.v1', { events });
    expect(reply.ok).toBe(true);
    expect((reply as { data: ImportReport }).data.created.map((created) => created.slug.length)).toEqual(events.map((event) => 2 * event.slug.length));
    // The service is still there.
    expect(await rpc.request('catalog.admin.import.v1', { events: [{ slug: 'after' }] })).toMatchObject({ ok: true });
  });

  it('sends a message within the limit as it is, without parts', async () => {
    const before = partRequests.length;
    const reply = await rpc.request('catalog.admin.import.v1', { events: [{ slug: 'small' }] });
    expect(reply).toMatchObject({ ok: true, data: { created: [{ eventId: '0', slug: 'smallsmall', markets: 0 }], skipped: [] } });
    await watcher.flush();
    expect(partRequests.length).toBe(before);
  });

  it('refuses parts that are not held, with an error of its own', async () => {
    const payloads = LargePayloads.of(nc, prefix);
    const outgoing = payloads.outgoing(new Uint8Array(payloads.partBytes + 1));
    const ticket = outgoing.headers!.get(PARTS_HEADER);
    const [subject, id] = ticket.split(' ');
    const forged = natsHeaders();
    forged.set(PARTS_HEADER, `${subject} ${id}x 2`);
    await expect(payloads.payloadOf({ data: outgoing.data, headers: forged }, 2000)).rejects.toBeInstanceOf(PartsUnavailableError);
    // The real ticket still fetches the payload whole.
    expect((await payloads.payloadOf(outgoing, 2000)).length).toBe(payloads.partBytes + 1);
  });
});
