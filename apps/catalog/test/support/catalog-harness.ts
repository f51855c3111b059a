import path from 'node:path';
import { connect, type NatsConnection } from 'nats';
import type { INestApplication, Type } from '@nestjs/common';
import { type Reply, type RpcResponse, type RpcSubject } from '@exchange/contracts';
import { bootstrapService, createTestDatabase, dropDatabase, RpcClient } from '@exchange/service-kit';
import { deleteStreams, rpcCalls, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { CatalogModule } from '../../src/catalog.module';
import { loadCatalogEnv } from '../../src/config';

export interface CatalogUnderTest {
  prefix: string;
  databaseUrl: string;
  nc: NatsConnection;
  request<S extends RpcSubject>(subject: S, payload: unknown): Promise<Reply<RpcResponse<S>>>;
  /** The data of a successful reply; fails the test otherwise. */
  data<S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>>;
  /** A provider of the running app. */
  service<T>(type: Type<T>): T;
  restart(): Promise<void>;
  /** How often the catalog asked to exit (main.ts exits the process there; its supervisor restarts it). */
  exits(): number;
  stop(): Promise<void>;
}

/** The catalog service in this process, on a fresh database and its own NATS prefix. */
export async function startCatalog(options: { demo?: boolean; env?: Record<string, string> } = {}): Promise<CatalogUnderTest> {
  const prefix = testPrefix('cat');
  const databaseUrl = await createTestDatabase(path.join(__dirname, '../..'), 'catalog');
  const env = loadCatalogEnv({
    DATABASE_URL: databaseUrl,
    NATS_URL: TEST_NATS_URL,
    NATS_PREFIX: prefix,
    HEALTH_PORT: '0',
    DEMO_DATA: options.demo ? 'true' : 'false',
    LOG_LEVEL: 'warn',
    ...options.env,
  });
  let exits = 0;
  const boot = () => bootstrapService({ name: 'catalog', module: CatalogModule.forRoot(env, () => void exits++), env, healthPort: 0 });
  let app: INestApplication = await boot();
  const nc = await connect({ servers: TEST_NATS_URL });
  const rpc = new RpcClient(nc, prefix, 10_000);
  const { request, data } = rpcCalls(rpc);
  return {
    prefix,
    databaseUrl,
    nc,
    request,
    data,
    service: (type) => app.get(type),
    async restart() {
      await app.close();
      app = await boot();
    },
    exits: () => exits,
    async stop() {
      await app.close();
      await nc.close();
      await dropDatabase(databaseUrl);
      await deleteStreams(prefix);
    },
  };
}

