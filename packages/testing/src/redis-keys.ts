import type { Redis } from 'ioredis';

/**
 * Deletes every key under `prefix` (a test run's own), walking them with SCAN: KEYS would block the
 * shared Redis, which the running exchange and other test files use, for the whole walk.
 */
export async function deleteRedisKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
