import { createConnection } from 'node:net';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { socketText, TEST_NATS_URL } from '@exchange/testing';
import type { RunningGateway } from '../../src/gateway';
import { startAuthGateway, type AuthGateway } from '../support/auth-harness';

const ADMIN_TOKEN = 'gateway-edge-test-admin-token';
const codec = JSONCodec();

/**
 * The gateway alone, on real NATS, with no service behind its prefix: what it answers by itself
 * (health, bounds, auth, errors, request ids) and how it reports a missing service. A database and a
 * Redis key prefix of its own (with the defaults, it read and wrote the running exchange's: its hot
 * market data, and the rate limits of 127.0.0.1).
 */
describe('gateway edge (real NATS, no services)', () => {
  let gw: AuthGateway;
  let gateway: RunningGateway;
  let base: string;
  let prefix: string;
  let nc: NatsConnection;

  beforeAll(async () => {
    gw = await startAuthGateway('gw_edge', {
      ADMIN_TOKEN,
      ACCESS_LOG: 'true',
      RPC_TIMEOUT_MS: '2000',
      BODY_LIMIT: '65536',
      ADMIN_BODY_LIMIT: '262144',
      REQUEST_TIMEOUT_MS: '1000',
    });
    gateway = gw.gateway;
    base = gw.base;
    prefix = gw.env.NATS_PREFIX;
    nc = await connect({ servers: TEST_NATS_URL });
  });

  afterAll(async () => {
    await nc.close();
    // The gateway, its streams, database and Redis keys.
    await gw.close();
  });

  const get = (path: string, init?: RequestInit) => fetch(base + path, init);

  it('answers health on / and /ok on every port', async () => {
    for (const port of Object.values(gateway.ports)) {
      for (const path of ['/', '/ok']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe('OK');
      }
    }
  });

  it.each([
    '/events?limit=0',
    '/events?limit=101',
    '/events?limit=abc',
    '/events?offset=-1',
    '/events?active=maybe',
    '/events?ascending=1',
    '/events?order=secret',
    '/events?tag_id=x',
    '/events?limit=1&limit=2',
    '/events?creator=%20bad%20',
    '/events/abc',
    '/events/0',
    '/events/12?creator=**',
    '/markets/not-an-id',
    '/markets/0x1234',
    '/tags?limit=0',
    '/public-search',
    '/public-search?q=',
    '/events/slug/%ZZ',
    `/events/slug/${'a'.repeat(1_200)}`,
    '/events?limit=1e2',
    '/events/99999999999',
    '/events?order=',
  ])('GET %s is a 400 with the error body', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string };
    expect(body).toEqual({ error: expect.any(String), code: 'invalid_request' });
    expect(body.error.length).toBeGreaterThan(3);
  });

  it('answers 404 with the error body for an unknown route', async () => {
    const response = await get('/no/such/route');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no such route', code: 'route_not_found' });
  });

  it('does not serve catalog routes on the data port', async () => {
    const response = await fetch(`http://127.0.0.1:${gateway.ports.data}/events`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no such route', code: 'route_not_found' });
  });

  it('answers 503 with retry_after_seconds at once when no service answers', async () => {
    const response = await get('/events');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    // NATS's no-responders answer, not the RPC timeout's (2 s here), which says the request may have
    // been carried out: this one was refused at once, and says nothing was done.
    expect(await response.json()).toEqual({
      error: 'no service is answering catalog.events.list.v1: nothing was done; retry shortly',
      code: 'service_unavailable',
      retry_after_seconds: 1,
    });
  });

  it("takes a path parameter longer than Fastify's default bound of 100 characters to the service", async () => {
    const response = await get(`/events/slug/${'a'.repeat(150)}`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'service_unavailable' });
  });

  it('answers the hot reads in front of Fastify with the same request id, error body and bounds', async () => {
    const missing = await get('/book?token_id=123', { headers: { 'x-request-id': 'trace-book-7' } });
    expect(missing.status).toBe(503);
    expect(missing.headers.get('x-request-id')).toBe('trace-book-7');
    expect(missing.headers.get('retry-after')).toBe('1');
    expect(await missing.json()).toMatchObject({ code: 'service_unavailable', retry_after_seconds: 1 });

    const head = await get('/tick-size/123', { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await head.text()).toBe('');

    for (const path of ['/book?token_id=0xabc', '/book?token_id=1&token_id=2', '/price?token_id=1', '/tick-size/%ZZ', '/fee-rate?token_id=-1', '/neg-risk']) {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String), code: 'invalid_request' });
    }
    // Without a token /fee-rate is the default schedule (no fee): a misspelled token_id is refused, not read as none.
    const misspelled = await get('/fee-rate?tokenId=123');
    expect(misspelled.status).toBe(400);
    expect(await misspelled.json()).toEqual({
      error: 'unknown parameter tokenId: /fee-rate takes token_id (without it, the default schedule)',
      code: 'invalid_request',
    });
    expect((await get('/fee-rate?token_id=123')).status).toBe(503);
    // Paths the lane does not own go on to Fastify's router.
    for (const path of ['/book/', '/tick-size/1/2', '/bookx?token_id=1']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'no such route', code: 'route_not_found' });
    }
    const deleted = await get('/book?token_id=1', { method: 'DELETE' });
    expect({ status: deleted.status, body: await deleted.json() }).toEqual({ status: 404, body: { error: 'no such route', code: 'route_not_found' } });
  });

  it('answers POST /order and /orders in front of Fastify as Fastify would, and leaves the unusual to it', async () => {
    const post = (path: string, body: RequestInit['body'], headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      get(path, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    const broken = await post('/order', '{"order":', { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'trace-order-3' });
    expect(broken.status).toBe(400);
    expect(broken.headers.get('x-request-id')).toBe('trace-order-3');
    expect(await broken.json()).toEqual({ error: 'request body is not valid JSON', code: 'invalid_json' });
    const poisoned = await post('/orders', '[{"__proto__":{"admin":true}}]');
    expect(poisoned.status).toBe(400);
    expect(await poisoned.json()).toEqual({ error: expect.any(String), code: 'invalid_json' });
    for (const path of ['/order', '/orders?x=1']) {
      const unsigned = await post(path, '{}');
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toEqual({ error: 'Unauthorized/Invalid api key', code: 'unauthorized' });
    }
    // Left to Fastify: another content type or a content coding, a chunked body, a body over the limit.
    const text = await post('/order', '<order/>', { 'content-type': 'application/xml' });
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({ error: 'Content-Type must be application/json', code: 'invalid_request' });
    // A content coding: a gzip body was a JSON error, one of an unknown coding read as plain (fuzzing).
    for (const [path, encoding] of [['/order', 'gzip'], ['/orders', 'x-foo'], ['/books', 'br']] as const) {
      const encoded = await post(path, '{}', { 'content-type': 'application/json', 'content-encoding': encoding });
      expect({ path, status: encoded.status, body: await encoded.json() }).toEqual({
        path,
        status: 400,
        body: { error: 'Content-Encoding is not supported: send the body uncompressed', code: 'invalid_request' },
      });
    }
    const identity = await post('/order', '{}', { 'content-type': 'application/json', 'content-encoding': 'identity' });
    expect({ status: identity.status, body: await identity.json() }).toEqual({ status: 401, body: { error: 'Unauthorized/Invalid api key', code: 'unauthorized' } });
    const chunked = await post('/order', new Blob(['{}']).stream());
    expect({ status: chunked.status, body: await chunked.json() }).toEqual({ status: 401, body: { error: 'Unauthorized/Invalid api key', code: 'unauthorized' } });
    const large = await post('/order', JSON.stringify({ pad: 'x'.repeat(70_000) }));
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ error: 'request body too large', code: 'payload_too_large' });
  });

  it('refuses the operator API without the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `bearer ${ADMIN_TOKEN}`, ADMIN_TOKEN]) {
      const response = await get('/admin/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: '{}',
      });
      expect({ authorization, status: response.status, body: await response.json() }).toEqual({
        authorization,
        status: 401,
        body: { error: 'Unauthorized: a valid admin bearer token is required', code: 'unauthorized' },
      });
    }
  });

  it('takes larger bodies on the operator API only, and refuses one without the token before reading it', async () => {
    const json = { 'content-type': 'application/json' };
    const admin = { ...json, authorization: `Bearer ${ADMIN_TOKEN}` };
    const between = JSON.stringify({ events: [{ slug: 'x'.repeat(100_000) }] });
    // Over BODY_LIMIT, under ADMIN_BODY_LIMIT: read on the operator API (no catalog here: 503), too large elsewhere.
    expect((await get('/admin/import', { method: 'POST', headers: admin, body: between })).status).toBe(503);
    const books = await get('/books', { method: 'POST', headers: json, body: between });
    expect({ status: books.status, body: await books.json() }).toEqual({ status: 413, body: { error: 'request body too large', code: 'payload_too_large' } });
    const overAdmin = await get('/admin/import', { method: 'POST', headers: admin, body: 'x'.repeat(300_000) });
    expect({ status: overAdmin.status, body: await overAdmin.json() }).toEqual({ status: 413, body: { error: 'request body too large', code: 'payload_too_large' } });

    // 10 MB announced, a few bytes sent: the 401 comes at once, with the body never read, however the
    // operator route's path is spelled (the router decodes %61 and takes absolute-form targets).
    for (const target of ['/admin/import', '/%61dmin/import', 'http://x/admin/import']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = createConnection(gateway.ports.combined, '127.0.0.1', () =>
          socket.write(`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n[{"slug":`),
        );
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
          if (text.includes('}')) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
      });
      expect({ target, status: answer.split('\r\n')[0] }).toEqual({ target, status: 'HTTP/1.1 401 Unauthorized' });
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Unauthorized: a valid admin bearer token is required', code: 'unauthorized' });
    }
  });

  it('answers malformed bodies with 400 and the error body', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const broken = await get('/admin/events', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"title":' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: 'request body is not valid JSON', code: 'invalid_json' });

    const invalid = await get('/admin/events', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x', slug: 'Not A Slug', markets: [] }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: expect.stringContaining('slug must be lowercase words joined by dashes'), code: 'invalid_request' });

    const patch = await get('/admin/markets/abc', { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: '{"closed":true}' });
    expect(patch.status).toBe(400);
    expect(await patch.json()).toEqual({ error: 'id: Invalid string: must match pattern /^0x[0-9a-fA-F]{64}$/', code: 'invalid_request' });
  });

  it('forwards only what the contract accepts, each value as the client wrote it', async () => {
    // Before, the raw body went on: 6,000 nested arrays failed in the NATS JSON encoding (a 500).
    const extra = `"pad":"${'x'.repeat(2_000)}","nested":${'['.repeat(6_000)}${']'.repeat(6_000)}`;
    const address = `0x${'ab'.repeat(20)}`;
    const conditionId = `0x${'cd'.repeat(32)}`;
    const cases: [path: string, subject: string, body: string, forwarded: unknown][] = [
      ['/admin/deposits', 'matching.admin.deposit.v1', `{"address":"${address}","amount":"5","reference":"wire-1",${extra}}`, { address, amount: '5', reference: 'wire-1' }],
      ['/admin/post-only-mode', 'matching.admin.post-only.v1', `{"enabled":false,${extra}}`, { enabled: false }],
      [`/admin/markets/${conditionId}/resolve`, 'matching.admin.resolve.v1', `{"winningOutcome":"Yes",${extra}}`, { winningOutcome: 'Yes', conditionId }],
      ['/books', 'marketdata.books.v1', `[{"token_id":"1","side":"buy",${extra}}]`, [{ token_id: '1', side: 'buy' }]],
      [
        '/admin/events',
        'catalog.admin.events.create.v1',
        `{"title":"T","slug":"t","description":"","endDate":"2030-01-01T00:00:00Z","eventMetadata":{"any":{"key":[1]}},${extra},` +
          `"markets":[{"question":"Q?","slug":"q","minOrderSize":"5","feeSchedule":{"rate":"0.02",${extra}},${extra}}]}`,
        {
          body: {
            title: 'T',
            slug: 't',
            description: '',
            endDate: '2030-01-01T00:00:00Z',
            eventMetadata: { any: { key: [1] } },
            markets: [{ question: 'Q?', slug: 'q', minOrderSize: '5', feeSchedule: { rate: '0.02' } }],
          },
        },
      ],
      // Upstream events are open objects: the catalog reads them field by field.
      ['/admin/import?sites=site-a,site-b', 'catalog.admin.import.v1', '[{"slug":"up","any":{"key":[1]}}]', { events: [{ slug: 'up', any: { key: [1] } }], sites: ['site-a', 'site-b'] }],
    ];
    for (const [path, subject, body, forwarded] of cases) {
      let payload: unknown;
      const service = nc.subscribe(`${prefix}.${subject}`, {
        callback: (_err, msg) => {
          payload = (codec.decode(msg.data) as { data: unknown }).data;
          msg.respond(codec.encode({ response: { ok: true, data: { answered: subject } }, isDisposed: true }));
        },
      });
      await nc.flush();
      try {
        const response = await get(path, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body });
        expect({ path, ok: response.ok, body: await response.json() }).toEqual({ path, ok: true, body: { answered: subject } });
        expect(payload).toEqual(forwarded);
      } finally {
        service.unsubscribe();
      }
    }
  });

  it('answers an import still running with 202, its progress and where to read it, and forwards that read', async () => {
    const id = '0b5c2a7e-8d1f-4c3b-9a6e-2f4d5c6b7a89';
    const running = { id, status: 'running', total: 300, created: [], skipped: [], startedAt: '2026-11-26T00:00:00.000Z', finishedAt: null };
    const asked: unknown[] = [];
    const services = ['catalog.admin.import.v1', 'catalog.admin.imports.get.v1'].map((subject) =>
      nc.subscribe(`${prefix}.${subject}`, {
        callback: (_err, msg) => {
          asked.push((codec.decode(msg.data) as { data: unknown }).data);
          msg.respond(codec.encode({ response: { ok: true, data: running }, isDisposed: true }));
        },
      }),
    );
    await nc.flush();
    try {
      const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
      const started = await get('/admin/import', { method: 'POST', headers, body: '[{"slug":"up"}]' });
      expect(started.status).toBe(202);
      expect(started.headers.get('location')).toBe(`/admin/imports/${id}`);
      expect(await started.json()).toEqual(running);

      const read = await get(`/admin/imports/${id}`, { headers });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(running);
      expect(asked).toEqual([{ events: [{ slug: 'up' }], sites: [] }, { id }]);
      // Refused at the edge: never asked.
      const refused = await get('/admin/imports/42', { headers });
      expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 400, body: { error: expect.any(String), code: 'invalid_request' } });
      expect(asked).toHaveLength(2);
    } finally {
      services.forEach((s) => s.unsubscribe());
    }
  });

  it('refuses a repeated sites parameter of an import as every repeated parameter is', async () => {
    const response = await get('/admin/import?sites=site-a&sites=site-b', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '[{"slug":"up"}]',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'sites must be a single comma list (?sites=a,b)', code: 'invalid_request' });
  });

  it('refuses text no service can store, in the URL or anywhere in a JSON body, before any service', async () => {
    const refused = { error: 'request text may not contain a NUL character (U+0000) or an unpaired UTF-16 surrogate', code: 'invalid_request' };
    for (const path of ['/public-search?q=%00', '/events?slug=a%00', '/events/slug/%00', '/markets/x%00']) {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refused);
    }
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    for (const body of ['{"title":"a\\u0000b"}', '{"markets":[{"q\\u0000":1}]}', '{"title":"\\ud800"}', '{"title":"\\udc00\\ud800"}']) {
      const response = await get('/admin/events', { method: 'POST', headers, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refused);
    }
    // The order lane parses before authenticating, as for malformed JSON.
    const order = await get('/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"owner":"\\u0000"}' });
    expect(order.status).toBe(400);
    expect(await order.json()).toEqual(refused);
    // Six characters that only spell an escape, and a surrogate pair, go on to the service (none here).
    const event = (title: string) =>
      `{"title":"${title}","slug":"text-ok","description":"","endDate":"2030-01-01T00:00:00Z",` +
      '"markets":[{"question":"Q?","slug":"text-ok-m","outcomes":["Yes","No"],"tickSize":"0.01","minOrderSize":"5","negRisk":false}]}';
    for (const title of ['\\\\u0000', '\\ud83d\\ude00']) {
      expect((await get('/admin/events', { method: 'POST', headers, body: event(title) })).status).toBe(503);
    }
  });

  it('answers what Node\'s HTTP parser refuses with the error body too', async () => {
    const raw = (request: string) => {
      const socket = createConnection(gateway.ports.combined, '127.0.0.1', () => socket.write(request));
      return socketText(socket);
    };
    const huge = await raw(`GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(huge.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Request Header Fields Too Large', code: 'invalid_request' });
    const both = await raw('POST /orders HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    expect(both.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(both.slice(both.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Bad Request', code: 'invalid_request' });
    // A request id, as on every answer (these had none until the twenty-second session; a docs probe).
    for (const answer of [huge, both]) expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    // Node's own answers to these had an empty body.
    const hostless = await raw('GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(hostless.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(hostless.slice(hostless.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'an HTTP/1.1 request needs a Host header', code: 'invalid_request' });
    const expectation = await raw('GET /ok HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n');
    expect(expectation.split('\r\n')[0]).toBe('HTTP/1.1 417 Expectation Failed');
    expect(JSON.parse(expectation.slice(expectation.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'Expect: 200-ok cannot be met; only 100-continue is',
      code: 'invalid_request',
    });
    expect((await raw('GET /ok HTTP/1.0\r\n\r\n')).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    // Node closed the socket of a CONNECT without a word (a probe): a 404, as for any method without a route.
    for (const target of ['127.0.0.1:443', '/events']) {
      const connect = await raw(`CONNECT ${target} HTTP/1.1\r\nHost: x\r\nX-Request-Id: connect-1\r\n\r\n`);
      expect(connect.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
      expect(connect).toContain('\r\nX-Request-Id: connect-1\r\n');
      expect(JSON.parse(connect.slice(connect.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'no such route', code: 'route_not_found' });
    }
  });

  it('answers 408 with the error body to a client that stalls mid-request, within REQUEST_TIMEOUT_MS', async () => {
    const stalled = (request: string) =>
      new Promise<{ answer: string; ms: number }>((resolve, reject) => {
        const started = Date.now();
        const socket = createConnection(gateway.ports.combined, '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve({ answer, ms: Date.now() - started }));
        socket.on('error', reject);
      });
    // Node's default was 300 s for either: the socket and its buffers held for five minutes.
    const requests = [
      'POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[{"order":',
      'GET /events HTTP/1.1\r\nHost: x\r\nX-Slow: ',
    ];
    for (const request of requests) {
      const { answer, ms } = await stalled(request);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'Request Timeout', code: 'invalid_request' });
      expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(5_000);
    }
  });

  it('carries the request id into the response and onto NATS', async () => {
    const seen = new Promise<string | undefined>((resolve) => {
      const sub = nc.subscribe(`${prefix}.catalog.events.list.v1`, {
        max: 1,
        callback: (_err, msg) => {
          resolve(msg.headers?.get('x-request-id'));
          sub.unsubscribe();
        },
      });
    });
    await nc.flush();
    const response = await get('/events', { headers: { 'x-request-id': 'trace-me-42' } });
    expect(response.headers.get('x-request-id')).toBe('trace-me-42');
    expect(await seen).toBe('trace-me-42');
  });
});
