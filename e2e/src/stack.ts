import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import { deleteRedisKeys, deleteStreams, freePort, spawnApp, TEST_NATS_URL, testPrefix, waitHealthy, type AppProcess } from '@exchange/testing';

/** The Redis keys of a run (market-data's hot metadata and quotes, the gateway's replay keys), walked with SCAN. */
async function deleteRunKeys(prefix: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    await deleteRedisKeys(redis, `${prefix}:`);
  } finally {
    redis.disconnect();
  }
}

export const REPO_ROOT = path.resolve(__dirname, '../..');
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

export type AppName = 'catalog' | 'order-matching' | 'market-data' | 'gateway';

export interface Stack {
  /** The NATS subject and stream prefix of this stack. */
  prefix: string;
  /** The combined port. */
  base: string;
  urls: { combined: string; catalog: string; clob: string; data: string };
  /** JSON request with the admin bearer token. */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** Stops an app gracefully (or with a signal), runs `whileDown`, and starts it again on the same database. */
  restart(name: AppName, signal?: NodeJS.Signals, whileDown?: () => Promise<void>): Promise<void>;
  /** The running process of an app. */
  process(name: AppName): AppProcess;
  /**
   * Starts a second process of an app on the same database and NATS prefix, with a health port of its
   * own (for order-matching: a second engine), without waiting for it; `stop` ends it too.
   */
  startAnother(name: Exclude<AppName, 'gateway'>): Promise<{ app: AppProcess; health: string }>;
  /** The database an app runs on. */
  databaseUrl(name: AppName): string;
  stop(): Promise<void>;
}

export interface StackOptions {
  demo?: boolean;
  /** order-matching's post-only window after a restart (default 0: tests that want it say so). */
  postOnlyAfterRestartSeconds?: number;
  /** Another NATS than the machine's (with credentials in its user part, say); its streams are its own to remove. */
  natsUrl?: string;
}

/**
 * The built apps as real processes on fresh databases, a fresh NATS prefix and Redis key prefix, behind
 * a gateway on free ports: what a client of the exchange talks to.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const prefix = testPrefix('e2e');
  const databases = {
    catalog: await createTestDatabase(path.join(REPO_ROOT, 'apps/catalog'), 'e2e_catalog'),
    'order-matching': await createTestDatabase(path.join(REPO_ROOT, 'apps/order-matching'), 'e2e_matching'),
    'market-data': await createTestDatabase(path.join(REPO_ROOT, 'apps/market-data'), 'e2e_marketdata'),
    gateway: await createTestDatabase(path.join(REPO_ROOT, 'apps/gateway'), 'e2e_gateway'),
  };
  const [combined, catalogPort, clob, data, catalogHealth, matchingHealth, marketDataHealth] = await Promise.all(
    Array.from({ length: 7 }, () => freePort()),
  );
  const shared = { NATS_URL: options.natsUrl ?? TEST_NATS_URL, NATS_PREFIX: prefix };
  const specs: Record<AppName, { env: Record<string, string>; health: string }> = {
    catalog: {
      env: { ...shared, DATABASE_URL: databases.catalog, HEALTH_PORT: String(catalogHealth), DEMO_DATA: options.demo ? 'true' : 'false', ACTIVITY_SYNC_SECONDS: '1' },
      health: `http://127.0.0.1:${catalogHealth}/healthz`,
    },
    'order-matching': {
      env: {
        ...shared,
        DATABASE_URL: databases['order-matching'],
        HEALTH_PORT: String(matchingHealth),
        POST_ONLY_AFTER_RESTART_SECONDS: String(options.postOnlyAfterRestartSeconds ?? 0),
      },
      health: `http://127.0.0.1:${matchingHealth}/healthz`,
    },
    'market-data': {
      env: { ...shared, DATABASE_URL: databases['market-data'], HEALTH_PORT: String(marketDataHealth), REDIS_KEY_PREFIX: prefix },
      health: `http://127.0.0.1:${marketDataHealth}/healthz`,
    },
    gateway: {
      env: {
        ...shared,
        DATABASE_URL: databases.gateway,
        REDIS_KEY_PREFIX: prefix,
        ADMIN_TOKEN,
        AUTH_SECRET: randomBytes(32).toString('hex'),
        CREDENTIALS_KEY: randomBytes(32).toString('base64'),
        HOST: '127.0.0.1',
        PORT: String(combined),
        CATALOG_PORT: String(catalogPort),
        CLOB_PORT: String(clob),
        DATA_PORT: String(data),
        ACCESS_LOG: 'false',
      },
      health: `http://127.0.0.1:${combined}/ok`,
    },
  };
  const running = new Map<AppName, AppProcess>();
  const others: AppProcess[] = [];
  const start = async (name: AppName) => {
    const app = spawnApp(REPO_ROOT, name, specs[name].env);
    running.set(name, app);
    await waitHealthy(specs[name].health, app);
  };
  try {
    for (const name of ['catalog', 'order-matching', 'market-data', 'gateway'] as const) await start(name);
  } catch (error) {
    await Promise.all([...running.values()].map((a) => a.stop('SIGKILL')));
    throw error;
  }
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return {
    prefix,
    base: url(combined),
    urls: { combined: url(combined), catalog: url(catalogPort), clob: url(clob), data: url(data) },
    admin: (method, route, body) =>
      fetch(url(combined) + route, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async restart(name, signal, whileDown) {
      await running.get(name)?.stop(signal);
      await whileDown?.();
      await start(name);
    },
    process: (name) => running.get(name)!,
    async startAnother(name) {
      const port = await freePort();
      const app = spawnApp(REPO_ROOT, name, { ...specs[name].env, HEALTH_PORT: String(port) });
      others.push(app);
      return { app, health: `http://127.0.0.1:${port}/healthz` };
    },
    databaseUrl: (name) => databases[name],
    async stop() {
      await Promise.all([...running.values(), ...others].map((a) => a.stop()));
      for (const url of Object.values(databases)) await dropDatabase(url);
      if (options.natsUrl === undefined) await deleteStreams(prefix);
      await deleteRunKeys(prefix);
    },
  };
}
