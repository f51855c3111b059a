import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import { sleep, until } from '@exchange/testing';
import { aMarketSnapshot, startMarketData, type MarketDataUnderTest } from '../support/market-data-harness';

/**
 * market-data started while PostgreSQL refuses it connections ("too many connections", SQLSTATE 53300,
 * what a server at max_connections answers): a role of the test's own with a connection limit of 0, on
 * a database of its own, stands for a full server without taking connections from other tests.
 */
describe('market-data started while its database refuses connections', () => {
  const role = `md_start_${randomBytes(4).toString('hex')}`;
  let adminUrl: string;
  let admin: Client;
  let md: MarketDataUnderTest | undefined;

  beforeAll(async () => {
    adminUrl = await createTestDatabase(path.join(__dirname, '../..'), 'mdstart');
    admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`);
    await admin.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
    await admin.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await md?.stop();
    await admin?.end();
    await dropDatabase(adminUrl);
    // Its privileges went with the database.
    const server = new Client({ connectionString: adminUrl.replace(/\/[^/]+$/, '/postgres') });
    await server.connect();
    await server.query(`DROP ROLE IF EXISTS ${role}`);
    await server.end();
  });

  it('waits for it, and starts as soon as it takes connections again', async () => {
    const url = new URL(adminUrl);
    url.username = role;
    const start: { atMs?: number; error?: unknown } = {};
    const starting = startMarketData({ DATABASE_URL: url.toString() }).then(
      (started) => {
        start.atMs = Date.now();
        md = started;
      },
      (error: unknown) => void (start.error = error),
    );
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const waiting = () => warnings.mock.calls.some(([message]) => String(message).startsWith('loading the markets: the database is unavailable'));
    // Until 2026-11-27 the start failed here, "Too many database connections" (its supervisor then
    // restarted it after growing delays).
    await until(async () => (waiting() || start.error !== undefined ? true : undefined), 30_000, 'the start meeting the refusal');
    await sleep(1_000);
    expect(start).toEqual({});
    await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
    const back = Date.now();
    await starting;
    expect(start.error).toBeUndefined();
    // Tried again every 2 s at most.
    expect(start.atMs! - back).toBeLessThan(5_000);
    const market = aMarketSnapshot();
    await md!.publishMarket(market);
    await md!.untilMarketKnown(market.conditionId);
  }, 60_000);
});
