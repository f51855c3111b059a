import { loadGatewayEnv } from '../../src/config';
import { startAuthGateway, type AuthGateway } from '../support/auth-harness';

const L2_HEADERS = 'content-type, poly_address, poly_signature, poly_timestamp, poly_api_key, poly_passphrase';

/** Requests from browser scripts on other origins (docs/gateway.md, "Browsers"), on a real gateway. */
describe('cross-origin requests', () => {
  describe('from any origin (the default)', () => {
    let gw: AuthGateway;
    beforeAll(async () => {
      gw = await startAuthGateway('gw_cors');
    });
    afterAll(() => gw.close());

    it('let a script read every answer, its rate limit headers included, and add nothing without an Origin', async () => {
      const fromSite = await fetch(`${gw.base}/time`, { headers: { origin: 'https://site.example' } });
      expect(fromSite.status).toBe(200);
      expect(fromSite.headers.get('access-control-allow-origin')).toBe('*');
      expect(fromSite.headers.get('access-control-expose-headers')?.split(', ')).toEqual(
        expect.arrayContaining(['retry-after', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
      );
      expect(fromSite.headers.get('access-control-allow-credentials')).toBeNull();

      const bot = await fetch(`${gw.base}/time`);
      expect(bot.headers.get('access-control-allow-origin')).toBeNull();
      expect(bot.headers.get('access-control-expose-headers')).toBeNull();
    });

    it('answer a preflight for a signed order with the methods and the headers asked for', async () => {
      const preflight = await fetch(`${gw.clob}/order`, {
        method: 'OPTIONS',
        headers: { origin: 'https://site.example', 'access-control-request-method': 'POST', 'access-control-request-headers': L2_HEADERS },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      expect(preflight.headers.get('access-control-allow-headers')).toBe(L2_HEADERS);
      expect(Number(preflight.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(preflight.headers.get('x-request-id')).toMatch(/./);

      // A header list that is not one is not echoed; an OPTIONS that is not a preflight is Fastify's 404.
      const odd = await fetch(`${gw.clob}/order`, {
        method: 'OPTIONS',
        headers: { origin: 'https://site.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'a b' },
      });
      expect(odd.status).toBe(204);
      expect(odd.headers.get('access-control-allow-headers')).toBeNull();
      const plain = await fetch(`${gw.clob}/order`, { method: 'OPTIONS', headers: { origin: 'https://site.example' } });
      expect(plain.status).toBe(404);
      expect(await plain.json()).toMatchObject({ code: 'route_not_found' });
      expect(plain.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('carry the headers on answers of the lanes in front of Fastify: the order lane and the hot reads', async () => {
      const order = await fetch(`${gw.clob}/order`, { method: 'POST', headers: { origin: 'https://site.example', 'content-type': 'application/json' }, body: '{}' });
      expect(order.status).toBe(401);
      expect(order.headers.get('access-control-allow-origin')).toBe('*');
      const book = await fetch(`${gw.clob}/book?token_id=1`, { headers: { origin: 'https://site.example' } });
      expect(book.headers.get('access-control-allow-origin')).toBe('*');
      expect(book.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    });
  });

  describe('from the origins the operator lists', () => {
    let gw: AuthGateway;
    beforeAll(async () => {
      gw = await startAuthGateway('gw_cors_list', { CORS_ORIGINS: 'https://a.example, http://localhost:3000' });
    });
    afterAll(() => gw.close());

    it('echo a listed origin, varying by it, and give any other origin nothing', async () => {
      const listed = await fetch(`${gw.base}/time`, { headers: { origin: 'http://localhost:3000' } });
      expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(listed.headers.get('vary')).toMatch(/Origin/);
      const other = await fetch(`${gw.base}/time`, { headers: { origin: 'https://b.example' } });
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('vary')).toMatch(/Origin/);
      const preflight = await fetch(`${gw.base}/order`, { method: 'OPTIONS', headers: { origin: 'https://b.example', 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(404);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  it('are refused at start for a listed value that is not an origin, and turned off by an empty list', async () => {
    const env = (value: string) => loadGatewayEnv({ ADMIN_TOKEN: 'a-long-enough-admin-token', CORS_ORIGINS: value });
    expect(() => env('https://a.example/')).toThrow(/CORS_ORIGINS: "https:\/\/a.example\/" is not an origin/);
    expect(() => env('a.example')).toThrow(/not an origin/);
    expect(env('').CORS_ORIGINS).toBeNull();
    expect(env('*').CORS_ORIGINS).toBe('*');

    const off = await startAuthGateway('gw_cors_off', { CORS_ORIGINS: '' });
    try {
      const answer = await fetch(`${off.base}/time`, { headers: { origin: 'https://site.example' } });
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(`${off.base}/order`, { method: 'OPTIONS', headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
