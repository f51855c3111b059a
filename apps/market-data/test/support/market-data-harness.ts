import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Redis } from 'ioredis';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import {
  CATALOG_STREAM,
  fail,
  MATCHING_BATCH_SUBJECT,
  MATCHING_STREAM,
  ok,
  parseUnits,
  type BookEvent,
  type MarketSnapshot,
  type MarketStateEvent,
  type MatchingEvent,
  type Reply,
  type RpcResponse,
  type RpcSubject,
  type TradeEvent,
} from '@exchange/contracts';
import { bootstrapService, createTestDatabase, dropDatabase, ensureStream, outboxMessageId, prefixed, RpcClient } from '@exchange/service-kit';
import { deleteRedisKeys, deleteStreams, rpcCalls, TEST_NATS_URL, testPrefix, until } from '@exchange/testing';
export { aMarketSnapshot } from '@exchange/testing';
import { loadMarketDataEnv } from '../../src/config';
import { MarketDataModule } from '../../src/market-data.module';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface MarketDataUnderTest {
  prefix: string;
  databaseUrl: string;
  redis: Redis;
  nc: NatsConnection;
  request<S extends RpcSubject>(subject: S, payload: unknown): Promise<Reply<RpcResponse<S>>>;
  /** The data of a successful reply; fails the test otherwise. */
  data<S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>>;
  /** Publishes as the catalog does (stream CATALOG). */
  publishMarket(snapshot: MarketSnapshot): Promise<void>;
  /** Publishes as order-matching does (stream MATCHING): the events of one batch in one message. */
  publishBatch(events: MatchingEvent[]): Promise<void>;
  /** Publishes as order-matching's outbox relay does: the batch of outbox row `rowId`, under its message id. */
  publishRow(rowId: bigint, events: MatchingEvent[]): Promise<void>;
  /** A batch of one event. */
  publishBook(event: BookEvent): Promise<void>;
  publishTrade(event: TradeEvent): Promise<void>;
  publishResolution(event: MarketStateEvent): Promise<void>;
  /** Closes the app, runs `whileDown`, boots it again on the same database. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Answers as order-matching does what a replica rebuilds from, with these pages in turn (read when asked). */
  answerAsEngine<S extends EngineSourceSubject>(subject: S, pages: RpcResponse<S>[]): void;
  /** Answers requests on a subject as another service would (the catalog, say). */
  answer(subject: RpcSubject, reply: (data: unknown) => Reply<unknown>): void;
  /** How often market-data asked to exit (main.ts exits the process there; its supervisor restarts it). */
  exits(): number;
  /** Waits until market-data answers for the market (its catalog snapshot applied). */
  untilMarketKnown(conditionId: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

type EngineSourceSubject = 'matching.books.snapshots.v1' | 'matching.trades.history.v1';

const codec = JSONCodec();

/** market-data in this process, on a fresh database, NATS prefix and Redis key prefix; `overrides` of its environment. */
export async function startMarketData(overrides: Record<string, string> = {}): Promise<MarketDataUnderTest> {
  const prefix = testPrefix('md');
  const databaseUrl = await createTestDatabase(path.join(__dirname, '../..'), 'marketdata');
  const nc = await connect({ servers: TEST_NATS_URL });
  await ensureStream(nc, prefix, CATALOG_STREAM);
  await ensureStream(nc, prefix, MATCHING_STREAM);
  const env = loadMarketDataEnv({
    DATABASE_URL: databaseUrl,
    NATS_URL: TEST_NATS_URL,
    NATS_PREFIX: prefix,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
    SNAPSHOT_INTERVAL_SECONDS: '1',
    // Long, so that a late event on a loaded machine does not start a reload no engine answers here;
    // tests of lost events set it short.
    BOOK_GAP_GRACE_MS: '60000',
    ...overrides,
  });
  let exits = 0;
  const exit = () => void exits++;
  const boot = () => bootstrapService({ name: 'market-data', module: MarketDataModule.forRoot(env, exit), env, healthPort: 0 });
  let app: INestApplication = await boot();
  const rpc = new RpcClient(nc, prefix, 10_000);
  const redis = new Redis(TEST_REDIS_URL);
  const { request, data } = rpcCalls(rpc);
  const publish = async (subject: string, payload: unknown) => {
    await nc.jetstream().publish(prefixed(prefix, subject), codec.encode(payload));
  };
  const answer = (subject: RpcSubject, reply: (data: unknown) => Reply<unknown>) => {
    // The wire format of Nest's NATS transport, which the services' RpcClient reads.
    nc.subscribe(prefixed(prefix, subject), {
      callback: (_error, msg) => {
        const { id, data } = codec.decode(msg.data) as { id: string; data: unknown };
        msg.respond(codec.encode({ id, isDisposed: true, response: reply(data) }));
      },
    });
  };
  let batches = 0;
  const publishBatch = (events: MatchingEvent[]) => publish(MATCHING_BATCH_SUBJECT, { batchId: `test-batch-${++batches}`, events });
  const publishRow = async (rowId: bigint, events: MatchingEvent[]) => {
    const bytes = codec.encode({ batchId: `test-batch-${++batches}`, events });
    await nc.jetstream().publish(prefixed(prefix, MATCHING_BATCH_SUBJECT), bytes, { msgID: outboxMessageId(MATCHING_BATCH_SUBJECT, rowId, bytes) });
  };
  return {
    prefix,
    databaseUrl,
    redis,
    nc,
    request,
    data,
    publishMarket: (snapshot) => publish('catalog.evt.market.updated.v1', snapshot),
    publishBatch,
    publishRow,
    publishBook: (data) => publishBatch([{ type: 'book', data }]),
    publishTrade: (data) => publishBatch([{ type: 'trade', data }]),
    publishResolution: (data) => publishBatch([{ type: 'market-resolved', data }]),
    async restart(whileDown) {
      await app.close();
      await whileDown?.();
      app = await boot();
    },
    answerAsEngine(subject, pages) {
      answer(subject, (data) => {
        const { after } = data as { after?: string };
        const page = pages.find((_page, i) => (i === 0 ? after === undefined : pages[i - 1]!.next === after));
        return page ? ok(page) : fail('invalid_request', 'no such page');
      });
    },
    answer,
    exits: () => exits,
    async untilMarketKnown(conditionId, timeoutMs) {
      await until(async () => ((await request('marketdata.markets.get.v1', { condition_id: conditionId })).ok ? true : undefined), timeoutMs, `market ${conditionId} known`);
    },
    async stop() {
      await app.close();
      await deleteRedisKeys(redis, `${prefix}:`);
      redis.disconnect();
      await nc.close();
      await dropDatabase(databaseUrl);
      await deleteStreams(prefix);
    },
  };
}

/** A decimal in base units (6 decimals), as the engine's events carry prices and sizes; parsed on its digits, as the services do. */
export const u = (decimal: string): string => {
  const units = parseUnits(decimal);
  if (units === null) throw new Error(`"${decimal}" is not a decimal of at most 6 fraction digits`);
  return String(units);
};

/** A trade event as order-matching publishes it, with what a test does not set filled in. */
export function aTrade(overrides: Partial<TradeEvent> & Pick<TradeEvent, 'conditionId' | 'tokenId' | 'price'>): TradeEvent {
  return {
    id: `trade-${Math.random().toString(16).slice(2)}`,
    batchId: 'batch-1',
    takerOrderId: `0x${'1'.repeat(64)}`,
    taker: '0x0000000000000000000000000000000000000001',
    side: 'BUY',
    size: u('10'),
    fee: '0',
    feeRateBps: 400,
    matchTime: Date.now(),
    makers: [],
    ...overrides,
  };
}
