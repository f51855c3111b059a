import path from 'node:path';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import { deleteStreams, freePort, spawnApp, TEST_NATS_URL, testPrefix, waitHealthy, type AppProcess } from '@exchange/testing';

export const REPO_ROOT = path.resolve(__dirname, '../..');
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

export interface Stack {
  /** The combined port. */
  base: string;
  urls: { combined: string; catalog: string; clob: string; data: string };
  /** JSON request with the admin bearer token. */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  restart(name: 'catalog' | 'gateway'): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The built apps as real processes on a fresh database and NATS prefix, behind a gateway on free
 * ports: what a client of the exchange talks to.
 */
export async function startStack(options: { demo?: boolean } = {}): Promise<Stack> {
  const prefix = testPrefix('e2e');
  const catalogDb = await createTestDatabase(path.join(REPO_ROOT, 'apps/catalog'), 'e2e_catalog');
  const [combined, catalogPort, clob, data, catalogHealth] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const shared = { NATS_URL: TEST_NATS_URL, NATS_PREFIX: prefix };
  const specs = {
    catalog: {
      env: { ...shared, DATABASE_URL: catalogDb, HEALTH_PORT: String(catalogHealth), DEMO_DATA: options.demo ? 'true' : 'false' },
      health: `http://127.0.0.1:${catalogHealth}/healthz`,
    },
    gateway: {
      env: {
        ...shared,
        ADMIN_TOKEN,
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
  const running = new Map<string, AppProcess>();
  const start = async (name: keyof typeof specs) => {
    const app = spawnApp(REPO_ROOT, name, specs[name].env);
    running.set(name, app);
    await waitHealthy(specs[name].health, app);
  };
  try {
    await start('catalog');
    await start('gateway');
  } catch (error) {
    await Promise.all([...running.values()].map((a) => a.stop('SIGKILL')));
    throw error;
  }
  const url = (port: number) => `http://127.0.0.1:${port}`;
  return {
    base: url(combined),
    urls: { combined: url(combined), catalog: url(catalogPort), clob: url(clob), data: url(data) },
    admin: (method, route, body) =>
      fetch(url(combined) + route, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async restart(name) {
      await running.get(name)?.stop();
      await start(name);
    },
    async stop() {
      await Promise.all([...running.values()].map((a) => a.stop()));
      await dropDatabase(catalogDb);
      await deleteStreams(prefix);
    },
  };
}
