import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { deleteRedisKeys, sleep } from '@exchange/testing';
import { ApiKeyCache } from '../../src/auth/api-key-cache';
import { AdmissionStore } from '../../src/http/admission-store';
import type { ApiError } from '../../src/http/api-error';
import { RateLimiter } from '../../src/rate-limits/rate-limiter';
import { l1Headers, l2Headers, newWallet, SILENT_LOGGER, startAuthGateway, type AuthGateway, type Credentials, type TestWallet } from '../support/auth-harness';

const RATE_LIMITED = { error: 'Too Many Requests', code: 'rate_limited', retry_after_seconds: expect.any(Number) };
const L2_REFUSED = { error: 'Unauthorized/Invalid api key', code: 'unauthorized' };
/** An authenticated caller of the limiter: a key id and the address it belongs to. */
const caller = (id: string) => ({ apiKey: `key-${id}`, address: `0x${id.padStart(40, '0')}` });

/**
 * The retry time of a refusal: one interval of the bucket (window / limit) after the first request it
 * counted, less the time since, rounded up. Bounded by the clock rather than fixed, so that a loaded
 * machine's slow requests do not fail it.
 */
function expectRetryAfter(seconds: number, intervalSeconds: number, sinceMs: number): void {
  expect(seconds).toBeLessThanOrEqual(intervalSeconds);
  expect(seconds).toBeGreaterThanOrEqual(Math.max(1, intervalSeconds - Math.ceil((Date.now() - sinceMs) / 1_000)));
}

/**
 * The rate limits through a whole gateway on real Redis, PostgreSQL and NATS (no services behind it:
 * reads answer 503 after being counted), with every limit at 0.1% and one trusted proxy, so that
 * X-Forwarded-For tells clients apart. At 0.1% the endpoints' own buckets hold 1 request per 10 s
 * (GET /tags, GET /book, ...; at least one request), POST and DELETE /order 2 (burst) and 24 per 10
 * minutes (sustained), the CLOB surface 5 and the catalog's 4: a token comes back every 2 s at the
 * soonest, so the counts below do not depend on how fast the machine sends the requests (at 1%, 24
 * orders had to be sent within 417 ms).
 */
