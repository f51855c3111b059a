import { Redis } from 'ioredis';
import { Client } from 'pg';
import { hotMetadataKeys, MATCHING_STREAM, type MarketSnapshot } from '@exchange/contracts';
import { streamName } from '@exchange/service-kit';
import { eventually, refusedInserts, sleep, startPrivateRedis, until, type PrivateRedis } from '@exchange/testing';
import { aMarketSnapshot, aTrade, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

/**
 * docs/market-data.md, "Acknowledgement": a flush writes the price history (PostgreSQL), then the quotes
 * (Redis), and only then acknowledges its messages; a failed write is retried before anything is acked.
 * Until the thirty-fifth session no test failed either store after start-up.
 */
describe('market-data whose PostgreSQL or Redis fails while MATCHING messages come (real PostgreSQL, Redis, NATS and JetStream)', () => {
  let redisServer: PrivateRedis;
  let redis: Redis;
  let md: MarketDataUnderTest;
  let db: Client;

  beforeAll(async () => {
    // A Redis of its own: freezing the machine's would freeze every other test and the running exchange.
    redisServer = await startPrivateRedis();
    redis = new Redis(redisServer.url);
    md = await startMarketData({ REDIS_URL: redisServer.url });
    db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    redisServer?.thaw();
    await db?.end();
    await md?.stop();
    redis?.disconnect();
    await redisServer?.close();
  });

  const consumer = async () => (await md.nc.jetstreamManager()).consumers.info(streamName(md.prefix, MATCHING_STREAM.name), 'market-data-matching');
  const lastSeq = async () => (await (await md.nc.jetstreamManager()).streams.info(streamName(md.prefix, MATCHING_STREAM.name))).state.last_seq;
  const untilAllAcked = () =>
    until(async () => {
      const [info, last] = await Promise.all([consumer(), lastSeq()]);
      return info.ack_floor.stream_seq === last && info.num_ack_pending === 0 ? info : undefined;
    }, 30_000, 'every MATCHING message acknowledged');
  const historyOf = async (conditionId: string) =>
    (await db.query<{ trade_id: string }>('SELECT trade_id FROM price_history WHERE condition_id = $1 ORDER BY trade_id', [conditionId])).rows.map((r) => r.trade_id);
  const volumeOf = async (conditionId: string) =>
    (await db.query<{ volume: string }>('SELECT volume::text FROM market_volume WHERE condition_id = $1', [conditionId])).rows.map((r) => r.volume);
  const aKnownMarket = async (): Promise<MarketSnapshot> => {
    const market = aMarketSnapshot();
    await md.publishMarket(market);
    await md.untilMarketKnown(market.conditionId);
    return market;
  };

  it('acknowledges a burst only once its price history is written, retrying a refused insert, and counts each trade once', async () => {
    const market = await aKnownMarket();
    const cid = market.conditionId;
    // PostgreSQL's own refusal when a table cannot grow (53100).
    const fullDisk = await refusedInserts(db, 'price_history', 'disk_full');
    await fullDisk.refuse();
    const before = (await consumer()).ack_floor.stream_seq;
    try {
      const trades = ['10', '20', '30'].map((size, i) => aTrade({ id: `outage-pg-${i}`, conditionId: cid, tokenId: market.tokenIds[0]!, price: u('0.4'), size: u(size) }));
      for (const trade of trades) await md.publishTrade(trade);
      await eventually(async () => (await fullDisk.refusals()) >= 3, 'the insert refused and retried twice');

      // Delivered and applied, but none acknowledged: a restart now would have them delivered again.
      const held = await consumer();
      const last = await lastSeq();
      expect(held.delivered.stream_seq).toBe(last);
      expect(held.ack_floor.stream_seq).toBe(before);
      expect(held.num_ack_pending).toBe(trades.length);
      expect(await historyOf(cid)).toEqual([]);

      await fullDisk.allow();
      const acked = await untilAllAcked();
      expect(acked.ack_floor.stream_seq).toBe(last);
      expect(await historyOf(cid)).toEqual(trades.map((t) => t.id));
      // 10 + 20 + 30 shares at 0.4: each notional added once, however many inserts were refused.
      expect(await volumeOf(cid)).toEqual(['24000000']);
    } finally {
      await fullDisk.remove();
    }
  });

  it('acknowledges a trade only once its quotes are written to Redis, retrying while Redis does not answer', async () => {
    const market = await aKnownMarket();
    const [yes] = market.tokenIds;
    const quoteKey = hotMetadataKeys.quote(md.prefix, yes!);
    const lastTradePrice = async () => {
      const book = await redis.hget(quoteKey, 'book');
      return book ? (JSON.parse(book) as { last_trade_price: string }).last_trade_price : undefined;
    };
    // The market's quote is in Redis before the outage, so that none of it is in flight when it freezes.
    expect(await until(lastTradePrice, 10_000, "the market's first quote")).not.toBe('0.42');
    const before = (await consumer()).ack_floor.stream_seq;

    redisServer.freeze();
    const trade = aTrade({ conditionId: market.conditionId, tokenId: yes!, price: u('0.42') });
    await md.publishTrade(trade);
    // The price history is written first; the quote write then waits for Redis (its command timeout is 5 s).
    await until(async () => ((await historyOf(market.conditionId)).length ? true : undefined), 10_000, 'the trade in the price history');
    await sleep(6_000);
    const held = await consumer();
    const last = await lastSeq();
    expect(held.delivered.stream_seq).toBe(last);
    expect(held.ack_floor.stream_seq).toBe(before);
    expect(held.num_ack_pending).toBe(1);

    redisServer.thaw();
    const acked = await untilAllAcked();
    expect(acked.ack_floor.stream_seq).toBe(last);
    expect(await lastTradePrice()).toBe('0.42');
    // The history insert ran again with each retry; the trade still counts once (10 shares at 0.42).
    expect(await historyOf(market.conditionId)).toEqual([trade.id]);
    expect(await volumeOf(market.conditionId)).toEqual(['4200000']);
  }, 60_000);
});
