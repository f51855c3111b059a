import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ReplayStore } from '../../src/auth/replay-store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TTL = 60;

/** The replay checks against a real Redis: per-key `SET NX EX` semantics, sent a turn at a time. */
describe('ReplayStore', () => {
  const prefix = `replay${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let store: ReplayStore;
  let runs: jest.SpyInstance;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
    store = new ReplayStore(redis, prefix, TTL);
    // Counts the script runs; each still goes to Redis.
    runs = jest.spyOn(redis as unknown as { claimFirstUses: () => Promise<number[]> }, 'claimFirstUses');
  });
  afterEach(() => runs.mockClear());
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('accepts each signature once, a repeat in the same turn or a later one refused, in one script run per turn', async () => {
    const signatures = Array.from({ length: 40 }, (_, i) => `sig-${i}`);
    const firstTurn = await Promise.all([...signatures, 'sig-3', 'sig-3'].map((sig) => store.firstUse('key-a', sig)));
    expect(firstTurn).toEqual([...signatures.map(() => true), false, false]);
    expect(runs).toHaveBeenCalledTimes(1);

    // The same signature under another API key is another request; under the same key, a replay.
    expect(await Promise.all([store.firstUse('key-b', 'sig-0'), store.firstUse('key-a', 'sig-0')])).toEqual([true, false]);
    expect(runs).toHaveBeenCalledTimes(2);

    const ttl = await redis.ttl(`${prefix}:l2-seen:key-a:sig-7`);
    expect(ttl).toBeGreaterThan(TTL - 5);
    expect(ttl).toBeLessThanOrEqual(TTL);
  });

  it('splits a very busy turn into runs of at most 256 keys, answering every check', async () => {
    const checks = Array.from({ length: 600 }, (_, i) => store.firstUse('key-c', `busy-${i}`));
    expect((await Promise.all(checks)).every((first) => first)).toBe(true);
    expect(runs).toHaveBeenCalledTimes(3);
    expect(runs.mock.calls.map((call) => call[0])).toEqual([256, 256, 88]);
    expect(await store.firstUse('key-c', 'busy-599')).toBe(false);
  });

  it('fails every check of the turn when Redis cannot answer', async () => {
    // Nothing listens on port 1; without an offline queue the command fails without waiting for a connection.
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    const unreachable = new ReplayStore(down, prefix, TTL);
    const results = await Promise.allSettled([unreachable.firstUse('key-d', 'x'), unreachable.firstUse('key-d', 'y')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    down.disconnect();
  });
});