describe('rate limits', () => {
  let gw: AuthGateway;
  const wallets: { wallet: TestWallet; creds: Credentials }[] = [];

  beforeAll(async () => {
    gw = await startAuthGateway('gw_rl', { RATE_LIMIT_SCALE: '0.001', TRUSTED_PROXY_HOPS: '1', ACCESS_LOG: 'false' });
    for (const client of ['203.0.113.1', '203.0.113.2']) {
      const wallet = newWallet();
      const response = await fetch(`${gw.clob}/auth/api-key`, { method: 'POST', headers: { ...(await l1Headers(wallet)), 'x-forwarded-for': client } });
      expect(response.status).toBe(200);
      wallets.push({ wallet, creds: (await response.json()) as Credentials });
    }
  });
  afterAll(() => gw.close());

  const from = (client: string, path: string, init: RequestInit = {}, base = gw.base) =>
    fetch(base + path, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': client } });
  const limitHeaders = (response: Response) => [
    response.headers.get('x-ratelimit-limit'),
    response.headers.get('x-ratelimit-remaining'),
    Number(response.headers.get('x-ratelimit-reset')) - Math.floor(Date.now() / 1_000),
  ];
  /** A 429 with the error body and a Retry-After that says the same; the body's retry time. */
  const refusal = async (response: Response) => {
    expect(response.status).toBe(429);
    const body = (await response.json()) as { retry_after_seconds: number };
    expect(body).toEqual(RATE_LIMITED);
    expect(response.headers.get('retry-after')).toBe(String(body.retry_after_seconds));
    return body.retry_after_seconds;
  };

  it('counts a public route per client address and refuses the excess with 429, Retry-After and the error body', async () => {
    const firstAt = Date.now();
    const first = await from('198.51.100.7', '/tags');
    expect(first.status).toBe(503);
    // GET /tags: 1 per 10 s, full again 10 s after this request.
    expect(limitHeaders(first)).toEqual(['1', '0', expect.any(Number)]);
    expect(limitHeaders(first)[2]).toBeGreaterThanOrEqual(9);
    expect(limitHeaders(first)[2]).toBeLessThanOrEqual(11);
    const refused = await from('198.51.100.7', '/tags', { headers: { 'x-request-id': 'limited-1' } });
    expectRetryAfter(await refusal(refused), 10, firstAt);
    expect(refused.headers.get('x-request-id')).toBe('limited-1');
    expect(limitHeaders(refused).slice(0, 2)).toEqual(['1', '0']);
    // Another client, and another route of the same client, have their own buckets.
    expect((await from('198.51.100.8', '/tags')).status).toBe(503);
    expect((await from('198.51.100.7', '/public-search?q=x')).status).toBe(503);
  });

  it('counts GET /markets/{id} as the form that answers it: catalog or CLOB (README)', async () => {
    const condition = `0x${'ab'.repeat(32)}`;
    const limitOf = async (base: string, id: string) =>
      (await fetch(`${base}/markets/${id}`, { headers: { 'x-forwarded-for': '198.51.100.40' } })).headers.get('x-ratelimit-limit');
    const catalogPort = `http://127.0.0.1:${gw.gateway.ports.catalog}`;
    // At 0.1%: the catalog's 4,000 are 4, the CLOB's 5,000 are 5. The CLOB form counted against the
    // catalog's limit on the CLOB port until the twenty-second session (a probe).
    expect(await limitOf(gw.clob, condition)).toBe('5');
    expect(await limitOf(gw.base, condition)).toBe('5');
    expect(await limitOf(gw.base, '12')).toBe('4');
    expect(await limitOf(catalogPort, condition)).toBe('4');
  });

  it('limits the reads answered in front of Fastify the same way', async () => {
    const firstAt = Date.now();
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await from('198.51.100.9', '/book?token_id=1')).status);
    expect(statuses).toEqual([503, 429]);
    // A read the lane could not answer (here 503: no market-data behind) still says where the limit stands.
    const unanswered = await from('198.51.100.10', '/tick-size/1');
    expect(unanswered.status).toBe(503);
    expect(limitHeaders(unanswered).slice(0, 2)).toEqual(['5', '4']);
    const refused = await from('198.51.100.9', '/book?token_id=1', { method: 'HEAD' });
    expect(refused.status).toBe(429);
    expectRetryAfter(Number(refused.headers.get('retry-after')), 10, firstAt);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1');
  });

  it("gives each endpoint of SPEC.md's table its own bucket, on top of its surface's", async () => {
    const [, b] = wallets as [(typeof wallets)[0], (typeof wallets)[0]];
    const signed = (method: string, path: string, body?: string) => ({
      method,
      headers: { ...l2Headers(b.creds, b.wallet.address, { method, path, body }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });
    const json = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });
    // Each from an address of its own (or key B's first request of the route): the first request shows
    // its most depleted bucket. An endpoint's own bucket is 1 at 0.1%, unless it is POST or DELETE
    // /order (2); a route the table names no endpoint limit for has only its surface's, 5 or 4.
    const cases: [path: string, init: RequestInit, limit: string, base?: string][] = [
      ['/events', {}, '1'],
      ['/markets', {}, '1'],
      ['/tags', {}, '1'],
      ['/public-search?q=x', {}, '1'],
      ['/', {}, '1'],
      ['/', {}, '1', gw.clob],
      ['/book?token_id=1', {}, '1'],
      ['/books', json('[{"token_id":"1"}]'), '1'],
      ['/price?token_id=1&side=buy', {}, '1'],
      ['/prices', json('[{"token_id":"1","side":"BUY"}]'), '1'],
      ['/midpoint?token_id=1', {}, '1'],
      ['/prices-history?market=1', {}, '1'],
      ['/batch-prices-history', json('{"markets":["1"]}'), '1'],
      ['/data/trades', signed('GET', '/data/trades'), '1'],
      ['/order', signed('DELETE', '/order', '{"orderID":"0x01"}'), '2'],
      ['/spread?token_id=1', {}, '5'],
      ['/tick-size/1', {}, '5'],
      ['/events/slug/some-event', {}, '4'],
    ];
    const seen = [];
    let address = 0;
    for (const [path, init, , base] of cases) {
      const response = await from(`198.51.100.${150 + address++}`, path, init, base);
      seen.push([`${init.method ?? 'GET'} ${path}`, response.status === 429 ? 'refused' : 'admitted', response.headers.get('x-ratelimit-limit')]);
    }
    expect(seen).toEqual(cases.map(([path, init, limit]) => [`${init.method ?? 'GET'} ${path}`, 'admitted', limit]));
  });

  it("counts L2 routes per the API key's wallet once authenticated, whatever client address they come from", async () => {
    const [a, b] = wallets as [(typeof wallets)[0], (typeof wallets)[0]];
    const signedOrder = (who: typeof a, n: number, client: string) => {
      const body = JSON.stringify({ n });
      const headers = l2Headers(who.creds, who.wallet.address, { method: 'POST', path: '/order', body, timestamp: String(Date.now()) });
      return from(client, '/order', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    };
    // POST /order: a burst of 2 per 10 s, a token every 5 s; from two addresses, one key.
    const firstAt = Date.now();
    const limits = [];
    for (let n = 0; n < 2; n++) {
      const response = await signedOrder(a, n, n % 2 ? '192.0.2.1' : '192.0.2.2');
      // Past the limits and authentication, refused as no order (an engine would be asked after that).
      expect(response.status).toBe(400);
      limits.push(limitHeaders(response).slice(0, 2));
    }
    expect(limits).toEqual([
      ['2', '1'],
      ['2', '0'],
    ]);
    expectRetryAfter(await refusal(await signedOrder(a, 2, '192.0.2.3')), 5, firstAt);
    // However the path is written: `/%6Frder` is /order to the router, and its limits are the route's
    // (signed over that path, it escaped them until the twenty-second session; a probe).
    const encodedBody = JSON.stringify({ n: 3 });
    const encodedHeaders = l2Headers(a.creds, a.wallet.address, { method: 'POST', path: '/%6Frder', body: encodedBody, timestamp: String(Date.now()) });
    const encoded = await from('192.0.2.4', '/%6Frder', { method: 'POST', headers: { ...encodedHeaders, 'content-type': 'application/json' }, body: encodedBody });
    await refusal(encoded);

    // Routes behind the Nest guard count for the key too: GET /data/orders only in the CLOB bucket (5;
    // 425: no engine behind this gateway), which A's two orders took from, a token back every 2 s.
    const list = await from('192.0.2.5', '/data/orders', { headers: l2Headers(a.creds, a.wallet.address, { method: 'GET', path: '/data/orders' }) });
    expect(list.status).toBe(425);
    expect(list.headers.get('x-ratelimit-limit')).toBe('5');
    const left = Number(list.headers.get('x-ratelimit-remaining'));
    expect(left).toBeGreaterThanOrEqual(5 - 3);
    expect(left).toBeLessThanOrEqual(Math.min(4, 5 - 3 + Math.floor((Date.now() - firstAt) / 2_000)));

    // Requests that fail authentication spend nobody's limits, not even those of the key they name.
    const forged = l2Headers(b.creds, b.wallet.address, { method: 'POST', path: '/order', body: '{"n":1}', timestamp: String(Date.now()) });
    for (let i = 0; i < 30; i++) {
      // From addresses of their own: an address's failed authentications are limited too (below).
      const response = await from(`192.0.2.${100 + i}`, '/order', { method: 'POST', headers: { ...forged, POLY_SIGNATURE: `x${i}`, 'content-type': 'application/json' }, body: '{"n":1}' });
      expect(response.status).toBe(401);
      if (i === 0) expect(await response.json()).toEqual(L2_REFUSED);
    }
    const other = await signedOrder(b, 0, '192.0.2.1');
    expect(other.status).toBe(400);
    expect(limitHeaders(other).slice(0, 2)).toEqual(['2', '1']);
  });

  it('takes a token per order of POST /orders and per id of DELETE /orders from the order and cancel buckets', async () => {
    const key = await freshKey();
    const signed = (method: string, path: string, payload: unknown) => {
      const body = JSON.stringify(payload);
      const headers = l2Headers(key.creds, key.wallet.address, { method, path, body, timestamp: String(Date.now()) });
      return from('198.51.100.7', path, { method, headers: { ...headers, 'content-type': 'application/json' }, body });
    };
    // A burst of 2 per 10 s: two orders in one request take both (a token each until the twenty-fifth session).
    const batch = await signed('POST', '/orders', [{ n: 1 }, { n: 2 }]);
    expect(batch.status).not.toBe(429);
    expect(limitHeaders(batch).slice(0, 2)).toEqual(['2', '0']);
    await refusal(await signed('POST', '/order', { n: 3 }));
    const ids = [`0x${'1'.repeat(64)}`, `0x${'2'.repeat(64)}`];
    const cancels = await signed('DELETE', '/orders', ids);
    expect(cancels.status).toBe(PAST_AUTHENTICATION);
    expect(limitHeaders(cancels).slice(0, 2)).toEqual(['2', '0']);
    await refusal(await signed('DELETE', '/order', { orderID: ids[0] }));
  });

  it("counts the limits of every key of an address together, as upstream's per-signer buckets", async () => {
    const first = await freshKey();
    // The same wallet's key of another nonce: before the twenty-sixth session its own limits, so that
    // an address had as many as the nonces it signed.
    const response = await from('203.0.113.99', '/auth/api-key', { method: 'POST', headers: await l1Headers(first.wallet, { nonce: 7 }) });
    expect(response.status).toBe(200);
    const second = { wallet: first.wallet, creds: (await response.json()) as Credentials };
    expect(second.creds.apiKey).not.toBe(first.creds.apiKey);
    const order = (key: Key, n: number) => {
      const body = JSON.stringify({ n });
      const headers = l2Headers(key.creds, key.wallet.address, { method: 'POST', path: '/order', body, timestamp: String(Date.now()) });
      return from('198.51.100.8', '/order', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    };
    // A burst of 2 per 10 s, taken one by each key; a third order, from either, is refused.
    expect(limitHeaders(await order(first, 1)).slice(0, 2)).toEqual(['2', '1']);
    expect(limitHeaders(await order(second, 2)).slice(0, 2)).toEqual(['2', '0']);
    await refusal(await order(second, 3));
    await refusal(await order(first, 4));
    // Another address's key is not touched.
    const other = await freshKey();
    expect(limitHeaders(await order(other, 5)).slice(0, 2)).toEqual(['2', '1']);
  });

  /**
   * A new key, made from an address of its own (L1 requests count against theirs) and used once from it,
   * so that the gateway has it cached for the next 10 s: its lookups need no database read.
   */
  let keysMade = 0;
  const freshKey = async () => {
    const wallet = newWallet();
    const home = `203.0.113.${100 + keysMade++}`;
    const response = await from(home, '/auth/api-key', { method: 'POST', headers: await l1Headers(wallet) });
    expect(response.status).toBe(200);
    const key = { wallet, creds: (await response.json()) as Credentials };
    expect((await signedGet(home, key)).status).toBe(PAST_AUTHENTICATION);
    return key;
  };
  type Key = { wallet: TestWallet; creds: Credentials };
  const signedGet = (client: string, key: Key, options: { passphrase?: string; timestamp?: string } = {}) => {
    const headers = l2Headers(key.creds, key.wallet.address, { method: 'GET', path: '/data/orders', timestamp: options.timestamp });
    return from(client, '/data/orders', { headers: { ...headers, ...(options.passphrase ? { POLY_PASSPHRASE: options.passphrase } : {}) } });
  };
  /** Answered past authentication: no order-matching behind this gateway. */
  const PAST_AUTHENTICATION = 425;

  it("refuses a client that keeps failing with a key the gateway knows, before checking it, and only that client's requests with that key", async () => {
    const a = await freshKey();
    // 100 failures at once and then 10 a second, at 0.1%: one, then one every 100 s.
    const firstAt = Date.now();
    const failed = await signedGet('198.51.100.66', a, { passphrase: 'wrong' });
    expect(failed.status).toBe(401);
    expect(await failed.json()).toEqual(L2_REFUSED);
    const refused = await signedGet('198.51.100.66', a, { passphrase: 'wrong' });
    expectRetryAfter(await refusal(refused), 100, firstAt);
    expect(limitHeaders(refused).slice(0, 2)).toEqual(['1', '0']);
    expect(limitHeaders(refused)[2]).toBeGreaterThanOrEqual(100 - Math.ceil((Date.now() - firstAt) / 1_000) - 1);
    expect(limitHeaders(refused)[2]).toBeLessThanOrEqual(101);
    // Even a correctly signed request with that key from that address waits; other addresses do not.
    await refusal(await signedGet('198.51.100.66', a));
    expect((await signedGet('198.51.100.67', a)).status).toBe(PAST_AUTHENTICATION);
    expect((await signedGet('198.51.100.67', a, { passphrase: 'wrong' })).status).toBe(401);
    // Another client behind the same address (a NAT) with its own key is not refused for a's failures.
    const b = await freshKey();
    expect((await signedGet('198.51.100.66', b)).status).toBe(PAST_AUTHENTICATION);
  });

  it('refuses a client whose clock is off by its key, not its address, once the key is known', async () => {
    const [a, b] = [await freshKey(), await freshKey()];
    const anHourAgo = String(Math.floor(Date.now() / 1_000) - 3_600);
    const stale = await signedGet('198.51.100.68', a, { timestamp: anHourAgo });
    expect({ status: stale.status, body: await stale.json() }).toEqual({ status: 401, body: L2_REFUSED });
    await refusal(await signedGet('198.51.100.68', a, { timestamp: anHourAgo }));
    expect((await signedGet('198.51.100.68', b)).status).toBe(PAST_AUTHENTICATION);
  });

  it('refuses an address whose failures cost key lookups (made-up keys), except for keys the gateway knows', async () => {
    const b = await freshKey();
    const madeUp = (client: string) => signedGet(client, { wallet: b.wallet, creds: { ...b.creds, apiKey: randomUUID() } });
    expect((await madeUp('198.51.100.69')).status).toBe(401);
    // A second made-up key from the address would be a database read: refused before it.
    await refusal(await madeUp('198.51.100.69'));
    expect((await madeUp('198.51.100.70')).status).toBe(401);
    // A known key's request costs no read: it is checked, and passes.
    expect((await signedGet('198.51.100.69', b)).status).toBe(PAST_AUTHENTICATION);
  });

  it('counts a signed route\'s request refused before it authenticates as a failed authentication of its address', async () => {
    // Until the twenty-second session nothing limited these (a probe sent 6,000 in about a second from one address).
    const malformed = (client: string, method: string, path: string, contentType = 'application/json') =>
      from(client, path, { method, headers: { 'content-type': contentType }, body: '{bad' });
    const invalidJson = { error: 'request body is not valid JSON', code: 'invalid_json' };
    // In the order lane (malformed JSON), on Fastify's routes (malformed JSON, another content type): one
    // failure at 0.1%, then 429 before the body is read.
    for (const [client, method, path, type, body] of [
      ['198.51.100.90', 'POST', '/order', 'application/json', invalidJson],
      ['198.51.100.91', 'DELETE', '/order', 'application/json', invalidJson],
      ['198.51.100.92', 'POST', '/orders', 'text/plain', { error: 'Content-Type must be application/json', code: 'invalid_request' }],
    ] as const) {
      const first = await malformed(client, method, path, type);
      expect({ path, status: first.status, body: await first.json() }).toEqual({ path, status: 400, body });
      await refusal(await malformed(client, method, path, type));
    }
    // A public route's malformed request is the public limits' (per address), not a failed authentication:
    // the address still has its one failure on a signed route.
    const publicRoute = await malformed('198.51.100.93', 'POST', '/midpoints');
    expect({ status: publicRoute.status, body: await publicRoute.json() }).toEqual({ status: 400, body: invalidJson });
    const signedRoute = await malformed('198.51.100.93', 'POST', '/order');
    expect({ status: signedRoute.status, body: await signedRoute.json() }).toEqual({ status: 400, body: invalidJson });
    await refusal(await malformed('198.51.100.93', 'POST', '/order'));
  });

  it("answers a signed route's request to a port that does not serve it with 404, not counted as a failed authentication", async () => {
    const catalog = `http://127.0.0.1:${gw.gateway.ports.catalog}`;
    // An order sent to the catalog's port (a client given the wrong host), again and again.
    for (let i = 0; i < 3; i++) {
      const response = await from('198.51.100.94', '/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, catalog);
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 404, body: { error: 'no such route', code: 'route_not_found' } });
    }
    // The address still has its one failure to spare where the route is served.
    const malformed = () => from('198.51.100.94', '/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect((await malformed()).status).toBe(400);
    await refusal(await malformed());
  });

  it('does not count a replay answered with its kept failure as a failed authentication', async () => {
    const { wallet, creds } = wallets[1]!;
    const body = JSON.stringify({ conditionId: 'not a condition id', amount: '1' });
    const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/split', body }), 'content-type': 'application/json' };
    // Authenticated, then refused (400): the replays get that 400, and the address has its one failure to spare still.
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const response = await from('198.51.100.95', '/split', { method: 'POST', headers, body });
      answers.push({ status: response.status, body: (await response.json()) as { error: string } });
    }
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
    expect(answers[2]!.body.error).toMatch(/the answer to the first sending of this signed request/);
    const malformed = () => from('198.51.100.95', '/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect((await malformed()).status).toBe(400);
    await refusal(await malformed());
  });

  it('counts failed L1 authentications against the address too (each costs a signature recovery)', async () => {
    const wallet = newWallet();
    const stale = await l1Headers(wallet, { timestamp: Math.floor(Date.now() / 1_000) - 3_600 });
    const create = (client: string, headers: Record<string, string>) => from(client, '/auth/derive-api-key', { headers });
    const failed = await create('198.51.100.80', stale);
    expect(failed.status).toBe(401);
    expect(await failed.json()).toEqual({ error: expect.any(String), code: 'unauthorized' });
    await refusal(await create('198.51.100.80', stale));
    // A valid signature from that address waits too, even naming a key the gateway knows, and L2
    // requests whose key would cost a lookup; other addresses do not.
    const known = await freshKey();
    await refusal(await create('198.51.100.80', { ...(await l1Headers(wallet)), POLY_API_KEY: known.creds.apiKey }));
    await refusal(await signedGet('198.51.100.80', { wallet: known.wallet, creds: { ...known.creds, apiKey: randomUUID() } }));
    expect((await signedGet('198.51.100.80', known)).status).toBe(PAST_AUTHENTICATION);
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
  const store = new CountingStore(redis, { ttlSeconds: 60, maxSkewMs: 27_500 }, `${prefix}:l2-memory-since`);
  // At 0.1%: POST /order 2 at once then a token every 5 s; GET /tags 1 per 10 s.
  const limiter = new RateLimiter(store, { enabled: true, scale: 0.001, trustedProxyHops: 0, keyPrefix: prefix }, SILENT_LOGGER, new ApiKeyCache());

  afterAll(async () => {
    await deleteRedisKeys(redis, `${prefix}:`);
    await redis.quit();
  });

  it("refuse a key's requests of the route without asking Redis (or claiming) until the retry time Redis gave", async () => {
    const firstAt = Date.now();
    let admitted = 0;
    let refusal: ApiError | undefined;
    while (refusal === undefined && admitted < 100) {
      await limiter.admitSigned(caller('m'), 'POST', '/order').then(
        () => admitted++,
        (error: ApiError) => (refusal = error),
      );
    }
    expect(admitted).toBe(2);
    expect(refusal).toMatchObject({ failure: { status: 429, body: RATE_LIMITED } });
    const retryAfter = refusal!.body.retry_after_seconds!;
    expectRetryAfter(retryAfter, 5, firstAt);
    const asked = store.asked;

    const known = limiter.admitSigned(caller('m'), 'POST', '/order', { signature: 'fresh', signedByMs: Date.now() });
    await expect(known).rejects.toMatchObject({ failure: { status: 429, body: RATE_LIMITED } });
    const remembered = (await known.catch((error: unknown) => error)) as ApiError;
    expect(remembered.body.retry_after_seconds).toBeLessThanOrEqual(retryAfter);
    expect(remembered.headers).toEqual(refusal!.headers);
    expect(store.asked).toBe(asked);
    // Nor was the signature claimed: Redis never saw it.
    expect(await redis.exists(`${prefix}:l2-seen:key-m:fresh`)).toBe(0);
    // Another key, and another route of this key, still ask Redis.
    await expect(limiter.admitSigned(caller('n'), 'POST', '/order')).resolves.toMatchObject({ claim: 'new' });
    await expect(limiter.admitSigned(caller('m'), 'DELETE', '/order')).resolves.toMatchObject({ claim: 'new' });
    expect(store.asked).toBe(asked + 2);

    // A token is back by the retry time the refusal gave: then Redis is asked again, and admits.
    await sleep(retryAfter * 1_000);
    await expect(limiter.admitSigned(caller('m'), 'POST', '/order')).resolves.toMatchObject({ claim: 'new' });
    expect(store.asked).toBe(asked + 3);
  });

  it("keep Redis's 429 of a claimed write for its replays, which another gateway process answers with it", async () => {
    const write = () => ({ signature: 'kept-429', signedByMs: Date.now() });
    for (let i = 0; i < 2; i++) await limiter.admitSigned(caller('k'), 'POST', '/order', { signature: `kept-ok-${i}`, signedByMs: Date.now() });
    const refused = (await limiter.admitSigned(caller('k'), 'POST', '/order', write()).catch((error: unknown) => error)) as ApiError;
    expect(refused).toMatchObject({ failure: { status: 429, body: RATE_LIMITED } });
    // Another replica remembers no refusal: Redis answers the replay with the kept 429, not "seen".
    const replica = new RateLimiter(store, { enabled: true, scale: 0.001, trustedProxyHops: 0, keyPrefix: prefix }, SILENT_LOGGER, new ApiKeyCache());
    await expect(replica.admitSigned(caller('k'), 'POST', '/order', write())).resolves.toEqual({
      claim: 'seen',
      headers: {},
      kept: { status: 429, body: JSON.stringify(refused.failure.body) },
    });
  });

  it('keep no answer longer than 4,096 characters: its replays are told they are replays', async () => {
    const refused = await limiter.admitSigned(caller('long'), 'DELETE', '/cancel-market-orders', { signature: 'long-answer', signedByMs: Date.now() });
    await limiter.keepAnswer(refused.claimKey!, { status: 400, body: JSON.stringify({ error: 'x'.repeat(5_000), code: 'invalid_request' }) });
    await expect(limiter.admitSigned(caller('long'), 'DELETE', '/cancel-market-orders', { signature: 'long-answer', signedByMs: Date.now() })).resolves.toEqual({
      claim: 'seen',
      headers: {},
    });
  });

  it('refuse public requests of a client address the same way', async () => {
    const raw = { socket: { remoteAddress: '203.0.113.77' }, headers: {} } as unknown as IncomingMessage;
    expect(await limiter.admitPublic(raw, 'GET', '/tags')).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
    const refused = { failure: { status: 429, body: RATE_LIMITED } };
    await expect(limiter.admitPublic(raw, 'GET', '/tags')).rejects.toMatchObject(refused);
    const asked = store.asked;
    await expect(limiter.admitPublic(raw, 'GET', '/tags')).rejects.toMatchObject(refused);
    expect(store.asked).toBe(asked);
    const other = { socket: { remoteAddress: '203.0.113.78' }, headers: {} } as unknown as IncomingMessage;
    expect(await limiter.admitPublic(other, 'GET', '/tags')).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
    expect(store.asked).toBe(asked + 1);
  });
});

describe('rate limits without Redis', () => {
  const prefix = `rl-down-${process.pid}-${Date.now()}`;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  afterAll(async () => {
    const redis = new Redis(redisUrl);
    await deleteRedisKeys(redis, `${prefix}:`);
    redis.disconnect();
  });

  /**
   * A limiter whose Redis is unreachable, and the lines it says. Not connected, without an offline queue,
   * every command fails at once (nothing listens on port 1; `at` names another Redis to connect to later).
   */
  const withoutRedis = (at = 'redis://127.0.0.1:1') => {
    const down = new Redis(at, { lazyConnect: true, enableOfflineQueue: false });
    const warnings: string[] = [];
    const lines: string[] = [];
    const limiter = new RateLimiter(
      new AdmissionStore(down, { ttlSeconds: 60, maxSkewMs: 27_500 }, `${prefix}:l2-memory-since`),
      { enabled: true, scale: 1, trustedProxyHops: 0, keyPrefix: prefix },
      { warn: (message: string) => warnings.push(message), log: (message: string) => lines.push(message) },
      new ApiKeyCache(),
    );
    return { down, warnings, lines, limiter };
  };

  it('are not applied to public or signed reads, said once, while signed writes fail', async () => {
    const { down, warnings, limiter } = withoutRedis();
    const raw = { socket: { remoteAddress: '203.0.113.9' }, headers: {} } as unknown as IncomingMessage;
    expect(await limiter.admitPublic(raw, 'GET', '/book')).toEqual({});
    expect(await limiter.admitPublic(raw, 'GET', '/tags')).toEqual({});
    expect(await limiter.admitSigned(caller('1'), 'GET', '/data/trades')).toEqual({ claim: 'new', headers: {} });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^rate limits not applied: /);
    await expect(limiter.admitSigned(caller('1'), 'POST', '/order', { signature: 'signature', signedByMs: Date.now() })).rejects.toThrow();
    down.disconnect();
  });

  it('say the signed writes (orders, cancels) they refuse, naming Redis and its error, once and then every 30 s at most', async () => {
    const { down, warnings, limiter } = withoutRedis();
    for (let i = 0; i < 50; i++) {
      await expect(limiter.admitSigned(caller('1'), i % 2 ? 'DELETE' : 'POST', '/order', { signature: `signature-${i}`, signedByMs: Date.now() })).rejects.toThrow();
    }
    // Until 2026-11-27 none: every order and cancel was answered 503 without a line.
    expect(warnings).toEqual([expect.stringMatching(/^signed writes refused \(503\): Redis failed their replay check, 1 refused since the last such line: \S+/)]);
    down.disconnect();
  });

  it('say when signed writes are admitted again after Redis failed, with how many were refused meanwhile', async () => {
    const { down, warnings, lines, limiter } = withoutRedis(redisUrl);
    const write = (i: number) => limiter.admitSigned(caller('1'), 'POST', '/order', { signature: `again-${i}`, signedByMs: Date.now() });
    for (let i = 0; i < 7; i++) await expect(write(i)).rejects.toThrow();
    expect(warnings).toHaveLength(1);
    // Redis was unreachable, not emptied: its memory of claims is whole from before the outage. Without
    // this the store's run on connecting finds no moment and takes Redis's now, which on a loaded machine
    // can be a millisecond after the next write's timestamp, rightly answered `before-memory` (a CI flake).
    const kept = new Redis(redisUrl);
    await kept.set(`${prefix}:l2-memory-since`, String(Date.now() - 60_000));
    kept.disconnect();
    await down.connect();
    try {
      expect(await write(7)).toMatchObject({ claim: 'new' });
      expect(await write(8)).toMatchObject({ claim: 'new' });
      expect(lines).toEqual(['signed writes admitted again: 7 refused (503) while Redis failed their replay check']);
    } finally {
      down.disconnect();
    }
  });
});
