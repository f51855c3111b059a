import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { AdmissionStore } from '../../src/http/admission-store';
import type { ApiError } from '../../src/http/api-error';
import { RateLimiter } from '../../src/rate-limits/rate-limiter';
import { l1Headers, l2Headers, newWallet, startAuthGateway, type AuthGateway, type Credentials, type TestWallet } from '../support/auth-harness';

const REFUSED = { error: 'Too Many Requests', code: 'rate_limited', retry_after_seconds: 5 };

/**
 * The rate limits through a whole gateway on real Redis, PostgreSQL and NATS (no services behind it:
 * reads answer 503 after being counted), with every limit at 1% (GET /tags 2, GET /book 2, POST /order
 * burst 24 per 10 s) and one trusted proxy, so that X-Forwarded-For tells clients apart.
 */
describe('rate limits', () => {
  let gw: AuthGateway;
  const wallets: { wallet: TestWallet; creds: Credentials }[] = [];

  beforeAll(async () => {
    gw = await startAuthGateway('gw_rl', { RATE_LIMIT_SCALE: '0.01', TRUSTED_PROXY_HOPS: '1', ACCESS_LOG: 'false' });
    for (const client of ['203.0.113.1', '203.0.113.2']) {
      const wallet = newWallet();
      const response = await fetch(`${gw.clob}/auth/api-key`, { method: 'POST', headers: { ...(await l1Headers(wallet)), 'x-forwarded-for': client } });
      wallets.push({ wallet, creds: (await response.json()) as Credentials });
    }
  });
  afterAll(() => gw.close());

  const from = (client: string, path: string, init: RequestInit = {}) =>
    fetch(gw.base + path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': client } });
  const limitHeaders = (response: Response) => [
    response.headers.get('x-ratelimit-limit'),
    response.headers.get('x-ratelimit-remaining'),
    Number(response.headers.get('x-ratelimit-reset')) - Math.floor(Date.now() / 1_000),
  ];

  it('counts a public route per client address and refuses the excess with 429, Retry-After and the error body', async () => {
    const first = await from('198.51.100.7', '/tags');
    expect(first.status).toBe(503);
    expect(limitHeaders(first)).toEqual(['2', '1', expect.any(Number)]);
    expect(limitHeaders(first)[2]).toBeGreaterThanOrEqual(4);
    expect(limitHeaders(first)[2]).toBeLessThanOrEqual(11);
    expect((await from('198.51.100.7', '/tags')).headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await from('198.51.100.7', '/tags', { headers: { 'x-request-id': 'limited-1' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('x-request-id')).toBe('limited-1');
    expect(limitHeaders(refused).slice(0, 2)).toEqual(['2', '0']);
    expect(await refused.json()).toEqual(REFUSED);
    // Another client, and another route of the same client, have their own buckets.
    expect((await from('198.51.100.8', '/tags')).status).toBe(503);
    expect((await from('198.51.100.7', '/public-search?q=x')).status).toBe(503);
  });

  it('counts GET /markets/{id} as the form that answers it: catalog or CLOB (README)', async () => {
    const condition = `0x${'ab'.repeat(32)}`;
    const limitOf = async (base: string, id: string) =>
      (await fetch(`${base}/markets/${id}`, { headers: { 'x-forwarded-for': '198.51.100.40' } })).headers.get('x-ratelimit-limit');
    const catalogPort = `http://127.0.0.1:${gw.gateway.ports.catalog}`;
    // At 1%: the catalog's 4,000 are 40, the CLOB's 5,000 are 50. The CLOB form counted against the
    // catalog's limit on the CLOB port until the twenty-second session (a probe).
    expect(await limitOf(gw.clob, condition)).toBe('50');
    expect(await limitOf(gw.base, condition)).toBe('50');
    expect(await limitOf(gw.base, '12')).toBe('40');
    expect(await limitOf(catalogPort, condition)).toBe('40');
  });

  it('limits the reads answered in front of Fastify the same way', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await from('198.51.100.9', '/book?token_id=1')).status);
    expect(statuses).toEqual([503, 503, 429]);
    // A read the lane could not answer (here 503: no market-data behind) still says where the limit stands.
    const unanswered = await from('198.51.100.10', '/tick-size/1');
    expect(unanswered.status).toBe(503);
    expect(limitHeaders(unanswered).slice(0, 2)).toEqual(['50', '49']);
    const refused = await from('198.51.100.9', '/book?token_id=1', { method: 'HEAD' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
  });

  it('counts L2 routes per API key once authenticated, whatever address they come from', async () => {
    const [a, b] = wallets as [(typeof wallets)[0], (typeof wallets)[0]];
    const signedOrder = (who: typeof a, n: number, client: string) => {
      const body = JSON.stringify({ n });
      const headers = l2Headers(who.creds, who.wallet.address, { method: 'POST', path: '/order', body, timestamp: String(Date.now()) });
      return from(client, '/order', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    };
    const remaining = [];
    for (let n = 0; n < 24; n++) {
      const response = await signedOrder(a, n, n % 2 ? '192.0.2.1' : '192.0.2.2');
      expect(response.status).toBe(400);
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: 24 }, (_, i) => 23 - i));
    const refused = await signedOrder(a, 24, '192.0.2.3');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too Many Requests', code: 'rate_limited', retry_after_seconds: 1 });
    // However the path is written: `/%6Frder` is /order to the router, and its limits are the route's
    // (signed over that path, it escaped them until the twenty-second session; a probe).
    const encodedBody = JSON.stringify({ n: 25 });
    const encodedHeaders = l2Headers(a.creds, a.wallet.address, { method: 'POST', path: '/%6Frder', body: encodedBody, timestamp: String(Date.now()) });
    const encoded = await from('192.0.2.4', '/%6Frder', { method: 'POST', headers: { ...encodedHeaders, 'content-type': 'application/json' }, body: encodedBody });
    expect(encoded.status).toBe(429);

    // Requests that fail authentication spend nobody's limits, not even those of the key they name.
    const forged = l2Headers(b.creds, b.wallet.address, { method: 'POST', path: '/order', body: '{"n":1}', timestamp: String(Date.now()) });
    for (let i = 0; i < 30; i++) {
      // From addresses of their own: an address's failed authentications are limited too (below).
      const response = await from(`192.0.2.${100 + i}`, '/order', { method: 'POST', headers: { ...forged, POLY_SIGNATURE: `x${i}`, 'content-type': 'application/json' }, body: '{"n":1}' });
      expect(response.status).toBe(401);
    }
    const other = await signedOrder(b, 0, '192.0.2.1');
    expect(other.status).toBe(400);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('23');

    // Routes behind the Nest guard count for the key too: GET /data/orders only in the CLOB bucket (50;
    // 425: no engine behind this gateway).
    const list = await from('192.0.2.5', '/data/orders', { headers: l2Headers(a.creds, a.wallet.address, { method: 'GET', path: '/data/orders' }) });
    expect(list.status).toBe(425);
    expect(list.headers.get('x-ratelimit-limit')).toBe('50');
    // 50 less A's 24 orders and this request; a token comes back every 200 ms meanwhile.
    expect(Number(list.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(25);
    expect(Number(list.headers.get('x-ratelimit-remaining'))).toBeLessThan(35);
  });

  it('refuses an address whose L2 requests keep failing authentication, before checking them', async () => {
    const [a] = wallets as [(typeof wallets)[0]];
    const forged = (client: string, path = '/data/orders') =>
      from(client, path, { headers: { ...l2Headers(a.creds, a.wallet.address, { method: 'GET', path }), POLY_PASSPHRASE: 'wrong' } });
    // 100 failures at once and then 10 a second, at 1%: one, then one every 10 s.
    expect((await forged('198.51.100.66')).status).toBe(401);
    const refused = await forged('198.51.100.66');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { retry_after_seconds: number };
    expect(body).toEqual({ error: 'Too Many Requests', code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    expect(body.retry_after_seconds).toBeGreaterThanOrEqual(9);
    expect(body.retry_after_seconds).toBeLessThanOrEqual(10);
    expect(refused.headers.get('retry-after')).toBe(String(body.retry_after_seconds));
    expect(limitHeaders(refused).slice(0, 2)).toEqual(['1', '0']);
    expect(limitHeaders(refused)[2]).toBeGreaterThanOrEqual(9);
    expect(limitHeaders(refused)[2]).toBeLessThanOrEqual(11);
    // Even a correctly signed request from that address waits; other addresses do not.
    const signed = (client: string) => from(client, '/data/orders', { headers: l2Headers(a.creds, a.wallet.address, { method: 'GET', path: '/data/orders' }) });
    expect((await signed('198.51.100.66')).status).toBe(429);
    expect((await signed('198.51.100.67')).status).toBe(425);
    expect((await forged('198.51.100.67')).status).toBe(401);
  });

  it('counts a signed route\'s request refused before it authenticates as a failed authentication of its address', async () => {
    // Until the twenty-second session nothing limited these (a probe sent 6,000 in about a second from one address).
    const malformed = (client: string, method: string, path: string, contentType = 'application/json') =>
      from(client, path, { method, headers: { 'content-type': contentType }, body: '{bad' });
    // In the order lane (malformed JSON), on Fastify's routes (malformed JSON, another content type): one
    // failure at 1%, then 429 before the body is read.
    for (const [client, method, path, type] of [
      ['198.51.100.90', 'POST', '/order', 'application/json'],
      ['198.51.100.91', 'DELETE', '/order', 'application/json'],
      ['198.51.100.92', 'POST', '/orders', 'text/plain'],
    ] as const) {
      const first = await malformed(client, method, path, type);
      expect(first.status).toBeGreaterThanOrEqual(400);
      expect(first.status).toBeLessThan(500);
      expect(first.status).not.toBe(429);
      const second = await malformed(client, method, path, type);
      expect(second.status).toBe(429);
      expect(await second.json()).toEqual({ error: 'Too Many Requests', code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    }
    // A public route's malformed request is the public limits' (per address), not a failed authentication.
    expect((await malformed('198.51.100.93', 'POST', '/midpoints')).status).toBe(400);
    expect((await malformed('198.51.100.93', 'POST', '/midpoints')).status).toBe(400);
  });

  it('counts failed L1 authentications against the address too (each costs a signature recovery)', async () => {
    const wallet = newWallet();
    const stale = await l1Headers(wallet, { timestamp: Math.floor(Date.now() / 1_000) - 3_600 });
    const create = (client: string, headers: Record<string, string>) => from(client, '/auth/derive-api-key', { headers });
    expect((await create('198.51.100.80', stale)).status).toBe(401);
    const refused = await create('198.51.100.80', stale);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too Many Requests', code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    // A valid signature from that address waits too, and L2 requests from it; other addresses do not.
    expect((await create('198.51.100.80', await l1Headers(wallet))).status).toBe(429);
    const [a] = wallets as [(typeof wallets)[0]];
    expect((await from('198.51.100.80', '/data/orders', { headers: l2Headers(a.creds, a.wallet.address, { method: 'GET', path: '/data/orders' }) })).status).toBe(429);
    expect((await create('198.51.100.81', await l1Headers(wallet))).status).toBe(200);
  });

  it('leaves the operator API to its bearer token', async () => {
    for (let i = 0; i < 60; i++) {
      const response = await from('198.51.100.10', '/admin/sites', { headers: { authorization: 'Bearer auth-test-admin-token' } });
      expect(response.status).toBe(503);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

describe('refusals remembered', () => {
  const prefix = `rl-memo-${process.pid}-${Date.now()}`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  /** The admission store, counting the requests it is asked. */
  class CountingStore extends AdmissionStore {
    asked = 0;
    override admit(admission: Parameters<AdmissionStore['admit']>[0]) {
      this.asked++;
      return super.admit(admission);
    }
  }
  const store = new CountingStore(redis, 60, `${prefix}:l2-memory-since`);
  // At 1%: POST /order 24 at once then one every ~417 ms; GET /tags 2 per 10 s.
  const limiter = new RateLimiter(store, { enabled: true, scale: 0.01, trustedProxyHops: 0, keyPrefix: prefix }, { warn: () => undefined });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it("refuse a key's requests of the route without asking Redis (or claiming) until the retry time Redis gave", async () => {
    let admitted = 0;
    let refusal: ApiError | undefined;
    while (refusal === undefined && admitted < 100) {
      await limiter.admitSigned('key-m', 'POST', '/order').then(
        () => admitted++,
        (error: ApiError) => (refusal = error),
      );
    }
    expect(admitted).toBe(24);
    expect(refusal).toMatchObject({ status: 429, body: { code: 'rate_limited', retry_after_seconds: 1 } });
    const asked = store.asked;

    const known = limiter.admitSigned('key-m', 'POST', '/order', { signature: 'fresh', signedByMs: Date.now() });
    await expect(known).rejects.toMatchObject({ status: 429, body: { code: 'rate_limited', retry_after_seconds: 1 } });
    expect(((await known.catch((error: unknown) => error)) as ApiError).headers).toEqual(refusal!.headers);
    expect(store.asked).toBe(asked);
    // Another key, and another route of this key, still ask Redis.
    await expect(limiter.admitSigned('key-n', 'POST', '/order')).resolves.toMatchObject({ claim: 'new' });
    await expect(limiter.admitSigned('key-m', 'DELETE', '/order')).resolves.toMatchObject({ claim: 'new' });
    expect(store.asked).toBe(asked + 2);

    // A token comes back ~417 ms after the refusal: then Redis is asked again, and admits.
    await new Promise((r) => setTimeout(r, 450));
    await expect(limiter.admitSigned('key-m', 'POST', '/order')).resolves.toMatchObject({ claim: 'new' });
    expect(store.asked).toBe(asked + 3);
  });

  it('refuse public requests of a client address the same way', async () => {
    const raw = { socket: { remoteAddress: '203.0.113.77' }, headers: {} } as unknown as IncomingMessage;
    await limiter.admitPublic(raw, 'GET', '/tags');
    await limiter.admitPublic(raw, 'GET', '/tags');
    await expect(limiter.admitPublic(raw, 'GET', '/tags')).rejects.toMatchObject({ status: 429, body: { retry_after_seconds: 5 } });
    const asked = store.asked;
    await expect(limiter.admitPublic(raw, 'GET', '/tags')).rejects.toMatchObject({ status: 429, body: { retry_after_seconds: 5 } });
    expect(store.asked).toBe(asked);
    const other = { socket: { remoteAddress: '203.0.113.78' }, headers: {} } as unknown as IncomingMessage;
    expect(await limiter.admitPublic(other, 'GET', '/tags')).toMatchObject({ 'x-ratelimit-remaining': '1' });
  });
});

describe('rate limits without Redis', () => {
  it('are not applied to public or signed reads, said once, while signed writes fail', async () => {
    // Nothing listens on port 1; without an offline queue every command fails at once.
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    const warnings: string[] = [];
    const limiter = new RateLimiter(
      new AdmissionStore(down, 60, 'none:l2-memory-since'),
      { enabled: true, scale: 1, trustedProxyHops: 0, keyPrefix: 'none' },
      { warn: (message: string) => warnings.push(message) },
    );
    const raw = { socket: { remoteAddress: '203.0.113.9' }, headers: {} } as unknown as IncomingMessage;
    expect(await limiter.admitPublic(raw, 'GET', '/book')).toEqual({});
    expect(await limiter.admitPublic(raw, 'GET', '/tags')).toEqual({});
    expect(await limiter.admitSigned('key-1', 'GET', '/data/trades')).toEqual({ claim: 'new', headers: {} });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^rate limits not applied: /);
    await expect(limiter.admitSigned('key-1', 'POST', '/order', { signature: 'signature', signedByMs: Date.now() })).rejects.toThrow();
    down.disconnect();
  });
});
