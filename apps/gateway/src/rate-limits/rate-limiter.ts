import type { IncomingMessage } from 'node:http';
import type { Logger } from '@nestjs/common';
import { DistinctFailures, errorMessage, ThrottledLog } from '@exchange/service-kit';
import type { ApiKeyCache } from '../auth/api-key-cache';
import { authHeader } from '../auth/auth-headers';
import type { AuthResources } from '../auth/auth-resources';
import type { GatewayEnv } from '../config';
import type { AdmissionStore, BucketCheck, BucketVerdict, ClaimOutcome, KeptAnswer } from '../http/admission-store';
import { ApiError } from '../http/api-error';
import { clientAddress } from '../http/client-address';
import { FailedAuthGate } from './failed-auth-gate';
import { isKeyedRoute, routeLimits, scaled } from './rate-limit-rules';

export type ResponseHeaders = Record<string, string>;

/** A bound on the routes whose buckets are kept (the gateway has about seventy). */
const MAX_CACHED_ROUTES = 512;
/**
 * The longest failure answer kept for a write's replays, in characters: an order's rejection is a few
 * hundred; one that repeats what the client sent could otherwise keep a megabyte in Redis per request.
 */
const MAX_KEPT_ANSWER_CHARACTERS = 4_096;
/** A bound on the refusals remembered at once. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/** A refusal by Redis, remembered until the route's buckets of that caller admit a request again. */
interface Refusal {
  untilMs: number;
  limit: number;
  remaining: number;
  resetAtMs: number;
}

/** Failed L1 and L2 authentications a failing party may have at once, and then per second (`FailedAuthGate`), both times `RATE_LIMIT_SCALE`. */
const AUTH_FAILURE_BURST = 100;
const AUTH_FAILURES_PER_SECOND = 10;

export interface RateLimiterSettings {
  enabled: boolean;
  scale: number;
  trustedProxyHops: number;
  keyPrefix: string;
}

/**
 * The rate limits of SPEC.md at the edge (docs/gateway.md, "Rate limits"): public routes per client
 * address before anything else is done, L2 routes per the API key's address once the key is
 * authenticated (so that nobody can spend another trader's limits by sending its key id), together
 * with the replay claim of a signed write in the same Redis round trip (`AdmissionStore`). Every
 * limited response carries `X-RateLimit-Limit`, `-Remaining` and `-Reset` (unix seconds) of the
 * request's most depleted bucket; a refused request is a 429 `rate_limited` with `retry_after_seconds`
 * and `Retry-After`. A refusal is remembered until its retry time, and the caller's requests of that
 * route are refused meanwhile without asking Redis: Redis would refuse them too (a refused request
 * takes no token, so that time can only move later), and a client hammering past its limit costs a map
 * lookup rather than a script run. Such a request makes no replay claim. Without Redis the limits are
 * not applied (and said so once per distinct failure): reads stay up, and signed writes are refused
 * anyway, since their replay claim fails (said every 30 s at most, with how many: until 2026-11-27 a
 * Redis out of memory refused every order and cancel without a log line, found by a resource-limits
 * probe).
 */
export class RateLimiter {
  /** Without Redis, said once per distinct failure. */
  private readonly failures: DistinctFailures;
  private readonly routeBuckets = new Map<string, readonly BucketCheck[]>();
  private readonly authFailures: FailedAuthGate;
  /** By bucket hash and route (`memoKey`). */
  private readonly refusals = new Map<string, Refusal>();
  /** Signed writes refused because their replay claim failed. */
  private readonly refusedWrites = new ThrottledLog();

  constructor(
    private readonly store: AdmissionStore,
    private readonly settings: RateLimiterSettings,
    private readonly logger: Pick<Logger, 'warn' | 'log'>,
    private readonly keys: Pick<ApiKeyCache, 'answersAlone'>,
  ) {
    this.failures = new DistinctFailures((message) => logger.warn(`rate limits not applied: ${message}`));
    this.authFailures = new FailedAuthGate(Math.max(1, Math.round(AUTH_FAILURE_BURST * settings.scale)), AUTH_FAILURES_PER_SECOND * settings.scale);
  }

  static fromEnv(env: GatewayEnv, auth: Pick<AuthResources, 'admissions' | 'cache'>, logger: Pick<Logger, 'warn' | 'log'>): RateLimiter {
    const settings = { enabled: env.RATE_LIMITS === 'on', scale: env.RATE_LIMIT_SCALE, trustedProxyHops: env.TRUSTED_PROXY_HOPS, keyPrefix: env.REDIS_KEY_PREFIX };
    return new RateLimiter(auth.admissions, settings, logger, auth.cache);
  }

  /** The address a request is counted for (see `TRUSTED_PROXY_HOPS`). */
  clientOf(request: IncomingMessage): string {
    return clientAddress(request, this.settings.trustedProxyHops);
  }

