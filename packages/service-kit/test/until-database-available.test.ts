import { Pool } from 'pg';
import { databaseRelay } from '@exchange/testing';
import { adminDatabaseUrl } from '../src/database/databases';
import { untilDatabaseAvailable } from '../src/database/until-available';

describe('untilDatabaseAvailable', () => {
  const lines: string[] = [];
  const logger = { warn: (m: string) => lines.push(`warn ${m}`), log: (m: string) => lines.push(`log ${m}`) };

  it('waits for a database that cannot be reached yet, and answers once it can', async () => {
    // The relay's port refuses connections until it opens, 700 ms on.
    const relay = await databaseRelay(adminDatabaseUrl());
    const pool = new Pool({ connectionString: relay.url, max: 1 });
    const opened = new Promise<void>((resolve) => setTimeout(() => void relay.open().then(resolve), 700));
    let attempts = 0;
    const started = Date.now();
    const answer = await untilDatabaseAvailable(logger, 'loading', async () => {
      attempts++;
      return (await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
    });
    await opened;
    expect(answer).toBe(1);
    // Refused while the port was closed (250, 500 ms pauses), then through once the relay listened.
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(lines).toEqual([expect.stringMatching(/^warn loading: the database is unavailable \(.*\); waiting for it$/), 'log loading: the database is back']);
    await pool.end();
    await relay.close();
  });

  it('throws at once a failure that is not about the database being unavailable', async () => {
    lines.length = 0;
    let attempts = 0;
    const failing = untilDatabaseAvailable(logger, 'loading', async () => {
      attempts++;
      throw Object.assign(new Error('relation "nowhere" does not exist'), { code: '42P01' });
    });
    await expect(failing).rejects.toThrow('relation "nowhere" does not exist');
    expect(attempts).toBe(1);
    expect(lines).toEqual([]);
  });
});
