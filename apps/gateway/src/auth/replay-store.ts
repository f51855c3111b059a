import type { Redis } from 'ioredis';

/** `SET key 1 NX EX ttl` for each key, in one script run: 1 where the key was new, 0 where it existed. */
const CLAIM_SCRIPT = `
local claimed = {}
for i, key in ipairs(KEYS) do
  claimed[i] = redis.call('SET', key, '1', 'NX', 'EX', ARGV[1]) and 1 or 0
end
return claimed`;

/** A bound on one script run's keys (a busy turn flushes early rather than build an unbounded command). */
const MAX_BATCH = 256;

interface Claim {
  key: string;
  resolve: (first: boolean) => void;
  reject: (error: unknown) => void;
}

type ClaimingRedis = Redis & { claimFirstUses(keyCount: number, ...args: (string | number)[]): Promise<number[]> };

/**
 * Remembers accepted L2 signatures of write requests in Redis, so that a captured request cannot be sent
 * again while its timestamp is still fresh. The checks of one event-loop turn go to Redis together, as one
 * script run (EVALSHA) over all their keys: one write and one reply for the turn instead of one per
 * request, which at saturation cost the exchange 13% of its throughput on a slow machine
 * (docs/performance.md, ninth session). The script keeps `SET NX EX` semantics per key, in order, so
 * the same signature twice in one turn is accepted once. All keys of a run must live on one Redis
 * node: a single Redis, as configured here, not a cluster.
 */
export class ReplayStore {
  private readonly redis: ClaimingRedis;
  private pending: Claim[] = [];
  private flushScheduled = false;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly ttlSeconds: number,
  ) {
    redis.defineCommand('claimFirstUses', { lua: CLAIM_SCRIPT });
    this.redis = redis as ClaimingRedis;
  }

  /** True the first time this (api key, signature) is seen within the TTL, false on a replay. */
  firstUse(apiKey: string, signature: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key: `${this.keyPrefix}:l2-seen:${apiKey}:${signature}`, resolve, reject });
      if (this.pending.length >= MAX_BATCH) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After the turn's I/O callbacks: every request read in this turn has queued its check by then.
        setImmediate(() => {
          this.flushScheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.redis.claimFirstUses(batch.length, ...batch.map((claim) => claim.key), this.ttlSeconds).then(
      (claimed) => batch.forEach((claim, i) => claim.resolve(claimed[i] === 1)),
      (error: unknown) => batch.forEach((claim) => claim.reject(error)),
    );
  }
}