  /**
   * Whom the request's failed authentications count against: its client address or, when it names an
   * API key whose lookup needs no database read (cached, known or absent), that address and key
   * together. Failures that cost a key lookup or a signature recovery (L1, made-up keys) so count per
   * address, while a client failing with a key the gateway knows (a stale secret, a skewed clock) is
   * refused alone rather than every client behind its address, a NAT's say (refused together until the
   * twenty-fourth session). Read as the request arrives, before its own lookup fills the cache.
   */
  failingParty(request: IncomingMessage): string {
    const client = this.clientOf(request);
    const apiKey = authHeader(request.headers, 'api_key')?.toLowerCase();
    return apiKey !== undefined && this.keys.answersAlone(apiKey) ? `${client} ${apiKey}` : client;
  }

  /** Refuses (429) an L1 or L2 request of a party (`failingParty`) that has used up its failed authentications. */
  refuseFailing(party: string): void {
    const seconds = this.settings.enabled ? this.authFailures.retryAfterSeconds(party) : 0;
    if (seconds === 0) return;
    // The headers every limited answer carries, here of the failures the party may still make.
    throw ApiError.of('rate_limited', 'Too Many Requests', seconds, limitHeaders(this.authFailures.burst, 0, this.authFailures.fullAtMs(party)));
  }

  /** Counts a failed L1 or L2 authentication of the party (`failingParty`). */
  authFailed(party: string): void {
    if (this.settings.enabled) this.authFailures.failed(party);
  }

  /** Whether a route is behind L2 authentication (its limits count per the key's address). */
  isSigned(method: string, route: string): boolean {
    return isKeyedRoute(method, route);
  }

  /** The limits of a public request (none for an L2 route: those count once authenticated). */
  async admitPublic(request: IncomingMessage, method: string, route: string): Promise<ResponseHeaders> {
    const buckets = this.bucketsOf(method, route, false);
    if (buckets.length === 0) return {};
    const bucketsKey = this.hashKey(`ip:${this.clientOf(request)}`);
    const memoKey = `${bucketsKey} ${method} ${route}`;
    this.refuseRemembered(memoKey);
    let answer;
    try {
      answer = await this.store.admit({ bucketsKey, buckets });
      this.failures.cleared();
    } catch (error) {
      this.failures.failed(errorMessage(error));
      return {};
    }
    return this.verdictHeaders(answer.verdict!, memoKey);
  }

  /**
   * An authenticated L2 request: the signature of a write claimed (remembered for twice the L2 window;
   * `seen`: a replay, nothing taken, with the failure its first use was answered if kept; `before-memory`:
   * signed before Redis's memory of claims began, nothing taken; `repeat`: seen within `repeatableForMs`
   * of its first use, taken again; `stale`: outside the window by Redis's clock, `redisNowMs`) and the limits of its key's address taken (`items` tokens from the
   * per-item buckets).
   * Per address, as upstream's per-signer buckets: an address derives a key for any nonce it signs, and
   * per key each would have multiplied its limits. A failure of Redis is thrown when there is a
   * signature to claim.
   */
  async admitSigned(
    { apiKey, address }: { apiKey: string; address: string },
    method: string,
    route: string,
    write?: { signature: string; signedByMs: number; repeatableForMs?: number },
    items = 1,
  ): Promise<{ claim: ClaimOutcome; headers: ResponseHeaders; claimKey?: string; kept?: KeptAnswer; redisNowMs?: number }> {
    const buckets = this.bucketsOf(method, route, true);
    if (buckets.length === 0 && write === undefined) return { claim: 'new', headers: {} };
    const claim = write && { key: `${this.settings.keyPrefix}:l2-seen:${apiKey}:${write.signature}`, signedByMs: write.signedByMs, repeatableForMs: write.repeatableForMs };
    const bucketsKey = this.hashKey(`signer:${address}`);
    // A refused batch is remembered for its size: a smaller one may pass sooner.
    const memoKey = `${bucketsKey} ${method} ${route}${items > 1 ? ` x${items}` : ''}`;
    this.refuseRemembered(memoKey);
    let answer;
    try {
      answer = await this.store.admit({ claim, bucketsKey, buckets, items });
      this.failures.cleared();
      // The end of an outage is said too: a probe read one line for 4,150 refusals, and none after.
      const refused = this.refusedWrites.ended();
      if (refused > 0) this.logger.log(`signed writes admitted again: ${refused} refused (503) while Redis failed their replay check`);
    } catch (error) {
      if (claim !== undefined) {
        this.refusedWrites.occurred((since) =>
          this.logger.warn(`signed writes refused (503): Redis failed their replay check, ${since} refused since the last such line: ${errorMessage(error)}`),
        );
        throw error;
      }
      this.failures.failed(errorMessage(error));
      return { claim: 'new', headers: {} };
    }
    let headers: ResponseHeaders = {};
    try {
      headers = answer.verdict ? this.verdictHeaders(answer.verdict, memoKey) : {};
    } catch (refusal) {
      // A 429 of a claimed write is kept for its replays like any failure of one (L2Authenticator.keepFailure).
      if (answer.claim === 'new' && claim !== undefined && refusal instanceof ApiError) {
        await this.keepAnswer(claim.key, { status: refusal.failure.status, body: JSON.stringify(refusal.failure.body) });
      }
      throw refusal;
    }
    if (answer.claim === 'new' && claim !== undefined) return { claim: 'new', headers, claimKey: claim.key };
    if (answer.redisNowMs !== undefined) return { claim: answer.claim, headers, redisNowMs: answer.redisNowMs };
    return answer.kept ? { claim: answer.claim, headers, kept: answer.kept } : { claim: answer.claim, headers };
  }

