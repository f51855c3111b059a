import type { Redis } from 'ioredis';

/**
 * Remembers accepted L2 signatures of write requests in Redis (`SET key NX EX ttl`), so that a captured
 * request cannot be sent again while its timestamp is still fresh.
 */
export class ReplayStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly ttlSeconds: number,
  ) {}

  /** True the first time this (api key, signature) is seen within the TTL, false on a replay. */
  async firstUse(apiKey: string, signature: string): Promise<boolean> {
    const answer = await this.redis.set(`${this.keyPrefix}:l2-seen:${apiKey}:${signature}`, '1', 'EX', this.ttlSeconds, 'NX');
    return answer === 'OK';
  }
}
