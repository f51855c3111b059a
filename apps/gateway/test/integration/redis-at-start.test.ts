import { JsonLogger } from '@exchange/service-kit';
import { freePort } from '@exchange/testing';
import { AuthResources } from '../../src/auth/auth-resources';
import { startAuthGateway, type AuthGateway } from '../support/auth-harness';

/** The gateway waits for its Redis connection before it listens, but a Redis that is down does not stop it. */
describe("the auth resources' Redis at start", () => {
  let gw: AuthGateway;
  beforeAll(async () => {
    gw = await startAuthGateway('gw_redis_start');
  });
  afterAll(() => gw.close());

  it('is ready once waited for', async () => {
    const resources = AuthResources.create(gw.env, new JsonLogger('test', 'error'));
    try {
      expect(await resources.untilRedisReady(5_000)).toBe(true);
      expect(await resources.untilRedisReady(0)).toBe(true);
    } finally {
      await resources.close();
    }
  });

  it('is given up on after the wait when nothing listens', async () => {
    const resources = AuthResources.create({ ...gw.env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, new JsonLogger('test', 'error'));
    try {
      const started = Date.now();
      expect(await resources.untilRedisReady(300)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await resources.close();
    }
  });
});
