import { Client, Pool } from 'pg';
import { adminDatabaseUrl } from '../src/database/databases';
import { isDatabaseUnavailable } from '../src/database/unavailable';

const SERVER = adminDatabaseUrl();
const NOWHERE = 'postgresql://postgres@127.0.0.1:1/none';

/** The error a promise rejects with (the test fails if it resolves). */
async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('isDatabaseUnavailable, on errors of a real PostgreSQL', () => {
  it('is true for a server that cannot be reached, and for a connection the server ended', async () => {
    const pool = new Pool({ connectionString: NOWHERE, max: 1 });
    expect(isDatabaseUnavailable(await errorOf(pool.query('SELECT 1')))).toBe(true);
    await pool.end();

    const victim = new Client({ connectionString: SERVER });
    await victim.connect();
    victim.on('error', () => undefined);
    const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const admin = new Client({ connectionString: SERVER });
    await admin.connect();
    // The running query sees 57P01 (admin_shutdown), as in a restart of the server.
    const running = errorOf(victim.query('SELECT pg_sleep(10)'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    const terminated = await running;
    expect(terminated).toMatchObject({ code: '57P01' });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    // And the next query on that client fails without a code, by node-postgres's message.
    expect(isDatabaseUnavailable(await errorOf(victim.query('SELECT 1')))).toBe(true);
    await admin.end();
  });

  it('is false for errors of the request or the code', async () => {
    const client = new Client({ connectionString: SERVER });
    await client.connect();
    expect(isDatabaseUnavailable(await errorOf(client.query('SELEC 1')))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(client.query('SELECT 1/0')))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(client.query('SELECT $1::int', ['x'])))).toBe(false);
    await client.end();
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('looks through a cause chain, and through the wrapping of Prisma\'s driver adapter', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new Error('query failed', { cause: refused }))).toBe(true);
    // The shape @prisma/adapter-pg 6.19 gives a raw query on an unreachable server (P2010, seen here).
    const prismaRaw = Object.assign(new Error('Raw query failed'), {
      code: 'P2010',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 } } },
    });
    expect(isDatabaseUnavailable(prismaRaw)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('unique'), { code: 'P2002' }))).toBe(false);
  });

  it('is true for a server out of disk space or memory, and for a process out of file descriptors (a resource probe saw 500s there)', () => {
    // The codes node-postgres gives a statement PostgreSQL could not run for a full disk or memory.
    expect(isDatabaseUnavailable(Object.assign(new Error('could not extend file "base/1/2": No space left on device'), { code: '53100' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('out of memory'), { code: '53200' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect EMFILE 127.0.0.1:5432'), { code: 'EMFILE' }))).toBe(true);
    // Through Prisma's driver adapter, which passes other PostgreSQL errors on as kind `postgres` with their code
    // (the catalog's 500 for POST /admin/events in the probe).
    const prismaDiskFull = Object.assign(new Error('Raw query failed'), {
      code: 'P2010',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '53100', severity: 'ERROR', message: 'could not extend file' } } },
    });
    expect(isDatabaseUnavailable(prismaDiskFull)).toBe(true);
    // A limit of the request's own making is not the server's state.
    expect(isDatabaseUnavailable(Object.assign(new Error('temporary file size exceeds temp_file_limit'), { code: '53400' }))).toBe(false);
  });

  it('is true for a role out of connections, on a real PostgreSQL', async () => {
    const admin = new Client({ connectionString: SERVER });
    await admin.connect();
    const role = `limited_${process.pid}`;
    await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`);
    try {
      const url = new URL(SERVER);
      url.username = role;
      const refused = await errorOf(new Client({ connectionString: url.toString() }).connect());
      expect(refused).toMatchObject({ code: '53300' });
      expect(isDatabaseUnavailable(refused)).toBe(true);
    } finally {
      await admin.query(`DROP ROLE ${role}`);
      await admin.end();
    }
  });
});
