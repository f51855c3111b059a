import { randomUUID } from 'node:crypto';
import { Logger, type LoggerService } from '@nestjs/common';
import { createTestDatabase, dropDatabase, JsonLogger } from '@exchange/service-kit';
import { databaseRelay, sleep, type DatabaseRelay } from '@exchange/testing';
import path from 'node:path';
import { ApiKeyCache } from '../../src/auth/api-key-cache';
import { ApiKeyRepository } from '../../src/auth/api-key.repository';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { AuthResources } from '../../src/auth/auth-resources';
import { l1Headers, l2Headers, newWallet, startAuthGateway, type AuthGateway, type Credentials } from '../support/auth-harness';

/**
 * The gateway's database behind a TCP relay that the test closes: key reads then fail as in a
 * PostgreSQL outage. Each such request is a 503, and the outage is logged once as a warning, not as an
 * error with a stack per request (a chaos probe counted 4,049 such lines).
 */
describe('API key reads while the database is unavailable', () => {
  let gw: AuthGateway;
  let databaseUrl: string;
  let relay: DatabaseRelay;
  let creds: Credentials;
  const wallet = newWallet();

  beforeAll(async () => {
    // A database of its own, migrated, reached through the relay.
    databaseUrl = await createTestDatabase(path.join(__dirname, '../..'), 'gw_dbout');
    relay = await databaseRelay(databaseUrl);
    await relay.open();
    gw = await startAuthGateway('gw_dbout', { DATABASE_URL: relay.url, LOG_LEVEL: 'warn', ACCESS_LOG: 'false' });
    creds = (await (await fetch(`${gw.clob}/auth/derive-api-key`, { headers: await l1Headers(wallet) })).json()) as Credentials;
  });
  afterAll(async () => {
    await gw.close();
    await relay.close();
    // The harness drops the database it made; this one, which the gateway used instead, is the test's.
    await dropDatabase(databaseUrl);
  });

  it('serves a key read in the last two minutes while the database cannot be read, unless revoked since, and refuses any other', async () => {
    const resources = AuthResources.create(gw.env, new JsonLogger('test', 'error'));
    const keys = new ApiKeysService(resources, new ApiKeyRepository(resources));
    try {
      const known = await keys.activeKey(creds.apiKey);
      expect(known?.address).toBe(wallet.address.toLowerCase());
      await relay.close();
      relay.cut();
      // Past the time a read key is kept fresh: its next use reads the database again, which fails.
      await sleep(ApiKeyCache.POSITIVE_TTL_MS + 500);
      expect(await keys.activeKey(creds.apiKey)).toBe(known);
      await expect(keys.activeKey(randomUUID())).rejects.toMatchObject({ code: 'P1001' });
      // A revoke (this process's, or another's message) wins over the outage (what it removes: api-key-cache.test.ts).
      resources.revoked(creds.apiKey);
      expect(await keys.activeKey(creds.apiKey)).toBeNull();
    } finally {
      await resources.close();
    }
  }, 30_000);

  it('answers each request 503', async () => {
    await relay.close();
    for (let i = 0; i < 10; i++) {
      // A key no cache holds: each request reads the database.
      const unknown = { ...creds, apiKey: randomUUID() };
      const response = await fetch(`${gw.clob}/data/orders`, { headers: l2Headers(unknown, wallet.address, { method: 'GET', path: '/data/orders' }) });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: 'authentication is unavailable, retry shortly', code: 'service_unavailable', retry_after_seconds: 1 });
    }
  });

  it('says so once, as a warning, where it logged an error with a stack per read, and says when reads succeed again', async () => {
    const said: string[] = [];
    const capture = (level: string) => (message: unknown) => void said.push(`${level} ${String(message)}`);
    const logger: LoggerService = { log: capture('log'), warn: capture('warn'), error: capture('error') };
    Logger.overrideLogger(logger);
    const resources = AuthResources.create(gw.env, new JsonLogger('test', 'error'));
    const keys = new ApiKeysService(resources, new ApiKeyRepository(resources));
    try {
      for (let i = 0; i < 10; i++) await expect(keys.activeKey(randomUUID())).rejects.toMatchObject({ code: 'P1001' });
      expect(said).toEqual([expect.stringMatching(/^warn api key reads failing, the database is unavailable: Can't reach database server at 127\.0\.0\.1:\d+$/)]);
      await relay.open();
      for (let i = 0; i < 3; i++) expect(await keys.activeKey(randomUUID())).toBeNull();
    } finally {
      await resources.close();
    }
    expect(said.slice(1)).toEqual([expect.stringMatching(/^log api key reads succeed again after \d+\.\d s of failures \(the last: Can't reach database server at /)]);
  });
});
