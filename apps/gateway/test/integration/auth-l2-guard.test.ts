import type { IncomingMessage } from 'node:http';
import { Body, Controller, Logger, Module, Post, Put, UseGuards, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ClobClient } from '@polymarket/clob-client-v2';
import type { ErrorCode } from '@exchange/contracts';
import { JsonLogger } from '@exchange/service-kit';
import { ApiCaller } from '../../src/auth/api-caller';
import { AuthModule } from '../../src/auth/auth.module';
import { AuthResources } from '../../src/auth/auth-resources';
import { ApiKeyRepository } from '../../src/auth/api-key.repository';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { L2Authenticator, L2AuthGuard } from '../../src/auth/l2-auth.guard';
import { parseJsonBodiesOnly } from '../../src/auth/raw-json-body';
import { ApiError } from '../../src/http/api-error';
import { ErrorBodyFilter } from '../../src/http/error-body.filter';
import { ErrorBodyFastifyAdapter, setUpFastify } from '../../src/http/fastify-setup';
import { RateLimiter } from '../../src/rate-limits/rate-limiter';
import { databaseRelay, until } from '@exchange/testing';
import { l1Headers, l2Headers, L2_WINDOW_SECONDS, newWallet, SILENT_LOGGER, startAuthGateway, type AuthGateway, type Credentials, type TestWallet } from '../support/auth-harness';

const L2_REFUSED = { error: 'Unauthorized/Invalid api key', code: 'unauthorized' };
const CLOSED_ONLY = '/auth/ban-status/closed-only';

/** A signed write route for the tests, guarded exactly as trading routes are. */
@Controller('test')
@UseGuards(L2AuthGuard)
class EchoController {
  @Post('echo')
  post(@ApiCaller() caller: ApiCaller, @Body() body: unknown) {
    return { caller, body };
  }

  @Put('echo')
  put(@ApiCaller() caller: ApiCaller) {
    return { caller };
  }

  /** How many times `fail` ran. */
  static failures = 0;

  /** Answers the failure the body names, as a service's refusal comes back. */
  @Post('fail')
  fail(@Body() body: { code: ErrorCode }) {
    EchoController.failures++;
    throw ApiError.of(body.code, `failed with ${body.code}`, 1);
  }
}

@Module({})
class EchoModule {
  static with(resources: AuthResources, limiter: RateLimiter): DynamicModule {
    return {
      module: EchoModule,
      imports: [AuthModule.forSurface('data', resources, limiter)],
      controllers: [EchoController],
      providers: [{ provide: APP_FILTER, useClass: ErrorBodyFilter }],
    };
  }
}

/**
 * L2AuthGuard on real PostgreSQL and Redis: the closed-only route of the gateway, and a signed write
 * route in a Nest application set up like a gateway surface, sharing the gateway's settings.
 */
