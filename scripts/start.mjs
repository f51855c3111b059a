// Starts every app of the exchange against the local PostgreSQL, Redis and NATS: creates and migrates
// each service's database, starts the services, then the gateway, and waits until all are healthy.
// By default the apps keep running in the background (logs and pids in .run/); --foreground keeps them
// attached to this terminal; --stop stops them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runDir = path.join(root, '.run');
const require = createRequire(import.meta.url);

const server = process.env.DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432';
const shared = {
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  NATS_PREFIX: process.env.NATS_PREFIX ?? 'exch',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
};

/** In start order: services first, the gateway last. */
const apps = [
  {
    name: 'catalog',
    database: 'exchange_catalog',
    env: { HEALTH_PORT: '9101', DEMO_DATA: process.env.DEMO_DATA ?? 'true' },
    health: 'http://127.0.0.1:9101/healthz',
  },
  {
    name: 'order-matching',
    database: 'exchange_matching',
    env: { HEALTH_PORT: '9103' },
    health: 'http://127.0.0.1:9103/healthz',
  },
  {
    name: 'market-data',
    database: 'exchange_marketdata',
    env: { HEALTH_PORT: '9102' },
    health: 'http://127.0.0.1:9102/healthz',
  },
  {
    name: 'gateway',
    database: 'exchange_gateway',
    env: { ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me', PORT: process.env.PORT ?? '8080' },
    health: `http://127.0.0.1:${process.env.PORT ?? '8080'}/ok`,
  },
];

const pidFile = (app) => path.join(runDir, `${app.name}.pid`);
const logFile = (app) => path.join(runDir, `${app.name}.log`);

function stopAll() {
  for (const app of [...apps].reverse()) {
    if (!existsSync(pidFile(app))) continue;
    const pid = Number(readFileSync(pidFile(app), 'utf8'));
    try {
      process.kill(pid, 'SIGTERM');
      console.log(`stopped ${app.name} (pid ${pid})`);
    } catch {
      // Already gone.
    }
    rmSync(pidFile(app));
  }
}

async function waitHealthy(app, child, seconds = 90) {
  for (let i = 0; i < seconds * 4; i++) {
    if (child.exitCode !== null) throw new Error(`${app.name} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(app.health);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${app.name} did not become healthy within ${seconds}s`);
}

function launch(app, foreground) {
  const env = { ...process.env, ...shared, ...app.env };
  if (app.database) env.DATABASE_URL = `${server}/${app.database}`;
  const cwd = path.join(root, 'apps', app.name);
  if (foreground) {
    const child = spawn(process.execPath, ['dist/main.js'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = (chunk) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${app.name}] `));
    child.stdout.on('data', prefix);
    child.stderr.on('data', prefix);
    return child;
  }
  const log = openSync(logFile(app), 'a');
  const child = spawn(process.execPath, ['dist/main.js'], { cwd, env, stdio: ['ignore', log, log], detached: true });
  writeFileSync(pidFile(app), String(child.pid));
  child.unref();
  return child;
}

async function main() {
  const args = process.argv.slice(2);
  mkdirSync(runDir, { recursive: true });
  stopAll();
  if (args.includes('--stop')) return;
  const foreground = args.includes('--foreground');

  const kit = require(path.join(root, 'packages/service-kit/dist/index.js'));
  for (const app of apps.filter((a) => a.database)) {
    const url = `${server}/${app.database}`;
    await kit.ensureDatabase(url);
    await kit.migrateDatabase(path.join(root, 'apps', app.name), url);
    console.log(`${app.name}: database ${app.database} migrated`);
  }

  const children = [];
  for (const app of apps) {
    const child = launch(app, foreground);
    children.push(child);
    try {
      await waitHealthy(app, child);
    } catch (error) {
      if (!foreground) console.error(readFileSync(logFile(app), 'utf8').split('\n').slice(-30).join('\n'));
      for (const c of children) c.kill('SIGTERM');
      throw error;
    }
    console.log(`${app.name}: healthy`);
  }
  const port = apps.find((a) => a.name === 'gateway').env.PORT;
  console.log(`\nThe exchange is up: http://localhost:${port} (catalog :8081, CLOB :8082, data :8083).`);
  if (foreground) {
    const stop = () => children.forEach((c) => c.kill('SIGTERM'));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } else {
    console.log(`Logs: .run/*.log. Stop with ./scripts/stop.sh`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
