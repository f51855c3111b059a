import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { CATALOG_STREAM, type MarketSnapshot, type Reply, type RpcResponse, type RpcSubject } from '@exchange/contracts';
import { bootstrapService, createTestDatabase, dropDatabase, ensureStream, prefixed, RpcClient } from '@exchange/service-kit';
import { aMarketSnapshot as aRandomMarketSnapshot, deleteStreams, rpcCalls, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { loadMatchingEnv } from '../../src/config';
import { EngineService } from '../../src/engine-host/engine.service';
import { MatchingModule } from '../../src/matching.module';

export interface MatchingUnderTest {
  prefix: string;
  databaseUrl: string;
  engine(): EngineService;
  request<S extends RpcSubject>(subject: S, payload: unknown): Promise<Reply<RpcResponse<S>>>;
  data<S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>>;
  /** Announces a market the way the catalog does: a snapshot on its JetStream stream. */
  publishMarket(snapshot: MarketSnapshot): Promise<void>;
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/** order-matching in this process on a fresh database and NATS prefix; a journal failure fails the test. */
export async function startMatching(env: Record<string, string> = {}): Promise<MatchingUnderTest> {
  const prefix = testPrefix('om');
  const databaseUrl = await createTestDatabase(path.join(__dirname, '../..'), 'matching');
  // A test may bring a NATS server of its own (to stop it); the machine's otherwise.
  const natsUrl = env.NATS_URL ?? TEST_NATS_URL;
  const nc: NatsConnection = await connect({ servers: natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  await ensureStream(nc, prefix, CATALOG_STREAM);
  const boot = (extra: Record<string, string>) => {
    const config = loadMatchingEnv({
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      NATS_PREFIX: prefix,
      HEALTH_PORT: '0',
      LOG_LEVEL: 'warn',
      POST_ONLY_AFTER_RESTART_SECONDS: '0',
      ...env,
      ...extra,
    });
    return bootstrapService({
      name: 'order-matching',
      module: MatchingModule.forRoot(config, (error) => {
        throw error;
      }),
      env: config,
      healthPort: 0,
    });
  };
  let app: INestApplication = await boot({});
  const rpc = new RpcClient(nc, prefix, 10_000);
  const { request, data } = rpcCalls(rpc);
  const codec = JSONCodec();
  return {
    prefix,
    databaseUrl,
    engine: () => app.get(EngineService),
    request,
    data,
    async publishMarket(snapshot) {
      await nc.jetstream().publish(prefixed(prefix, 'catalog.evt.market.created.v1'), codec.encode(snapshot));
      const deadline = Date.now() + 5_000;
      while (!app.get(EngineService).state.markets.has(snapshot.conditionId)) {
        if (Date.now() > deadline) throw new Error('market did not arrive');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async restart(extra = {}) {
      await app.close();
      app = await boot(extra);
    },
    async stop() {
      await app.close();
      await nc.close();
      await dropDatabase(databaseUrl);
      await deleteStreams(prefix);
    },
  };
}

/** The catalog's snapshot of a market with the given condition and tokens. */
export function aMarketSnapshot(conditionId: string, tokens: [string, string], overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  return aRandomMarketSnapshot({ conditionId, tokenIds: tokens, ...overrides });
}
