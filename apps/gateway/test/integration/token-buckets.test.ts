import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { TokenBuckets, type BucketCheck } from '../../src/rate-limits/token-buckets';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The rate limits' token buckets on a real Redis, on its clock. */
describe('TokenBuckets', () => {
  const prefix = `rl${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let buckets: TokenBuckets;
  let runs: jest.SpyInstance;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
    buckets = new TokenBuckets(redis);
    runs = jest.spyOn(redis as unknown as { takeTokens: () => Promise<number[][]> }, 'takeTokens');
  });
  afterEach(() => runs.mockClear());
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const bucket = (name: string, limit: number, windowMs: number): BucketCheck => ({ key: `${prefix}:${name}`, limit, windowMs });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('admits a full bucket at once, in one script run per turn, then refuses until a token comes back', async () => {
    const b = bucket('burst', 5, 1_000);
    const before = Date.now();
    const verdicts = await Promise.all(Array.from({ length: 7 }, () => buckets.take([b])));
    expect(runs).toHaveBeenCalledTimes(1);
    expect(verdicts.map((v) => v.admitted)).toEqual([true, true, true, true, true, false, false]);
    expect(verdicts.map((v) => v.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(verdicts.every((v) => v.limit === 5)).toBe(true);
    // Full again a window after the burst; the next token in one interval (200 ms).
    expect(verdicts[4]!.resetAtMs).toBeGreaterThanOrEqual(before + 1_000 - 50);
    expect(verdicts[4]!.resetAtMs).toBeLessThanOrEqual(Date.now() + 1_000 + 50);
    expect(verdicts[5]!.retryAfterMs).toBeGreaterThan(100);
    expect(verdicts[5]!.retryAfterMs).toBeLessThanOrEqual(200);

    await sleep(verdicts[5]!.retryAfterMs + 20);
    expect((await buckets.take([b])).admitted).toBe(true);
    expect((await buckets.take([b])).admitted).toBe(false);
  });

  it('charges a request to every bucket or to none, and reports the most depleted one', async () => {
    const wide = bucket('wide', 100, 10_000);
    const narrow = bucket('narrow', 2, 10_000);
    const first = await buckets.take([wide, narrow]);
    expect(first).toMatchObject({ admitted: true, limit: 2, remaining: 1 });
    await buckets.take([wide, narrow]);
    const refused = await buckets.take([wide, narrow]);
    expect(refused).toMatchObject({ admitted: false, limit: 2, remaining: 0 });
    expect(refused.retryAfterMs).toBeGreaterThan(4_000);
    // The refused request took nothing from the wide bucket: 98 left after two requests.
    expect(await buckets.take([wide])).toMatchObject({ admitted: true, limit: 100, remaining: 97 });
  });

  it('keeps each bucket only while it is not full', async () => {
    const b = bucket('ttl', 10, 2_000);
    await buckets.take([b]);
    const ttl = await redis.pttl(b.key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(200);
    await sleep(ttl + 20);
    expect(await redis.exists(b.key)).toBe(0);
    expect((await buckets.take([b])).remaining).toBe(9);
  });

  it('fails every check of a run when Redis does', async () => {
    const broken = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    broken.disconnect();
    const offline = new TokenBuckets(broken);
    await expect(Promise.all([offline.take([bucket('x', 1, 1_000)]), offline.take([bucket('y', 1, 1_000)])])).rejects.toThrow();
  });
});
