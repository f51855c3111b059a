// Starts every app of the exchange against the local PostgreSQL, Redis and NATS: creates and migrates
// each service's database, starts the services, then the gateway, and waits until all are healthy.
// The apps run under a supervisor that starts an app again when it exits (order-matching exits on
// purpose when a journal write fails), as docker-compose's `restart: unless-stopped` does.
// By default the supervisor and the apps keep running in the background (logs and pids in .run/);
// --foreground keeps them attached to this terminal; --stop stops them; --supervise is the background
// supervisor itself.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Real path: what /proc tells of a process (its cwd, its script) is one too.
const root = realpathSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
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
    // The repository's development secrets, which the gateway takes only when allowed: so the gateway
    // listens on the loopback unless HOST says otherwise (docs/auth.md, "Development secrets").
    env: {
      ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me',
      ALLOW_DEV_SECRETS: process.env.ALLOW_DEV_SECRETS ?? 'true',
      HOST: process.env.HOST ?? '127.0.0.1',
      PORT: process.env.PORT ?? '8080',
    },
    health: `http://127.0.0.1:${process.env.PORT ?? '8080'}/ok`,
  },
];

const pidFile = (name) => path.join(runDir, `${name}.pid`);
const logFile = (name) => path.join(runDir, `${name}.log`);
const SUPERVISOR = 'supervisor';
const kit = () => require(path.join(root, 'packages/service-kit/dist/index.js'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/**
 * Whether a recorded pid is still one of ours (where /proc tells): after a reboot it may be any process,
 * and in a copy of the repository (cp -a copies .run/) it is the original checkout's, which the copy's
 * start must not stop. So its script (the supervisor's start.mjs, an app's dist/main.js, relative to the
 * app's directory) must be this checkout's.
 */
const ours = (pid) => {
  try {
    const script = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .find((arg) => arg.endsWith('start.mjs') || arg.endsWith('dist/main.js'));
    if (script === undefined) return false;
    const where = path.relative(root, path.resolve(readlinkSync(`/proc/${pid}/cwd`), script));
    return !where.startsWith('..') && !path.isAbsolute(where);
  } catch {
    return !existsSync('/proc') && alive(pid);
  }
};

/** Stops the supervisor (which stops its apps) and any app an older runner left, and waits until they are gone. */
async function stopAll() {
  for (const name of [SUPERVISOR, ...apps.map((a) => a.name).reverse()]) {
    if (!existsSync(pidFile(name))) continue;
    const pid = Number(readFileSync(pidFile(name), 'utf8'));
    rmSync(pidFile(name));
    if (!ours(pid)) continue;
    process.kill(pid, 'SIGTERM');
    // The supervisor waits up to 15 s for each app; the ports must be free before the next start.
    for (let i = 0; i < 600 && alive(pid); i++) await sleep(100);
    console.log(`stopped ${name} (pid ${pid})`);
  }
}

/** The gateway's surfaces' ports, as the gateway reads them (its defaults otherwise). */
const surfacePorts = () => ({
  catalog: Number(process.env.CATALOG_PORT ?? 8081),
  clob: Number(process.env.CLOB_PORT ?? 8082),
  data: Number(process.env.DATA_PORT ?? 8083),
});

/** The ports the apps listen on: their health ports, the gateway's and its surfaces'. */
function appPorts() {
  return [...apps.map((app) => Number(app.env.HEALTH_PORT ?? app.env.PORT)), ...Object.values(surfacePorts())];
}

/**
 * Fails at once when a port an app needs is taken (another checkout's exchange, which this one's stop
 * leaves alone, or any other program): the apps would otherwise be restarted for 90 s and then reported
 * "not healthy".
 */
async function assertPortsFree() {
  for (const port of appPorts()) {
    const free = await new Promise((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
    });
    if (!free) throw new Error(`port ${port} is in use by another process (another checkout's exchange? stop it with its own ./scripts/stop.sh)`);
  }
}

async function waitHealthy(app, seconds = 90) {
  for (let i = 0; i < seconds * 4; i++) {
    try {
      const response = await fetch(app.health);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`${app.name} did not become healthy within ${seconds}s`);
}

// A larger first old-generation limit: without it V8 ran a full collection every 1-2 s under load, the
// main source of the order path's slowest answers (docs/architecture.md, "Heap"). As in the image's CMD.
const NODE_FLAGS = ['--initial-old-space-size=256'];

// The logs in .run/ grow without end otherwise: the gateway's access log alone about 8 GB a day at a
// few hundred requests a second. Each file past a piece (16 MB, or the limit if smaller) is copied to
// <name>.log.1, after the older copies moved up one, and emptied; the copies together keep about the limit.
const LOG_MAX_MB = Number(process.env.LOG_MAX_MB ?? '256');
// Often, so that a piece is cut near its size even when an app logs a few MB a second (a stat per log).
const LOG_CHECK_MS = 5_000;

/** Checked before anything starts: a bad limit would otherwise trim every log at each check, or never. */
function checkLogLimit() {
  if (!Number.isInteger(LOG_MAX_MB) || LOG_MAX_MB < 1) throw new Error(`LOG_MAX_MB must be a whole number of megabytes, at least 1 (got ${process.env.LOG_MAX_MB})`);
}

function trimLogsInPieces(say) {
  const files = [SUPERVISOR, ...apps.map((a) => a.name)].map(logFile);
  const limits = kit().logLimits(LOG_MAX_MB * 1024 * 1024);
  const timer = setInterval(() => {
    try {
      kit().trimLogs(files, limits);
    } catch (error) {
      say(`trimming the logs failed: ${error instanceof Error ? error.message : error}`);
    }
  }, LOG_CHECK_MS);
  timer.unref();
}

function supervisedApp(app, stdio) {
  const env = { ...process.env, ...shared, ...app.env };
  if (app.database) env.DATABASE_URL = `${server}/${app.database}`;
  return { name: app.name, command: process.execPath, args: [...NODE_FLAGS, 'dist/main.js'], cwd: path.join(root, 'apps', app.name), env, stdio };
}

/** Starts the apps in order under a supervisor, each once the one before is healthy. */
async function superviseApps(foreground) {
  const say = (line) => console.log(`${new Date().toISOString()} supervisor: ${line}`);
  const supervisor = new (kit().Supervisor)({
    onStart: (app, child) => {
      if (foreground) {
        const prefix = (chunk) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${app.name}] `));
        child.stdout.on('data', prefix);
        child.stderr.on('data', prefix);
      } else {
        // A restart on a full disk must not end the supervisor: without the file, --stop still stops
        // the app through the supervisor.
        try {
          writeFileSync(pidFile(app.name), String(child.pid));
        } catch (error) {
          say(`recording the pid of ${app.name} failed: ${error instanceof Error ? error.message : error}`);
        }
      }
    },
    onEvent: (_app, line) => say(line),
  });
  for (const app of apps) {
    // One descriptor for both streams, kept for every restart of the app.
    const log = foreground ? undefined : openSync(logFile(app.name), 'a');
    supervisor.start(supervisedApp(app, foreground ? ['ignore', 'pipe', 'pipe'] : ['ignore', log, log]));
    try {
      await waitHealthy(app);
    } catch (error) {
      await supervisor.stop();
      if (!foreground) console.error(readFileSync(logFile(app.name), 'utf8').split('\n').slice(-30).join('\n'));
      throw error;
    }
    say(`${app.name} is healthy`);
  }
  if (!foreground) trimLogsInPieces(say);
  const stop = () =>
    void supervisor.stop().then(() => {
      if (!foreground) for (const app of apps) rmSync(pidFile(app.name), { force: true });
      process.exit(0);
    });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function migrateAll() {
  for (const app of apps.filter((a) => a.database)) {
    const url = `${server}/${app.database}`;
    await kit().ensureDatabase(url);
    await kit()
      .migrateDatabase(path.join(root, 'apps', app.name), url)
      .catch((error) => {
        const said = error instanceof Error ? error.message : String(error);
        throw new Error(`${said}\nThe exchange is stopped. If a migration failed (not the database being unreachable): docs/operations.md, "A migration that fails".`);
      });
    console.log(`${app.name}: database ${app.database} migrated`);
  }
}

/** Starts the supervisor in the background and waits for its word that every app is healthy. */
async function startInBackground() {
  const log = openSync(logFile(SUPERVISOR), 'a');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--supervise'], { detached: true, stdio: ['ignore', log, log, 'ipc'] });
  writeFileSync(pidFile(SUPERVISOR), String(child.pid));
  const word = await new Promise((resolve) => {
    child.once('message', resolve);
    child.once('exit', () => resolve('exited'));
  });
  if (word !== 'ready') {
    console.error(readFileSync(logFile(SUPERVISOR), 'utf8').split('\n').slice(-40).join('\n'));
    throw new Error('the exchange did not start');
  }
  child.disconnect();
  child.unref();
}

async function main() {
  // A full disk fails the writes to .run/supervisor.log (ENOSPC), as a reader gone does a terminal's or
  // pipe's (EPIPE): Node emits that as an 'error' event, which without a listener would end the
  // supervisor and with it the restarts of the apps. The lines are lost; saying so would fail too.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const args = process.argv.slice(2);
  mkdirSync(runDir, { recursive: true });
  if (args.includes('--supervise')) {
    try {
      await superviseApps(false);
      // The starting script disconnects once it has this.
      process.send?.('ready');
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
    return;
  }
  await stopAll();
  if (args.includes('--stop')) return;
  await assertPortsFree();
  checkLogLimit();
  await migrateAll();
  const foreground = args.includes('--foreground');
  if (foreground) await superviseApps(true);
  else await startInBackground();
  const port = apps.find((a) => a.name === 'gateway').env.PORT;
  const { catalog, clob, data } = surfacePorts();
  console.log(`\nThe exchange is up: http://localhost:${port} (catalog :${catalog}, CLOB :${clob}, data :${data}).`);
  console.log(foreground ? 'Stop with Ctrl-C.' : `Logs: .run/*.log. Stop with ./scripts/stop.sh`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