  /**
   * Keeps the failure a signed write (`admitSigned`'s `claimKey`) was answered with, for its replays. A
   * failure of Redis is logged: its replays are then told they are replays.
   */
  async keepAnswer(claimKey: string, answer: KeptAnswer): Promise<void> {
    // A larger answer (one naming what a client sent, say) is not kept: its replays are told they are replays.
    if (answer.body.length > MAX_KEPT_ANSWER_CHARACTERS) return;
    try {
      await this.store.keepAnswer(claimKey, answer);
    } catch (error) {
      this.logger.warn(`a refused signed write's answer could not be kept for its replays (Redis failed): ${errorMessage(error)}`);
    }
  }

  /** The headers of a verdict; throws the 429 (with them) when it refuses, and remembers the refusal. */
  private verdictHeaders(verdict: BucketVerdict, memoKey: string): ResponseHeaders {
    if (verdict.admitted) return limitHeaders(verdict.limit, verdict.remaining, verdict.resetAtMs);
    const refusal = { untilMs: Date.now() + verdict.retryAfterMs, limit: verdict.limit, remaining: verdict.remaining, resetAtMs: verdict.resetAtMs };
    if (this.refusals.size >= MAX_REMEMBERED_REFUSALS) this.forgetPastRefusals();
    this.refusals.set(memoKey, refusal);
    return this.refuse(refusal);
  }

  private refuseRemembered(memoKey: string): void {
    const refusal = this.refusals.get(memoKey);
    if (refusal === undefined) return;
    if (Date.now() < refusal.untilMs) this.refuse(refusal);
    this.refusals.delete(memoKey);
  }

  private refuse({ untilMs, limit, remaining, resetAtMs }: Refusal): never {
    const seconds = Math.max(1, Math.ceil((untilMs - Date.now()) / 1_000));
    throw ApiError.of('rate_limited', 'Too Many Requests', seconds, limitHeaders(limit, remaining, resetAtMs));
  }

  /** Drops the refusals whose time has passed; all of them if that leaves the bound reached. */
  private forgetPastRefusals(): void {
    const now = Date.now();
    for (const [key, refusal] of this.refusals) if (refusal.untilMs <= now) this.refusals.delete(key);
    if (this.refusals.size >= MAX_REMEMBERED_REFUSALS) this.refusals.clear();
  }

  /** The buckets of a route, one array per route (the store sends each once per script run). */
  private bucketsOf(method: string, route: string, signed: boolean): readonly BucketCheck[] {
    const cacheKey = `${signed ? 'key' : 'ip'} ${method} ${route}`;
    let buckets = this.routeBuckets.get(cacheKey);
    if (buckets === undefined) {
      const limits = routeLimits(method, route);
      buckets =
        !this.settings.enabled || !limits || (!signed && limits.keyed)
          ? []
          : limits.buckets.map((bucket) => {
              const { limit, windowSeconds } = scaled(bucket, this.settings.scale);
              return { field: bucket.name, limit, windowMs: windowSeconds * 1_000, perItem: bucket.perItem ?? false };
            });
      // Paths that are not routes (unknown ones, ids in paths of L2 routes) are not kept.
      if (this.routeBuckets.size < MAX_CACHED_ROUTES && !/\d/.test(route)) this.routeBuckets.set(cacheKey, buckets);
    }
    return buckets;
  }

  private hashKey(identity: string): string {
    return `${this.settings.keyPrefix}:rl:${identity}`;
  }
}


/** The X-RateLimit headers of a limit: its size, what is left of it, and when it is full again (unix ms). */
function limitHeaders(limit: number, remaining: number, resetAtMs: number): ResponseHeaders {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.ceil(resetAtMs / 1_000)),
  };
}
