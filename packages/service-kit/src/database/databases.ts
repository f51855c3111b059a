import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';

/** The server-level database used to create and drop service databases. */
function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/^[a-z0-9_]{1,63}$/.test(name)) throw new Error(`unexpected database name "${name}"`);
  return name;
}

async function withAdmin<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl(databaseUrl) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withAdmin(databaseUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  await withAdmin(databaseUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** What `prisma migrate deploy` prints once every migration is applied. */
const MIGRATED = /All migrations have been successfully applied|No pending migrations to apply/;

/**
 * Applies a service's Prisma migrations with the offline WebAssembly engine (ENVIRONMENT.md). The
 * engine leaves a 10 s timer running after it is done, so the CLI is stopped once it reports success
 * instead of waiting for it to exit by itself.
 */
export async function migrateDatabase(serviceDir: string, databaseUrl: string): Promise<void> {
  const cli = require.resolve('prisma/build/index.js', { paths: [serviceDir] });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: serviceDir,
      env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let done = false;
    child.stdout.on('data', (d) => {
      output += d;
      if (!done && MIGRATED.test(output)) {
        done = true;
        child.kill('SIGTERM');
        resolve();
      }
    });
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (done) return;
      if (code === 0) resolve();
      else reject(new Error(`prisma migrate deploy failed in ${serviceDir}:\n${output}`));
    });
  });
}

/** The server's maintenance database, from which tests create and drop their own (DATABASE_ADMIN_URL). */
export function adminDatabaseUrl(): string {
  return process.env.DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

/** A fresh database with no tables and a random name (`label` in it), for one test run. */
export async function createEmptyTestDatabase(label: string): Promise<string> {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/test_${label}_${randomBytes(5).toString('hex')}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  return databaseUrl;
}

/** A fresh database with a random name, migrated to a service's schema, for one test run. */
export async function createTestDatabase(serviceDir: string, label: string): Promise<string> {
  const databaseUrl = await createEmptyTestDatabase(label);
  await migrateDatabase(path.resolve(serviceDir), databaseUrl);
  return databaseUrl;
}
