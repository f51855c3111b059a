import type { NatsConnection } from 'nats';
import { PrismaPg } from '@prisma/adapter-pg';
import { Redis } from 'ioredis';
import { sayConnectionFailures, type JsonLogger } from '@exchange/service-kit';
import type { GatewayEnv } from '../config';
import { PrismaClient } from '../generated/prisma/client';
import { ApiKeyCache } from './api-key-cache';
import { CredentialCipher } from './credential-cipher';
import { KeyRevocations } from './key-revocations';
import { sayEvictingRedis } from './redis-eviction';
import { AdmissionStore } from '../http/admission-store';

/** How much longer than the freshness windows a signature is remembered: 1 s for a timestamp in seconds, the rest slack. */
const CLAIM_MARGIN_SECONDS = 5;

/** How long a key read waits for a database connection before it fails as unavailable. */
const DATABASE_CONNECT_TIMEOUT_MS = 5_000;

/** The settings of authentication, read once from the gateway's environment. */
export interface AuthSettings {
  chainId: number;
  /** Freshness window of L1/L2 timestamps, either way. */
  maxSkewMs: number;
  serverSecret: Buffer;
}

/**
 * What authentication shares across the gateway's surfaces (one Nest application each): one database
 * pool, one Redis connection and one key cache per process, so that a revoke seen by one surface is
 * seen by all. Created once at startup, closed at shutdown.
 */
export class AuthResources {
  readonly cache = new ApiKeyCache();
  private revocations?: KeyRevocations;

  private constructor(
    readonly settings: AuthSettings,
    readonly prisma: PrismaClient,
    readonly redis: Redis,
    readonly admissions: AdmissionStore,
    readonly cipher: CredentialCipher,
  ) {}

  static create(env: GatewayEnv, logger: JsonLogger): AuthResources {
    // A connection (or a free one of the pool) not had within 5 s fails as unavailable: without a limit a
    // server that stopped answering held every key read for as long as the system's TCP timeouts.
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS }) });
    // No auto-pipelining: each ioredis Pipeline gets a `length` getter of its own, which V8 keeps in a new
    // hidden class in old space; that holds the pipeline, its commands and promises through every
    // scavenge until a full collection, so every replay check was promoted (~0.45 MB per scavenge at
    // 2,000 orders/s) and forced a 5-9 ms mark-compact every few seconds (docs/performance.md, eighth session).
    const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
    sayConnectionFailures(redis, (message) => logger.warn(`redis: ${message}`, 'auth'));
    sayEvictingRedis(redis, (message) => logger.warn(message, 'auth'));
    const settings: AuthSettings = {
      chainId: env.CHAIN_ID,
      maxSkewMs: env.L2_MAX_SKEW_SECONDS * 1_000,
      serverSecret: Buffer.from(env.AUTH_SECRET, 'utf8'),
    };
    // A timestamp is fresh for at most 2 × the window (one in seconds, a second more), so a signature needs
    // remembering that long, by Redis's clock, which also judges the claim's freshness (AdmissionStore).
    const claims = { ttlSeconds: env.L2_MAX_SKEW_SECONDS * 2 + CLAIM_MARGIN_SECONDS, maxSkewMs: env.L2_MAX_SKEW_SECONDS * 1_000 };
    const admissions = new AdmissionStore(redis, claims, `${env.REDIS_KEY_PREFIX}:l2-memory-since`);
    const cipher = new CredentialCipher(Buffer.from(env.CREDENTIALS_KEY, 'base64'));
    return new AuthResources(settings, prisma, redis, admissions, cipher);
  }

  /**
   * Whether Redis became ready within `timeoutMs`. The gateway waits for it before it listens: the rate
   * limits and replay checks of requests that arrive before it is connected cannot be applied (the limits
   * are then skipped, writes refused), which at every start let the first requests through unlimited (found
   * by a review of the tests). A Redis that is down at start does not keep the gateway from starting.
   */
  untilRedisReady(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', ready);
        resolve(false);
      }, timeoutMs);
      const ready = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.redis.once('ready', ready);
    });
  }

  /** Hears of keys revoked by other gateway processes, and tells them of this one's (KeyRevocations). */
  shareRevocations(nc: NatsConnection, prefix: string, warn: (message: string) => void): void {
    this.revocations = new KeyRevocations(nc, prefix, this.cache, warn);
  }

  /** A key revoked here, committed: refused at once in this process and, told over NATS, in the others. */
  revoked(apiKey: string): void {
    this.cache.setRevoked(apiKey);
    this.revocations?.announce(apiKey);
  }

  async close(): Promise<void> {
    this.revocations?.close();
    await Promise.allSettled([this.prisma.$disconnect(), this.redis.quit()]);
    this.redis.disconnect();
  }
}
