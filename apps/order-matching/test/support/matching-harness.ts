import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { Pool } from 'pg';
import { CATALOG_STREAM, type Caller, type MarketSnapshot, type OrderResult, type Reply, type RpcResponse, type RpcSubject, type VerifiedOrder } from '@exchange/contracts';
import { bootstrapService, createTestDatabase, dropDatabase, ensureStream, HealthController, prefixed, RpcClient } from '@exchange/service-kit';
import { aMarketSnapshot as aRandomMarketSnapshot, deleteStreams, eventually, rpcCalls, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { loadMatchingEnv } from '../../src/config';
import { EngineService } from '../../src/engine-host/engine.service';
import { MatchingModule } from '../../src/matching.module';
import { expectJournalConserved } from './journal-audit';

/** Requests that may move collateral or shares: the harness audits the journal after each (journal-audit.ts). */
const MOVES_MONEY = new Set<RpcSubject>([
  'matching.admin.deposit.v1',
  'matching.admin.withdraw.v1',
  'matching.admin.resolve.v1',
  'matching.split.v1',
  'matching.merge.v1',
  'matching.redeem.v1',
  'matching.orders.place.v1',
  'matching.orders.cancel.v1',
  'matching.orders.cancel-all.v1',
  'matching.orders.cancel-market.v1',
]);

export interface MatchingUnderTest {
  prefix: string;
  databaseUrl: string;
  engine(): EngineService;
  request<S extends RpcSubject>(subject: S, payload: unknown): Promise<Reply<RpcResponse<S>>>;
  data<S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>>;
  /** Places one order for the caller in a message of its own; answers its result. */
  place(caller: Caller, order: VerifiedOrder): Promise<OrderResult>;
  /**
   * Conservation of collateral and shares in the committed tables and in memory, and the two in
   * agreement. Run after every request that may move money (and after each restart); call it
   * yourself after what moves money without a request: expiries, cancels on disconnect.
   */
  expectConserved(): Promise<void>;
  /** Announces a market the way the catalog does: a snapshot on its JetStream stream. */
  publishMarket(snapshot: MarketSnapshot): Promise<void>;
  restart(env?: Record<string, string>): Promise<void>;
  /** What `GET /healthz` answers now. */
  health(): ReturnType<HealthController['health']>;
  /** Takes what order-matching passed its fatal handler (main.ts exits there; its supervisor restarts it). */
  takeFatal(): unknown[];
  /** Fails when order-matching called its fatal handler and the test did not take it. */
  stop(): Promise<void>;
}

/**
 * order-matching in this process on a fresh database and NATS prefix; a fatal failure (a journal write,
 * a lost feed) fails the test at `stop` unless it took it, and so does a request that may move money after which the journal does not conserve (journal-audit.ts).
 */
export async function startMatching(env: Record<string, string> = {}): Promise<MatchingUnderTest> {
  const prefix = testPrefix('om');
  const databaseUrl = await createTestDatabase(path.join(__dirname, '../..'), 'matching');
  // A test may bring a NATS server of its own (to stop it); the machine's otherwise.
  const natsUrl = env.NATS_URL ?? TEST_NATS_URL;
  const nc: NatsConnection = await connect({ servers: natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  await ensureStream(nc, prefix, CATALOG_STREAM);
  const fatal: unknown[] = [];
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
      module: MatchingModule.forRoot(config, (error) => void fatal.push(error)),
      env: config,
      healthPort: 0,
    });
  };
  let app: INestApplication = await boot({});
  const rpc = new RpcClient(nc, prefix, 10_000);
  const calls = rpcCalls(rpc);
  const codec = JSONCodec();
  // The audit's own connection: a test may end the engine's (lost-connections), and this one with them.
  const auditPool = new Pool({ connectionString: databaseUrl, max: 1 });
  auditPool.on('error', () => undefined);
  const engine = () => app.get(EngineService);
  const expectConserved = () => expectJournalConserved(auditPool, () => engine().state);
  // While the engine restarts, the one `engine()` answers is the old one: audited once the new one is up.
  let restarting = false;
  const request = async <S extends RpcSubject>(subject: S, payload: unknown): Promise<Reply<RpcResponse<S>>> => {
    const reply = await calls.request(subject, payload);
    if (MOVES_MONEY.has(subject) && !restarting) await expectConserved();
    return reply;
  };
  const data = async <S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>> => {
    const reply = await request(subject, payload);
    if (!reply.ok) throw new Error(`${subject} failed: ${JSON.stringify(reply)}`);
    return reply.data;
  };
  return {
    prefix,
    databaseUrl,
    engine,
    request,
    data,
    async place(caller, order) {
      return (await data('matching.orders.place.v1', { placements: [{ caller, orders: [order] }] }))[0]![0]!;
    },
    expectConserved,
    async publishMarket(snapshot) {
      await nc.jetstream().publish(prefixed(prefix, 'catalog.evt.market.created.v1'), codec.encode(snapshot));
      await eventually(() => engine().state.markets.has(snapshot.conditionId), `market ${snapshot.conditionId} arriving`);
    },
    async restart(extra = {}) {
      restarting = true;
      try {
        await app.close();
        app = await boot(extra);
      } finally {
        restarting = false;
      }
      await expectConserved();
    },
    takeFatal: () => fatal.splice(0),
    health: () => app.get(HealthController).health(),
    async stop() {
      await app.close();
      await auditPool.end();
      await nc.close();
      await dropDatabase(databaseUrl);
      await deleteStreams(prefix);
      if (fatal.length) throw new Error(`order-matching called its fatal handler: ${fatal.map(String).join('; ')}`);
    },
  };
}

/** The catalog's snapshot of a market with the given condition and tokens. */
export function aMarketSnapshot(conditionId: string, tokens: [string, string], overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  return aRandomMarketSnapshot({ conditionId, tokenIds: tokens, ...overrides });
}
