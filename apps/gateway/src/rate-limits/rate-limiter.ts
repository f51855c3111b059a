import type { IncomingMessage } from 'node:http';
import type { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { GatewayEnv } from '../config';
import { ApiError } from '../http/api-error';
import { clientAddress } from '../http/client-address';
import { routeLimits, scaled, type RouteLimits } from './rate-limit-rules';
import { TokenBuckets } from './token-buckets';

export type ResponseHeaders = Record<string, string>;

export interface RateLimiterSettings {
  enabled: boolean;
  scale: number;
  trustedProxyHops: number;
  keyPrefix: string;
}

/**
 * The rate limits of SPEC.md at the edge (docs/gateway.md, "Rate limits"): public routes per client
 * address before anything else is done, L2 routes per API key once the key is authenticated (so that
 * nobody can spend another trader's limits by sending its key id). Every limited response carries
 * `X-RateLimit-Limit`, `-Remaining` and `-Reset` (unix seconds) of the request's most depleted bucket; a
 * refused request is a 429 `rate_limited` with `retry_after_seconds` and `Retry-After`. Without Redis
 * the limits are not applied (and said so once per distinct failure): reads stay up, and signed writes
 * are refused anyway by the replay check.
 */
export class RateLimiter {
  private lastFailure = '';

  constructor(
    private readonly buckets: TokenBuckets,
    private readonly settings: RateLimiterSettings,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** The limiter of the gateway's settings, on its Redis connection. */
  static fromEnv(env: GatewayEnv, redis: Redis, logger: Pick<Logger, 'warn'>): RateLimiter {
    return new RateLimiter(
      new TokenBuckets(redis),
      { enabled: env.RATE_LIMITS === 'on', scale: env.RATE_LIMIT_SCALE, trustedProxyHops: env.TRUSTED_PROXY_HOPS, keyPrefix: env.REDIS_KEY_PREFIX },
      logger,
    );
  }

  /** The limits of a public request (none for an L2 route: those count after authentication). */
  admitPublic(request: IncomingMessage, method: string, route: string): Promise<ResponseHeaders> {
    const limits = routeLimits(method, route);
    if (!limits || limits.keyed) return Promise.resolve({});
    return this.admit(`ip:${clientAddress(request, this.settings.trustedProxyHops)}`, limits);
  }

  /** The limits of an authenticated L2 request, counted for its API key. */
  admitKey(apiKey: string, method: string, path: string): Promise<ResponseHeaders> {
    const limits = routeLimits(method, path);
    return limits ? this.admit(`key:${apiKey}`, limits) : Promise.resolve({});
  }

  private async admit(identity: string, limits: RouteLimits): Promise<ResponseHeaders> {
    if (!this.settings.enabled) return {};
    const checks = limits.buckets.map((bucket) => {
      const { limit, windowSeconds } = scaled(bucket, this.settings.scale);
      return { key: `${this.settings.keyPrefix}:rl:${bucket.name}:${identity}`, limit, windowMs: windowSeconds * 1_000 };
    });
    let verdict;
    try {
      verdict = await this.buckets.take(checks);
      this.lastFailure = '';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.lastFailure) this.logger.warn(`rate limits not applied: ${message}`);
      this.lastFailure = message;
      return {};
    }
    const headers = {
      'x-ratelimit-limit': String(verdict.limit),
      'x-ratelimit-remaining': String(verdict.remaining),
      'x-ratelimit-reset': String(Math.ceil(verdict.resetAtMs / 1_000)),
    };
    if (!verdict.admitted) throw ApiError.of('rate_limited', 'Too Many Requests', Math.max(1, Math.ceil(verdict.retryAfterMs / 1_000)), headers);
    return headers;
  }
}
