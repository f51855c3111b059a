import { ClobClient } from '@polymarket/clob-client-v2';
import { Client } from 'pg';
import { startGateway } from '../../src/gateway';
import { l1Headers, l2Headers, newWallet, startAuthGateway, type AuthGateway, type Credentials } from '../support/auth-harness';

const L1_REFUSED = { error: 'Invalid L1 Request headers', code: 'unauthorized' };
const L2_REFUSED = { error: 'Unauthorized/Invalid api key', code: 'unauthorized' };

/** The key endpoints, driven by the upstream TypeScript client and by plain HTTP. */
describe('API keys (L1 create/derive, L2 list/delete)', () => {
  let gw: AuthGateway;

  beforeAll(async () => {
    gw = await startAuthGateway('gw_auth_keys');
  });

  afterAll(async () => {
    await gw.close();
  });

  const client = (wallet: ReturnType<typeof newWallet>, creds?: Credentials, host = gw.clob) =>
    new ClobClient({
      host,
      chain: 137,
      signer: wallet.signer,
      ...(creds ? { creds: { key: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase } } : {}),
    });
  const asCredentials = (c: { key: string; secret: string; passphrase: string }): Credentials => ({ apiKey: c.key, secret: c.secret, passphrase: c.passphrase });

  it('creates credentials with the stock client, and create, derive and createOrDerive agree', async () => {
    const wallet = newWallet();
    const stock = client(wallet);
    const created = await stock.createApiKey();
    expect(created.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Buffer.from(created.secret, 'base64')).toHaveLength(32);
    expect(created.passphrase).toMatch(/^[0-9a-f]{64}$/);
    expect(await stock.deriveApiKey()).toEqual(created);
    expect(await stock.createApiKey()).toEqual(created);
    expect(await stock.createOrDeriveApiKey()).toEqual(created);
    expect(await stock.createOrDeriveApiKey(0)).toEqual(created);
    // Another nonce is another key; the combined surface answers the same.
    const other = await client(wallet, undefined, gw.base).createApiKey(1);
    expect(other.key).not.toBe(created.key);
    expect(await client(wallet, undefined, gw.base).deriveApiKey(0)).toEqual(created);
    // The L2 routes accept them at once.
    expect(await client(wallet, asCredentials(created)).getClosedOnlyMode()).toEqual({ closed_only: false });
  });

  it('accepts the SVC_ L1 headers and answers 200 with the three fields', async () => {
    const wallet = newWallet();
    const response = await fetch(`${gw.clob}/auth/api-key`, { method: 'POST', headers: await l1Headers(wallet, { nonce: 3, prefix: 'SVC' }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Credentials;
    expect(Object.keys(body).sort()).toEqual(['apiKey', 'passphrase', 'secret']);
    const derived = await fetch(`${gw.clob}/auth/derive-api-key`, { headers: await l1Headers(wallet, { nonce: 3 }) });
    expect(await derived.json()).toEqual(body);
  });

  it('refuses bad L1 requests with 401 and the error body', async () => {
    const wallet = newWallet();
    const stranger = newWallet();
    const now = Math.floor(Date.now() / 1000);
    const good = await l1Headers(wallet);
    const cases: Record<string, string>[] = [
      {},
      { ...good, POLY_SIGNATURE: (await l1Headers(stranger)).POLY_SIGNATURE },
      { ...good, POLY_ADDRESS: stranger.address },
      { ...good, POLY_NONCE: '1' },
      { ...good, POLY_NONCE: '-1' },
      { ...good, POLY_NONCE: '1'.repeat(80) },
      { ...good, POLY_SIGNATURE: good.POLY_SIGNATURE!.slice(0, 40) },
      { ...good, POLY_ADDRESS: 'not-an-address' },
      { ...good, POLY_TIMESTAMP: '' },
      Object.fromEntries(Object.entries(good).filter(([name]) => name !== 'POLY_SIGNATURE')),
      await l1Headers(wallet, { timestamp: now - 120 }),
      await l1Headers(wallet, { timestamp: now + 120 }),
      await l1Headers(wallet, { chainId: 80002 }),
    ];
    for (const headers of cases) {
      for (const [method, route] of [
        ['POST', '/auth/api-key'],
        ['GET', '/auth/derive-api-key'],
      ] as const) {
        const response = await fetch(gw.clob + route, { method, headers });
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual(L1_REFUSED);
      }
    }
  });

  it('lists the caller\'s keys as UUID strings', async () => {
    const wallet = newWallet();
    const first = await client(wallet).createApiKey(0);
    const second = await client(wallet).createApiKey(5);
    await client(newWallet()).createApiKey(0);
    const listed = await client(wallet, asCredentials(second)).getApiKeys();
    expect(listed).toEqual({ apiKeys: expect.arrayContaining([first.key, second.key]) });
    expect((listed.apiKeys as unknown[]).length).toBe(2);
  });

  it("refuses a deleted key at once in another gateway process too, though its cache held it (for 10 s before)", async () => {
    // A second process of the same deployment: the same database, Redis prefix and NATS prefix.
    const other = await startGateway(gw.env);
    try {
      const wallet = newWallet();
      const doomed = asCredentials(await client(wallet).createApiKey(0));
      const otherHost = `http://127.0.0.1:${other.ports.clob}`;
      const inOther = () =>
        fetch(`${otherHost}/auth/ban-status/closed-only`, { headers: l2Headers(doomed, wallet.address, { method: 'GET', path: '/auth/ban-status/closed-only' }) });
      expect((await inOther()).status).toBe(200);
      expect(await client(wallet, doomed, gw.clob).deleteApiKey()).toBe('OK');
      // Inside the other process's 10 s cache lifetime, with room for a loaded machine.
      const deadline = Date.now() + 5_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) status = (await inOther()).status;
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('deletes the key used in the headers; its (address, nonce) stays revoked, another nonce works', async () => {
    const wallet = newWallet();
    const doomed = asCredentials(await client(wallet).createApiKey(0));
    const kept = asCredentials(await client(wallet).createApiKey(1));
    // Warm the caches of both surfaces with the key first.
    expect(await client(wallet, doomed, gw.base).getClosedOnlyMode()).toEqual({ closed_only: false });
    expect(await client(wallet, doomed, gw.clob).deleteApiKey()).toBe('OK');
    // Refused at once, on every surface of this process.
    for (const host of [gw.clob, gw.base]) {
      const response = await fetch(`${host}/auth/ban-status/closed-only`, {
        headers: l2Headers(doomed, wallet.address, { method: 'GET', path: '/auth/ban-status/closed-only' }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(L2_REFUSED);
    }
    expect(await client(wallet, kept).getApiKeys()).toEqual({ apiKeys: [kept.apiKey] });
    for (const [method, route, message] of [
      ['POST', '/auth/api-key', 'Could not create api key'],
      ['GET', '/auth/derive-api-key', 'Could not derive api key!'],
    ] as const) {
      const response = await fetch(gw.clob + route, { method, headers: await l1Headers(wallet, { nonce: 0 }) });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; code: string };
      expect(body.code).toBe('nonce_already_used');
      expect(body.error.startsWith(message)).toBe(true);
    }
    expect((await client(wallet).createApiKey(2)).key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lets an address hold at most 100 keys at once; deleting one makes room', async () => {
    const wallet = newWallet();
    const address = wallet.address.toLowerCase();
    const db = new Client({ connectionString: gw.env.DATABASE_URL });
    await db.connect();
    try {
      // 99 keys stored as the gateway stores them (the bytes are never read here), then the 100th by L1.
      await db.query(
        `INSERT INTO api_keys (api_key, address, nonce, secret_encrypted, passphrase_encrypted)
         SELECT gen_random_uuid(), $1, n::text, '\\x00', '\\x00' FROM generate_series(1, 99) AS n`,
        [address],
      );
      const hundredth = asCredentials(await client(wallet).createApiKey(100));
      for (const [method, route, message] of [
        ['POST', '/auth/api-key', 'Could not create api key:'],
        ['GET', '/auth/derive-api-key', 'Could not derive api key!'],
      ] as const) {
        const refused = await fetch(gw.clob + route, { method, headers: await l1Headers(wallet, { nonce: 101 }) });
        expect({ status: refused.status, body: await refused.json() }).toEqual({
          status: 400,
          body: { error: `${message} this address holds 100 API keys, the most it may; delete one (DELETE /auth/api-key) first`, code: 'too_many_api_keys' },
        });
      }
      // A key it holds is still answered; after a delete, a new one is made.
      expect(await client(wallet).deriveApiKey(100)).toEqual({ key: hundredth.apiKey, secret: hundredth.secret, passphrase: hundredth.passphrase });
      expect(await client(wallet, hundredth).deleteApiKey()).toBe('OK');
      expect((await client(wallet).createApiKey(101)).key).toMatch(/^[0-9a-f-]{36}$/);
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE address = $1 AND revoked_at IS NULL', [address]);
      expect(rows[0]!.n).toBe(100);
    } finally {
      await db.end();
    }
  });

  it('keeps secrets and passphrases encrypted at rest', async () => {
    const wallet = newWallet();
    const creds = await client(wallet).createApiKey(0);
    const db = new Client({ connectionString: gw.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT * FROM api_keys WHERE api_key = $1', [creds.key]);
      expect(rows).toHaveLength(1);
      const row = rows[0] as Record<string, unknown>;
      expect(row.address).toBe(wallet.address.toLowerCase());
      expect(row.nonce).toBe('0');
      expect(row.revoked_at).toBeNull();
      const secret = row.secret_encrypted as Buffer;
      const passphrase = row.passphrase_encrypted as Buffer;
      expect(secret.length).toBe(12 + creds.secret.length + 16);
      expect(passphrase.length).toBe(12 + creds.passphrase.length + 16);
      const stored = Buffer.concat([secret, passphrase]).toString('latin1');
      expect(stored).not.toContain(creds.secret);
      expect(stored).not.toContain(creds.passphrase);
      expect(stored).not.toContain(creds.passphrase.slice(0, 16));
    } finally {
      await db.end();
    }
  });

  it('answers invalid JSON on an auth route with 400 invalid_json', async () => {
    const response = await fetch(`${gw.clob}/auth/api-key`, {
      method: 'POST',
      headers: { ...(await l1Headers(newWallet())), 'content-type': 'application/json' },
      body: '{"broken":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'request body is not valid JSON', code: 'invalid_json' });
  });

  it('serves the key routes on the CLOB and combined surfaces only', async () => {
    const headers = await l1Headers(newWallet());
    for (const port of [gw.gateway.ports.catalog, gw.gateway.ports.data]) {
      const response = await fetch(`http://127.0.0.1:${port}/auth/api-key`, { method: 'POST', headers });
      expect(response.status).toBe(404);
    }
  });
});
