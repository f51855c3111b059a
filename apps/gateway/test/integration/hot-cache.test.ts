import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { HotCache } from '../../src/market-data/hot-cache';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

/** The value if it comes within `ms`, else 'blocked' (Redis paused: the read was not from the cache). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'blocked'> {
  return Promise.race([promise, new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), ms))]);
}

describe('HotCache (Redis server-assisted client-side caching)', () => {
  const prefix = `hot${randomBytes(4).toString('hex')}:md:`;
  const key = `${prefix}quote:1`;
  let redis: Redis;
  let cache: HotCache;
  const problems: string[] = [];

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    cache = HotCache.open(REDIS_URL, prefix, (message) => problems.push(message));
    await eventually(() => cache.isTracking, 'tracking is set up');
  });

  afterAll(async () => {
    await cache.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('answers a hash from memory once read, without asking Redis', async () => {
    await redis.hset(key, { book: 'v1' });
    expect(await cache.hash(key)).toEqual({ book: 'v1' });
    // With every client paused, only an answer from memory can come back.
    await redis.client('PAUSE', 300, 'ALL');
    expect(await within(cache.hash(key), 100)).toEqual({ book: 'v1' });
    expect(await within(cache.hash(`${prefix}quote:never-read`), 100)).toBe('blocked');
  });

  it('drops an entry as soon as Redis says the key was written, and keeps unknown keys as empty', async () => {
    await redis.hset(key, { book: 'v2' });
    await eventually(async () => (await cache.hash(key)).book === 'v2', 'the new value is read');
    await redis.del(key);
    await eventually(async () => Object.keys(await cache.hash(key)).length === 0, 'the deleted key reads empty');
    await redis.hset(key, { book: 'v3' });
    await eventually(async () => (await cache.hash(key)).book === 'v3', 'the recreated key is read');
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
    expect(problems).toEqual([]);
  });

  it('fails a read at once while its connection to Redis is down, rather than wait for a reconnection', async () => {
    const problemsOfDown: string[] = [];
    const down = HotCache.open('redis://127.0.0.1:1', `${prefix}down:`, (message) => problemsOfDown.push(message));
    try {
      const started = Date.now();
      await expect(down.hash(`${prefix}down:quote:1`)).rejects.toThrow(/redis is/);
      // Before, every /book and /price of a Redis outage waited up to 2 s (found by a chaos probe).
      expect(Date.now() - started).toBeLessThan(100);
      // Several reconnection attempts later, one line per connection (it was one per attempt).
      await new Promise((r) => setTimeout(r, 600));
      expect(problemsOfDown.length).toBeGreaterThan(0);
      expect(problemsOfDown.length).toBeLessThanOrEqual(2);
    } finally {
      await down.close();
    }
  });
});