describe('L2 authentication guard', () => {
  let gw: AuthGateway;
  let echo: NestFastifyApplication;
  let echoResources: AuthResources;
  let echoBase: string;
  let wallet: TestWallet;
  let creds: Credentials;

  beforeAll(async () => {
    gw = await startAuthGateway('gw_auth_l2');
    echoResources = AuthResources.create(gw.env, new JsonLogger('test', 'error'));
    const limiter = RateLimiter.fromEnv(gw.env, echoResources, SILENT_LOGGER);
    echo = await NestFactory.create<NestFastifyApplication>(EchoModule.with(echoResources, limiter), new ErrorBodyFastifyAdapter(), { logger: false });
    await echo.init();
    parseJsonBodiesOnly(echo.getHttpAdapter().getInstance());
    setUpFastify(echo.getHttpAdapter().getInstance(), 'combined', () => undefined, limiter);
    await echo.listen(0, '127.0.0.1');
    const address = echo.getHttpServer().address();
    echoBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    wallet = newWallet();
    const response = await fetch(`${gw.clob}/auth/api-key`, { method: 'POST', headers: await l1Headers(wallet) });
    creds = (await response.json()) as Credentials;
  });

  afterAll(async () => {
    await echo.close();
    await echoResources.close();
    await gw.close();
  });

  const getClosedOnly = (headers: Record<string, string>, host = gw.clob, path = CLOSED_ONLY) => fetch(host + path, { headers });
  const expectRefused = async (response: Response) => {
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(L2_REFUSED);
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const replayed = { error: 'Unauthorized: this signed request was already received (a replay); sign it again with a later timestamp', code: 'unauthorized' };
  const expectReplay = async (response: Response) => {
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(replayed);
  };

  it('accepts the stock client (POLY_ headers, seconds)', async () => {
    const stock = new ClobClient({ host: gw.clob, chain: 137, signer: wallet.signer, creds: { key: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase } });
    expect(await stock.getClosedOnlyMode()).toEqual({ closed_only: false });
  });

  it('accepts SVC_ and POLY_ headers with timestamps in seconds or milliseconds, and any address case', async () => {
    const variants = [
      { prefix: 'SVC' as const, timestamp: String(Date.now()) },
      { prefix: 'SVC' as const, timestamp: String(nowSeconds()) },
      { prefix: 'POLY' as const, timestamp: String(Date.now()) },
      { prefix: 'POLY' as const, timestamp: String(nowSeconds()) },
    ];
    for (const variant of variants) {
      for (const address of [wallet.address, wallet.address.toLowerCase()]) {
        const response = await getClosedOnly(l2Headers(creds, address, { method: 'GET', path: CLOSED_ONLY, ...variant }));
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ closed_only: false });
      }
    }
  });

  it('refuses stale and future timestamps outside the window, in seconds and milliseconds', async () => {
    const skew = L2_WINDOW_SECONDS + 5;
    for (const timestamp of [
      String(nowSeconds() - skew),
      String(nowSeconds() + skew),
      String(Date.now() - skew * 1000),
      String(Date.now() + skew * 1000),
      '0',
      String(nowSeconds()) + '.0',
      '-' + String(nowSeconds()),
      String(Date.now()) + '0',
    ]) {
      await expectRefused(await getClosedOnly(l2Headers(creds, wallet.address, { method: 'GET', path: CLOSED_ONLY, timestamp })));
    }
    // Just inside the window is fine.
    const inside = String(nowSeconds() - (L2_WINDOW_SECONDS - 5));
    expect((await getClosedOnly(l2Headers(creds, wallet.address, { method: 'GET', path: CLOSED_ONLY, timestamp: inside }))).status).toBe(200);
  });

  it('refuses a wrong passphrase, an unknown key, another address and a bad signature', async () => {
    const headers = l2Headers(creds, wallet.address, { method: 'GET', path: CLOSED_ONLY });
    const otherWallet = newWallet();
    const otherCreds = (await (await fetch(`${gw.clob}/auth/api-key`, { method: 'POST', headers: await l1Headers(otherWallet) })).json()) as Credentials;
    const cases: Record<string, string>[] = [
      { ...headers, POLY_PASSPHRASE: creds.passphrase.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      { ...headers, POLY_PASSPHRASE: creds.passphrase.toUpperCase() },
      { ...headers, POLY_PASSPHRASE: '' },
      { ...headers, POLY_API_KEY: '00000000-0000-4000-8000-000000000000' },
      { ...headers, POLY_API_KEY: 'not-a-uuid' },
      // The other wallet's own address with this wallet's key, and this address with the other's key.
      { ...headers, POLY_ADDRESS: otherWallet.address },
      l2Headers(otherCreds, wallet.address, { method: 'GET', path: CLOSED_ONLY }),
      { ...headers, POLY_SIGNATURE: headers.POLY_SIGNATURE!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      { ...headers, POLY_SIGNATURE: l2Signature(otherCreds, CLOSED_ONLY) },
      l2Headers(creds, wallet.address, { method: 'POST', path: CLOSED_ONLY }),
      l2Headers(creds, wallet.address, { method: 'GET', path: '/auth/api-keys' }),
      Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'POLY_PASSPHRASE')),
      {},
    ];
    for (const candidate of cases) await expectRefused(await getClosedOnly(candidate));
    // The other wallet's credentials with its own address are fine.
    expect((await getClosedOnly(l2Headers(otherCreds, otherWallet.address, { method: 'GET', path: CLOSED_ONLY }))).status).toBe(200);
  });

  it.each(['ADDRESS', 'SIGNATURE', 'TIMESTAMP', 'API_KEY', 'PASSPHRASE'])(
    'refuses a request without its %s header, in either naming, with the 401 error body',
    async (name) => {
      const without = (headers: Record<string, string>, header: string) => Object.fromEntries(Object.entries(headers).filter(([h]) => h !== header));
      for (const prefix of ['POLY', 'SVC'] as const) {
        const headers = l2Headers(creds, wallet.address, { method: 'GET', path: CLOSED_ONLY, prefix });
        await expectRefused(await getClosedOnly(without(headers, `${prefix}_${name}`)));
        // Whole, the same headers pass: the one header was missing, nothing else.
        expect((await getClosedOnly(headers)).status).toBe(200);
      }

      // A signed write on a Nest route; its signature unused by the refusal, whole it is accepted.
      const body = '{"amount":"1"}';
      const write = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo', body, prefix: 'SVC', timestamp: String(Date.now()) }), 'content-type': 'application/json' };
      await expectRefused(await fetch(`${echoBase}/test/echo`, { method: 'POST', headers: without(write, `SVC_${name}`), body }));
      expect((await fetch(`${echoBase}/test/echo`, { method: 'POST', headers: write, body })).status).toBe(201);

      // And in the order lane, which authenticates in front of Fastify (whole, it gets as far as
      // checking the order: a 400).
      const order = '{"order":{},"owner":"x","orderType":"GTC"}';
      const placed = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/order', body: order, timestamp: String(Date.now()) }), 'content-type': 'application/json' };
      await expectRefused(await fetch(`${gw.clob}/order`, { method: 'POST', headers: without(placed, `POLY_${name}`), body: order }));
      const whole = await fetch(`${gw.clob}/order`, { method: 'POST', headers: placed, body: order });
      expect(whole.status).toBe(400);
      expect(await whole.json()).toMatchObject({ success: false, code: 'INVALID_ORDER_ERROR', error: expect.stringMatching(/^Invalid order payload: /) });
    },
  );

  it('lets a GET repeat its headers within the window (cursor pages), and ignores the query string', async () => {
    const headers = l2Headers(creds, wallet.address, { method: 'GET', path: CLOSED_ONLY });
    for (let i = 0; i < 3; i++) expect((await getClosedOnly(headers)).status).toBe(200);
    expect((await getClosedOnly(headers, gw.base, `${CLOSED_ONLY}?next_cursor=MTAw`)).status).toBe(200);
  });

  it('accepts a signed write once, with its exact body, and refuses a replay', async () => {
    const body = JSON.stringify({ order: { salt: 1, side: 'BUY' }, owner: creds.apiKey });
    const headers: Record<string, string> = {
      ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo', body, prefix: 'SVC' }),
      'content-type': 'application/json',
    };
    const first = await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ caller: { apiKey: creds.apiKey, address: wallet.address.toLowerCase() }, body: JSON.parse(body) });

    // The same request again, or with the signature re-encoded, is a replay, and the 401 says so.
    await expectReplay(await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body }));
    const reencoded = headers.SVC_SIGNATURE!.replace(/-/g, '+').replace(/_/g, '/').replace(/=$/, '');
    await expectReplay(await fetch(`${echoBase}/test/echo`, { method: 'POST', headers: { ...headers, SVC_SIGNATURE: reencoded }, body }));

    // A new timestamp makes a new signature: accepted.
    const again = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo', body, timestamp: String(Date.now()) }), 'content-type': 'application/json' };
    expect((await fetch(`${echoBase}/test/echo`, { method: 'POST', headers: again, body })).status).toBe(201);
  });

  it('answers a write sent again with the same headers as its first failure, without running it again; a success is a replay', async () => {
    const send = async (headers: Record<string, string>, body: string) => {
      const response = await fetch(`${echoBase}/test/fail`, { method: 'POST', headers, body });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as unknown };
    };
    // The stock clients' retryOnError sends a POST again with the same headers after a 5xx.
    for (const code of ['post_only_mode', 'service_unavailable', 'invalid_request', 'internal_error'] as const) {
      const body = JSON.stringify({ code });
      const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/fail', body }), 'content-type': 'application/json' };
      const ran = EchoController.failures;
      const first = await send(headers, body);
      expect(first).toMatchObject({ retryAfter: '1', body: { code, error: `failed with ${code}`, retry_after_seconds: 1 } });
      // The same status, code and Retry-After, the text saying that it answered the first sending.
      const again = { ...first, body: { code, error: `failed with ${code} (the answer to the first sending of this signed request; sign it again to retry)`, retry_after_seconds: 1 } };
      for (let i = 0; i < 2; i++) expect(await send(headers, body)).toEqual(again);
      expect(EchoController.failures - ran).toBe(1);
    }
    // Carried out: a replay.
    const body = JSON.stringify({ done: true });
    const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo', body }), 'content-type': 'application/json' };
    expect((await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body })).status).toBe(201);
    await expectReplay(await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body }));
  });

  it('refuses a write whose body differs from the signed one, even by whitespace', async () => {
    const signed = '{"amount":"100"}';
    for (const sent of ['{"amount":"101"}', '{"amount": "100"}', '{"amount":"100"} ']) {
      const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo', body: signed }), 'content-type': 'application/json' };
      await expectRefused(await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body: sent }));
    }
    // No signed body at all for a request that has one.
    const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo' }), 'content-type': 'application/json' };
    await expectRefused(await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body: signed }));
  });

  it('treats PUT as a write and accepts an empty JSON body', async () => {
    const headers = { ...l2Headers(creds, wallet.address, { method: 'PUT', path: '/test/echo' }), 'content-type': 'application/json' };
    expect((await fetch(`${echoBase}/test/echo`, { method: 'PUT', headers })).status).toBe(200);
    await expectReplay(await fetch(`${echoBase}/test/echo`, { method: 'PUT', headers }));
  });

  it('refuses invalid JSON on a signed route with 400 invalid_json', async () => {
    const body = '{"amount":';
    const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo', body }), 'content-type': 'application/json' };
    const response = await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'request body is not valid JSON', code: 'invalid_json' });
  });

  it('takes JSON bodies only: a form or text body signed as if there were none never reaches the route', async () => {
    // Before, these bodies had no raw text: the HMAC was checked as if the request had no body, and the
    // route acted on the body all the same.
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'market=0x01'],
      ['text/plain', '{"market":"0x01"}'],
      ['application/octet-stream', 'x'],
    ]) {
      const headers = { ...l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo' }), 'content-type': type! };
      const response = await fetch(`${echoBase}/test/echo`, { method: 'POST', headers, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Content-Type must be application/json', code: 'invalid_request' });
    }
    // The signature it carried is still unused: the same headers with no body are one write.
    const headers = l2Headers(creds, wallet.address, { method: 'POST', path: '/test/echo' });
    expect((await fetch(`${echoBase}/test/echo`, { method: 'POST', headers })).status).toBe(201);
  });

  it('reads a key missing from the cache once, however many requests wait for it; a revoke meanwhile wins', async () => {
    const logger = new JsonLogger('test', 'error');
    // The process's resources (its key cache, and the database for the revoke), and key reads through a
    // relay that can hold the database's answers back.
    const resources = AuthResources.create(gw.env, logger);
    const relay = await databaseRelay(gw.env.DATABASE_URL);
    await relay.open();
    const relayed = AuthResources.create({ ...gw.env, DATABASE_URL: relay.url }, logger);
    const repository = new ApiKeyRepository(relayed);
    // Counted only: every read goes to the database.
    const reads = jest.spyOn(repository, 'findByKey');
    const service = new ApiKeysService(resources, repository);
    try {
      const keys = await Promise.all(Array.from({ length: 50 }, () => service.activeKey(creds.apiKey)));
      expect(keys.every((key) => key?.address === wallet.address.toLowerCase())).toBe(true);
      expect(reads).toHaveBeenCalledTimes(1);

      // A key revoked in this process while its row is being read: PostgreSQL has answered with the row
      // as it was (active), and the answer waits in the relay until the revoke is done.
      const other = newWallet();
      const otherCreds = (await (await fetch(`${gw.clob}/auth/api-key`, { method: 'POST', headers: await l1Headers(other) })).json()) as Credentials;
      relay.hold();
      const reading = service.activeKey(otherCreds.apiKey);
      // The row, then ReadyForQuery: the query is over on the server.
      const readyForQuery = Buffer.from([0x5a, 0, 0, 0, 5]);
      await until(
        async () => {
          const held = relay.held();
          return held.includes(otherCreds.apiKey) && held.subarray(-6, -1).equals(readyForQuery) ? true : undefined;
        },
        10_000,
        'the row read and held in the relay',
      );
      expect(reads).toHaveBeenCalledTimes(2);
      // Revoked by this process (its cache), the row written on a connection of its own.
      await new ApiKeysService(resources, new ApiKeyRepository(resources)).revoke({ apiKey: otherCreds.apiKey, address: other.address.toLowerCase() });
      relay.release();
      expect(await reading).toBeNull();
      expect(await service.activeKey(otherCreds.apiKey)).toBeNull();
    } finally {
      relay.release();
      await Promise.all([resources.close(), relayed.close()]);
      await relay.close();
    }
  });

  it("refuses a write stale by Redis's clock though fresh by a process whose clock is behind, and says how far behind", async () => {
    // A replica 6 s behind accepted, after the claim had expired, a write another had taken (a split made twice).
    const authenticator = new L2Authenticator(echoResources, new ApiKeysService(echoResources, new ApiKeyRepository(echoResources)), RateLimiter.fromEnv(gw.env, echoResources, SILENT_LOGGER));
    const raw = { socket: { remoteAddress: '127.0.0.1' }, headers: {} } as unknown as IncomingMessage;
    const signedAt = (timestamp: number) => ({ raw, method: 'POST', url: '/x', headers: lowerCased(l2Headers(creds, wallet.address, { method: 'POST', path: '/x', timestamp: String(timestamp) })) });
    const realNow = Date.now.bind(Date);
    const warnings: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() - 6_000);
    try {
      // 33 s old by Redis's clock (this machine's), 27 s by the process's.
      await expect(authenticator.authenticate(signedAt(realNow() - (L2_WINDOW_SECONDS + 3) * 1_000), '/x')).rejects.toMatchObject({ failure: { status: 401, body: L2_REFUSED } });
      // Fresh by both: the process's clock alone refuses nothing.
      await expect(authenticator.authenticate(signedAt(realNow()), '/x')).resolves.toMatchObject({ caller: { apiKey: creds.apiKey } });
    } finally {
      clock.mockRestore();
      warn.mockRestore();
    }
    expect(warnings).toEqual([expect.stringMatching(/^1 signed write\(s\) refused as stale by Redis's clock: this process's clock is (59\d\d|6\d\d\d) ms behind Redis's/)]);
  });

  it('answers 503 rather than deciding when the database or Redis is unreachable', async () => {
    const authenticatorWith = (resources: AuthResources) =>
      new L2Authenticator(
        resources,
        new ApiKeysService(resources, new ApiKeyRepository(resources)),
        RateLimiter.fromEnv(gw.env, resources, SILENT_LOGGER),
      );
    const raw = { socket: { remoteAddress: '127.0.0.1' }, headers: {} } as unknown as IncomingMessage;
    const request = (method: string) => ({ raw, method, url: '/x', headers: lowerCased(l2Headers(creds, wallet.address, { method, path: '/x' })) });
    const logger = new JsonLogger('test', 'error');

    const noRedis = AuthResources.create({ ...gw.env, REDIS_URL: 'redis://127.0.0.1:1' }, logger);
    const noDatabase = AuthResources.create({ ...gw.env, DATABASE_URL: gw.env.DATABASE_URL.replace(/\/[^/]+$/, '/no_such_database') }, logger);
    try {
      // The key is found in the database; reads need no Redis (their rate limits are then not applied), writes do.
      expect(await authenticatorWith(noRedis).authenticate(request('GET'), '/x')).toEqual({
        caller: { apiKey: creds.apiKey, address: wallet.address.toLowerCase() },
        headers: {},
      });
      await expect(authenticatorWith(noRedis).authenticate(request('POST'), '/x')).rejects.toMatchObject({ failure: { status: 503, body: { code: 'service_unavailable' } } });
      await expect(authenticatorWith(noDatabase).authenticate(request('GET'), '/x')).rejects.toMatchObject({ failure: { status: 503, body: { code: 'service_unavailable' } } });
    } finally {
      await Promise.all([noRedis.close(), noDatabase.close()]);
    }
  });
});

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function l2Signature(credentials: Credentials, path: string): string {
  return l2Headers(credentials, '0x0000000000000000000000000000000000000000', { method: 'GET', path }).POLY_SIGNATURE!;
}
