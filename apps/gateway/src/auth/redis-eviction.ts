import type { Redis } from 'ioredis';
import { errorMessage } from '@exchange/service-kit';

/**
 * What a Redis `INFO memory` says of evictions: a warning when it may drop keys (a `maxmemory` and a
 * policy other than `noeviction`), undefined otherwise. Evicted replay claims, and the key of the moment
 * their memory starts from, make the gateway refuse signed writes as possible replays (docs/auth.md).
 */
export function evictionWarning(info: string): string | undefined {
  const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
  const maxmemory = field('maxmemory');
  const policy = field('maxmemory_policy');
  if (maxmemory === undefined || maxmemory === '0' || policy === undefined || policy === 'noeviction') return undefined;
  return `redis may evict keys (maxmemory ${maxmemory} bytes, maxmemory-policy ${policy}): signed writes are refused as possible replays after an eviction; use noeviction (docs/operations.md, "Resource limits")`;
}

/** Says `evictionWarning` each time the connection becomes ready (a Redis may restart with other settings). */
export function sayEvictingRedis(redis: Redis, warn: (message: string) => void): void {
  const check = () =>
    void redis.info('memory').then(
      (info) => {
        const warning = evictionWarning(info);
        if (warning) warn(warning);
      },
      (error: unknown) => warn(`redis: could not read its memory settings: ${errorMessage(error)}`),
    );
  redis.on('ready', check);
  if (redis.status === 'ready') check();
}
