import { spawn } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'pg';
import { adminDatabaseUrl } from '../src/database/databases';
import { inTransaction } from '../src/database/pg-pool';

const SERVER = adminDatabaseUrl();

/**
 * A child process with one pool: it prints its connection's backend pid, waits for a line on stdin (the
 * test ends that connection meanwhile), then queries again. Uses the built package: an 'error' event
 * without a listener ends a real process, which a test inside jest's process would not show.
 */
const CHILD = `
const { pgPool } = require(${JSON.stringify(path.join(__dirname, '../dist/database/pg-pool.js'))});
const pool = pgPool('test', { connectionString: process.argv[1], max: 1 });
(async () => {
  console.log('pid', (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  await new Promise((resolve) => process.stdin.once('data', resolve));
  console.log('pid', (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  await pool.end();
})();
`;

/**
 * A child process whose transaction loses its connection: it prints the backend's pid from inside the
 * transaction, which then sleeps until the test ends that backend; it prints how the transaction failed
 * and runs another on a new connection. Built package, own process, as above.
 */
const CHILD_IN_TRANSACTION = `
const { pgPool, inTransaction } = require(${JSON.stringify(path.join(__dirname, '../dist/database/pg-pool.js'))});
const pool = pgPool('test', { connectionString: process.argv[1], max: 1 });
(async () => {
  const lost = await inTransaction(pool, async (client) => {
    console.log('pid', (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    await client.query('SELECT pg_sleep(30)');
  }).then(() => 'no failure', (error) => error.message);
  console.log('failed:', lost);
  console.log('pid', await inTransaction(pool, async (client) => (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid));
  await pool.end();
})();
`;

/** Runs a child script against the server; `waitFor` polls its output, failing if it exits first. */
function child(script: string) {
  const proc = spawn(process.execPath, ['-e', script, SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
  return {
    process: proc,
    exited,
    output: () => out,
    pids: () => [...out.matchAll(/pid (\d+)/g)].map((m) => Number(m[1])),
    async waitFor(done: () => boolean) {
      while (!done()) {
        if (proc.exitCode !== null) throw new Error(`child exited with ${proc.exitCode}: ${out}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

describe('pgPool', () => {
  let admin: Pool;
  beforeAll(() => {
    admin = new Pool({ connectionString: SERVER, max: 1 });
  });
  afterAll(() => admin.end());

  it('outlives the loss of an idle connection and queries again on a new one', async () => {
    const idle = child(CHILD);
    await idle.waitFor(() => idle.pids().length === 1);
    const ended = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [idle.pids()[0]]);
    expect(ended.rows[0]!.ok).toBe(true);
    await idle.waitFor(() => idle.output().includes('lost an idle PostgreSQL connection'));
    idle.process.stdin.end('go\n');
    await idle.waitFor(() => idle.pids().length === 2);
    expect(idle.pids()[1]).not.toBe(idle.pids()[0]);
    expect(await idle.exited).toBe(0);
  });

  it('outlives the loss of a connection during a transaction: the transaction fails, the next runs on a new one', async () => {
    const busy = child(CHILD_IN_TRANSACTION);
    await busy.waitFor(() => busy.pids().length === 1);
    await admin.query('SELECT pg_terminate_backend($1)', [busy.pids()[0]]);
    await busy.waitFor(() => busy.pids().length === 2);
    expect(busy.output()).toContain('failed: terminating connection due to administrator command');
    expect(busy.pids()[1]).not.toBe(busy.pids()[0]);
    expect(await busy.exited).toBe(0);
  });

  it('runs its sessions without JIT compilation, keeping the options it was given', async () => {
    const { pgPool } = await import('../src/database/pg-pool');
    const pool = pgPool('test', { connectionString: SERVER, max: 1, options: '-c plan_cache_mode=force_generic_plan' });
    try {
      const settings = await pool.query<{ jit: string; plan: string }>("SELECT current_setting('jit') AS jit, current_setting('plan_cache_mode') AS plan");
      expect(settings.rows[0]).toEqual({ jit: 'off', plan: 'force_generic_plan' });
    } finally {
      await pool.end();
    }
  });
});

describe('inTransaction', () => {
  let pool: Pool;
  const table = `in_transaction_${process.pid}`;
  beforeAll(async () => {
    pool = new Pool({ connectionString: SERVER, max: 1 });
    await pool.query(`CREATE TEMP TABLE IF NOT EXISTS ${table} (n int)`);
  });
  afterAll(() => pool.end());

  it('commits what the work wrote when it resolves, rolls it back when it throws, and gives the connection back', async () => {
    expect(await inTransaction(pool, async (client) => (await client.query(`INSERT INTO ${table} VALUES (1) RETURNING n`)).rows[0].n)).toBe(1);
    const failed = inTransaction(pool, async (client) => {
      await client.query(`INSERT INTO ${table} VALUES (2)`);
      throw new Error('work failed');
    });
    await expect(failed).rejects.toThrow('work failed');
    // One connection in the pool (the temp table lives on it): it was released both times.
    expect((await pool.query(`SELECT n FROM ${table} ORDER BY n`)).rows).toEqual([{ n: 1 }]);
    expect(await inTransaction(pool, async (client) => (await client.query('SHOW transaction_isolation')).rows[0].transaction_isolation, 'BEGIN ISOLATION LEVEL REPEATABLE READ')).toBe(
      'repeatable read',
    );
  });
});
