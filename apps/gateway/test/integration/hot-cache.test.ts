import { Redis } from 'ioredis';
import { eventually, sleep, startPrivateRedis, type PrivateRedis } from '@exchange/testing';
import { HotCache } from '../../src/market-data/hot-cache';

/**
 * HotCache on a Redis of this test's own: it is frozen, its clients killed and its command counts read,
 * none of which may touch the machine's Redis, shared by the running exchange and other test files.
 */
describe('HotCache (Redis server-assisted client-side caching)', () => {
  const prefix = 'hot:md:';
  const key = `${prefix}quote:1`;
  let server: PrivateRedis;
  let redis: Redis;
  let cache: HotCache;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startPrivateRedis();
    redis = new Redis(server.url);
    cache = HotCache.open(server.url, prefix, (message) => problems.push(message));
    await eventually(() => cache.isTracking, 'tracking is set up');
  });

  afterAll(async () => {
    server.thaw();
    await cache.close();
    await redis.quit();
    await server.close();
  });

  /** HGETALLs Redis has run: only the cache's reader sends them. */
  const reads = async () => Number(/cmdstat_hgetall:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);

  it('answers a hash from memory once read, without asking Redis', async () => {
    await redis.hset(key, { book: 'v1' });
    const before = await reads();
    expect(await cache.hash(key)).toEqual({ book: 'v1' });
    expect(await reads()).toBe(before + 1);
    for (let i = 0; i < 5; i++) expect(await cache.hash(key)).toEqual({ book: 'v1' });
    expect(await reads()).toBe(before + 1);

    // With Redis frozen, only an answer from memory can come back; a key never read waits for Redis
    // until the reader's command timeout (2 s).
    server.freeze();
    try {
      expect(await cache.hash(key)).toEqual({ book: 'v1' });
      await expect(cache.hash(`${prefix}quote:never-read`)).rejects.toThrow(/timed out/i);
    } finally {
      server.thaw();
    }
  });

  it('drops an entry as soon as Redis says the key was written, and keeps unknown keys as empty', async () => {
    await redis.hset(key, { book: 'v2' });
    await eventually(async () => (await cache.hash(key)).book === 'v2', 'the new value is read');
    // Read once after the invalidation, then kept again.
    let counted = await reads();
    expect(await cache.hash(key)).toEqual({ book: 'v2' });
    expect(await reads()).toBe(counted);

    await redis.del(key);
    await eventually(async () => Object.keys(await cache.hash(key)).length === 0, 'the deleted key reads empty');
    // The empty answer is kept too: no read per request for a token nobody quotes.
    counted = await reads();
    expect(await cache.hash(key)).toEqual({});
    expect(await reads()).toBe(counted);

    await redis.hset(key, { book: 'v3' });
    await eventually(async () => (await cache.hash(key)).book === 'v3', 'the recreated key is read');
    expect(await cache.hash(key)).toEqual({ book: 'v3' });
  });

  it('forgets everything while invalidations may be lost, and tracks again on a new connection', async () => {
    expect(await cache.hash(key)).toEqual({ book: 'v3' });
    const listener = String(await redis.client('LIST'))
      .split('\n')
      .find((line) => line.includes(`name=hot-listener:${prefix}`));
    const id = /id=(\d+)/.exec(listener ?? '')?.[1];
    expect(id).toBeDefined();
    await redis.client('KILL', 'ID', id!);
    // Written while nobody listens: its invalidation is lost, so keeping entries would serve v3 forever.
    await redis.hset(key, { book: 'v4' });
    await eventually(async () => (await cache.hash(key)).book === 'v4', 'the value written meanwhile is read');
    await eventually(() => cache.isTracking, 'tracking is set up again');
    await redis.hset(key, { book: 'v5' });
    await eventually(async () => (await cache.hash(key)).book === 'v5', 'invalidations arrive again');
    expect(await cache.hash(key)).toEqual({ book: 'v5' });
    expect(problems).toEqual([]);
  });

  it('fails a read at once while its connection to Redis is down, rather than wait for a reconnection', async () => {
    const problemsOfDown: string[] = [];
    const down = HotCache.open('redis://127.0.0.1:1', `${prefix}down:`, (message) => problemsOfDown.push(message));
    try {
      const started = Date.now();
      await expect(down.hash(`${prefix}down:quote:1`)).rejects.toThrow(/redis is/);
      // Before, every /book and /price of a Redis outage waited out the reader's 2 s command timeout
      // (found by a chaos probe): well under it, with room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(1_000);
      // Several reconnection attempts later (50 ms, 100 ms, ... apart), one line per connection (it was
      // one per attempt).
      await eventually(() => problemsOfDown.length > 0, 'the failure is said');
      await sleep(1_500);
      expect(problemsOfDown.length).toBeLessThanOrEqual(2);
      expect(problemsOfDown.every((message) => message.startsWith('redis: '))).toBe(true);
    } finally {
      await down.close();
    }
  });
});
