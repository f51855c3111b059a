import { Redis } from 'ioredis';
import { evictionWarning } from '../../src/auth/redis-eviction';

const info = (maxmemory: string, policy: string) => `# Memory\r\nused_memory:1000\r\nmaxmemory:${maxmemory}\r\nmaxmemory_human:x\r\nmaxmemory_policy:${policy}\r\n`;

describe("a warning of Redis's evictions", () => {
  it('is given when Redis has a memory limit and may evict keys', () => {
    expect(evictionWarning(info('2097152', 'allkeys-lru'))).toMatch(/^redis may evict keys \(maxmemory 2097152 bytes, maxmemory-policy allkeys-lru\)/);
    expect(evictionWarning(info('2097152', 'volatile-ttl'))).toMatch(/volatile-ttl/);
  });

  it('is not given without a limit, or with noeviction', () => {
    expect(evictionWarning(info('0', 'allkeys-lru'))).toBeUndefined();
    expect(evictionWarning(info('2097152', 'noeviction'))).toBeUndefined();
    expect(evictionWarning('')).toBeUndefined();
  });

  it("reads a real Redis's INFO (this machine's keeps no limit)", async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const text = await redis.info('memory');
      expect(text).toMatch(/^maxmemory_policy:/m);
      expect(evictionWarning(text)).toBeUndefined();
    } finally {
      await redis.quit();
    }
  });
});
