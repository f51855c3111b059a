import type { Redis } from 'ioredis';
import { TurnBatch } from '../http/turn-batch';

/** One bucket of a check: its Redis key, capacity and refill window. */
export interface BucketCheck {
  key: string;
  limit: number;
  windowMs: number;
}

/** The answer for one request: admitted or not, and the state of its most depleted bucket. */
export interface BucketVerdict {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Unix ms at which that bucket is full again. */
  resetAtMs: number;
  /** When refused: how long until every bucket of the request holds a token again. */
  retryAfterMs: number;
}

/**
 * GCRA (a token bucket kept as one "theoretical arrival time" per key, in ms, on Redis's clock so that
 * gateway replicas agree): a bucket of `limit` per `window` admits a request when its TAT, one interval
 * (window / limit) later, is at most a window ahead of now. A request is admitted only if every one of
 * its buckets admits it, and then charged to all of them; a refused request is charged to none. Checks
 * run in order, so two requests of one run on the same bucket see each other.
 * ARGV: check count, then per check its bucket count and (limit, window ms) per bucket; KEYS in the
 * same order. Answers per check: admitted, limit, remaining, reset ms, retry-after ms.
 */
const TAKE_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local a, k = 2, 1
local answers = {}
for c = 1, tonumber(ARGV[1]) do
  local n = tonumber(ARGV[a])
  a = a + 1
  local admitted, wait = 1, 0
  local parts = {}
  for b = 1, n do
    local limit, window = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
    a = a + 2
    local interval = window / limit
    local tat = tonumber(redis.call('GET', KEYS[k]) or '0')
    if tat < now then tat = now end
    local allow_at = tat + interval - window
    -- Tolerances of a hundredth (of a ms, of a token): times near 1.8e12 ms carry float errors of ~1e-4.
    if allow_at - now > 0.01 then
      admitted = 0
      if allow_at - now > wait then wait = allow_at - now end
    end
    parts[b] = { KEYS[k], tat, limit, window, interval }
    k = k + 1
  end
  local best_remaining, best_limit, best_reset = nil, 0, now
  for b = 1, n do
    local key, tat, limit, window, interval = parts[b][1], parts[b][2], parts[b][3], parts[b][4], parts[b][5]
    if admitted == 1 then
      tat = tat + interval
      redis.call('SET', key, string.format('%.17g', tat), 'PX', math.ceil(tat - now))
    end
    local remaining = math.max(0, math.floor((now + window - tat) / interval + 0.01))
    if best_remaining == nil or remaining < best_remaining or (remaining == best_remaining and tat > best_reset) then
      best_remaining, best_limit, best_reset = remaining, limit, tat
    end
  end
  answers[c] = { admitted, best_limit, best_remaining, math.ceil(best_reset), math.ceil(wait) }
end
return answers`;

/** A bound on one script run's checks (each has one to three buckets). */
const MAX_BATCH = 128;

type TakingRedis = Redis & { takeTokens(keyCount: number, ...args: (string | number)[]): Promise<number[][]> };

/** The token buckets of the rate limits in Redis, the checks of one event-loop turn in one script run. */
export class TokenBuckets {
  private readonly batch: TurnBatch<BucketCheck[], BucketVerdict>;

  constructor(redis: Redis) {
    redis.defineCommand('takeTokens', { lua: TAKE_SCRIPT });
    const taking = redis as TakingRedis;
    this.batch = new TurnBatch(async (checks) => {
      const keys = checks.flatMap((buckets) => buckets.map((b) => b.key));
      const args = [checks.length, ...checks.flatMap((buckets) => [buckets.length, ...buckets.flatMap((b) => [b.limit, b.windowMs])])];
      const answers = await taking.takeTokens(keys.length, ...keys, ...args);
      return answers.map(([admitted, limit, remaining, resetAtMs, retryAfterMs]) => ({
        admitted: admitted === 1,
        limit: limit!,
        remaining: remaining!,
        resetAtMs: resetAtMs!,
        retryAfterMs: retryAfterMs!,
      }));
    }, MAX_BATCH);
  }

  /** Takes a token from every bucket of one request, or from none of them. */
  take(buckets: BucketCheck[]): Promise<BucketVerdict> {
    return this.batch.add(buckets);
  }
}
