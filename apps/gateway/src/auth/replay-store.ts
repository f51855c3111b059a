import type { Redis } from 'ioredis';
import { TurnBatch } from '../http/turn-batch';

/** `SET key 1 NX EX ttl` for each key, in one script run: 1 where the key was new, 0 where it existed. */
const CLAIM_SCRIPT = `
local claimed = {}
for i, key in ipairs(KEYS) do
  claimed[i] = redis.call('SET', key, '1', 'NX', 'EX', ARGV[1]) and 1 or 0
end
return claimed`;

/** A bound on one script run's keys. */
const MAX_BATCH = 256;

type ClaimingRedis = Redis & { claimFirstUses(keyCount: number, ...args: (string | number)[]): Promise<number[]> };

/**
 * Remembers accepted L2 signatures of write requests in Redis, so that a captured request cannot be sent
 * again while its timestamp is still fresh. The checks of one event-loop turn go to Redis together
 * (`TurnBatch`), as one script run (EVALSHA) over all their keys. The script keeps `SET NX EX` semantics
 * per key, in order, so the same signature twice in one turn is accepted once. All keys of a run must
 * live on one Redis node: a single Redis, as configured here, not a cluster.
 */
export class ReplayStore {
  private readonly batch: TurnBatch<string, boolean>;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    ttlSeconds: number,
  ) {
    redis.defineCommand('claimFirstUses', { lua: CLAIM_SCRIPT });
    const claiming = redis as ClaimingRedis;
    this.batch = new TurnBatch(async (keys) => (await claiming.claimFirstUses(keys.length, ...keys, ttlSeconds)).map((claimed) => claimed === 1), MAX_BATCH);
  }

  /** True the first time this (api key, signature) is seen within the TTL, false on a replay. */
  firstUse(apiKey: string, signature: string): Promise<boolean> {
    return this.batch.add(`${this.keyPrefix}:l2-seen:${apiKey}:${signature}`);
  }
}
