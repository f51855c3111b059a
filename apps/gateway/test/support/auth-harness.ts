import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createL1Headers } from '@polymarket/clob-client-v2';
import { Redis } from 'ioredis';
import { createWalletClient, http, type WalletClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { l2Signature } from '@exchange/chain';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import { deleteRedisKeys, deleteStreams, TEST_NATS_URL, testPrefix, until } from '@exchange/testing';
import { loadGatewayEnv, type GatewayEnv } from '../../src/config';
import { startGateway, type RunningGateway } from '../../src/gateway';

export const L2_WINDOW_SECONDS = 30;

/** A logger for parts under test whose lines the test does not read. */
export const SILENT_LOGGER = { warn: () => undefined, log: () => undefined };

export interface AuthGateway {
  gateway: RunningGateway;
  env: GatewayEnv;
  /** The combined surface. */
  base: string;
  /** The CLOB surface. */
  clob: string;
  close(): Promise<void>;
}

/** A gateway's settings for a test: every surface on a free loopback port, real NATS under `prefix`. */
export function testGatewayEnv(prefix: string, adminToken: string, env: Record<string, string>): GatewayEnv {
  return loadGatewayEnv({
    PORT: '0',
    CATALOG_PORT: '0',
    CLOB_PORT: '0',
    DATA_PORT: '0',
    HOST: '127.0.0.1',
    NATS_URL: TEST_NATS_URL,
    NATS_PREFIX: prefix,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'error',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    ...env,
  });
}

/** A gateway in-process on real NATS, a fresh database and a Redis key prefix of its own; `env` adds settings. */
export async function startAuthGateway(label: string, env: Record<string, string> = {}): Promise<AuthGateway> {
  const databaseUrl = await createTestDatabase(path.join(__dirname, '../..'), label);
  const prefix = testPrefix(label.slice(0, 6));
  const settings = testGatewayEnv(prefix, 'auth-test-admin-token', {
    ACCESS_LOG: 'false',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: prefix,
    L2_MAX_SKEW_SECONDS: String(L2_WINDOW_SECONDS),
    ...env,
  });
  const gateway = await startGateway(settings);
  const redis = new Redis(settings.REDIS_URL);
  // The gateway listens before its Redis connection is ready, and applies no rate limits until it is:
  // a test's first requests would not be counted. Ready once its admission store noted Redis's memory.
  const memoryKey = `${settings.REDIS_KEY_PREFIX}:l2-memory-since`;
  await until(async () => ((await redis.exists(memoryKey)) === 1 ? true : undefined), 10_000, 'the gateway reaches Redis');
  return {
    gateway,
    env: settings,
    base: `http://127.0.0.1:${gateway.ports.combined}`,
    clob: `http://127.0.0.1:${gateway.ports.clob}`,
    async close() {
      await gateway.close();
      // Every key of the run: the memory key has no expiry, and buckets and claims outlive the run.
      await deleteRedisKeys(redis, `${settings.REDIS_KEY_PREFIX}:`);
      await redis.quit();
      await deleteStreams(prefix);
      await dropDatabase(databaseUrl);
    },
  };
}

export interface TestWallet {
  key: `0x${string}`;
  /** EIP-55 checksummed, as the clients send it. */
  address: string;
  signer: WalletClient;
}

export function newWallet(): TestWallet {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  // Signing with a local account never uses the transport.
  return { key, address: account.address, signer: createWalletClient({ account, transport: http('http://127.0.0.1:9') }) };
}

export interface Credentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

type Prefix = 'POLY' | 'SVC';

function prefixed(headers: Record<string, string>, prefix: Prefix): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^POLY_/, `${prefix}_`), value]));
}

/** L1 headers as the upstream client makes them (seconds), optionally renamed to SVC_. */
export async function l1Headers(wallet: TestWallet, options: { nonce?: number; timestamp?: number; chainId?: number; prefix?: Prefix } = {}) {
  const headers = await createL1Headers(wallet.signer, (options.chainId ?? 137) as 137, options.nonce, options.timestamp);
  return prefixed(Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])), options.prefix ?? 'POLY');
}

/** L2 headers for a request; the timestamp is a string as sent (seconds or milliseconds). */
export function l2Headers(
  credentials: Credentials,
  address: string,
  request: { method: string; path: string; body?: string; timestamp?: string; prefix?: Prefix },
): Record<string, string> {
  const timestamp = request.timestamp ?? String(Math.floor(Date.now() / 1000));
  const headers = {
    POLY_ADDRESS: address,
    POLY_API_KEY: credentials.apiKey,
    POLY_PASSPHRASE: credentials.passphrase,
    POLY_TIMESTAMP: timestamp,
    POLY_SIGNATURE: l2Signature(credentials.secret, timestamp, request.method, request.path, request.body),
  };
  return prefixed(headers, request.prefix ?? 'POLY');
}
