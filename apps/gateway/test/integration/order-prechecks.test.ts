import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { connect, JSONCodec } from 'nats';
import { privateKeyToAccount } from 'viem/accounts';
import { EXCHANGE_V2_CONTRACTS, orderV2Digest, type OrderV2 } from '@exchange/chain';
import { hotMetadataKeys, type Failure } from '@exchange/contracts';
import { databaseUnavailable, outcomeUnknown } from '@exchange/service-kit';
import { eventually, sleep } from '@exchange/testing';
import { l1Headers, l2Headers, newWallet, startAuthGateway, type AuthGateway, type Credentials, type TestWallet } from '../support/auth-harness';

const ZERO32 = `0x${'0'.repeat(64)}`;
const STANDARD_TOKEN = '1001';
const NEG_RISK_TOKEN = '2002';
const CLOSED_TOKEN = '3003';
const UNKNOWN_TOKEN = '4004';

/**
 * The gateway checks orders against the hot market metadata in Redis before they go to the engine.
 * No order-matching runs here: an order the gateway lets through finds nobody on NATS and is answered
 * 425 (engine restarting), so the status tells which orders were stopped at the edge.
 */
describe('order pre-checks on the hot market metadata', () => {
  let gw: AuthGateway;
  let redis: Redis;
  let wallet: TestWallet;
  let credentials: Credentials;

  const settings = (negRisk: boolean, acceptingOrders = true) => ({
    tick_size: '0.01',
    min_order_size: '5',
    neg_risk: String(negRisk),
    accepting_orders: String(acceptingOrders),
    fee_rate: '{}',
  });

  beforeAll(async () => {
    gw = await startAuthGateway('prechk', { RPC_TIMEOUT_MS: '1000' });
    redis = new Redis(gw.env.REDIS_URL);
    const prefix = gw.env.REDIS_KEY_PREFIX;
    await redis.hset(hotMetadataKeys.token(prefix, STANDARD_TOKEN), settings(false));
    await redis.hset(hotMetadataKeys.token(prefix, NEG_RISK_TOKEN), settings(true));
    await redis.hset(hotMetadataKeys.token(prefix, CLOSED_TOKEN), settings(false, false));
    wallet = newWallet();
    const derived = await fetch(`${gw.clob}/auth/derive-api-key`, { headers: await l1Headers(wallet) });
    credentials = (await derived.json()) as Credentials;
  });

  afterAll(async () => {
    await redis.quit();
    // Deletes the run's Redis keys, the hot metadata written here included.
    await gw.close();
  });

  /** The signed body of a GTC BUY of `shares` for `collateral` (base units), for `exchange`. */
  async function orderBody(tokenId: string, shares: number, collateral: number, exchange: 'standard' | 'negRisk' = 'standard') {
    const order: OrderV2 = {
      salt: randomBytes(6).readUIntBE(0, 6),
      maker: wallet.address,
      signer: wallet.address,
      tokenId,
      makerAmount: String(collateral),
      takerAmount: String(shares),
      side: 'BUY',
      signatureType: 0,
      timestamp: String(Date.now()),
      metadata: ZERO32,
      builder: ZERO32,
    };
    const digest = orderV2Digest(order, { chainId: 137, verifyingContract: EXCHANGE_V2_CONTRACTS[exchange] });
    const signature = await privateKeyToAccount(wallet.key).sign({ hash: `0x${Buffer.from(digest).toString('hex')}` });
    return { order: { ...order, expiration: '0', signature }, owner: credentials.apiKey, orderType: 'GTC' };
  }

  /** A request with its L2 headers, sent as many times as asked (a replay after the first). */
  async function send(path: '/order' | '/orders' | '/orders-scoring', payload: unknown, times = 1, method: 'POST' | 'DELETE' = 'POST') {
    const body = JSON.stringify(payload);
    const headers = { ...l2Headers(credentials, wallet.address, { method, path, body }), 'content-type': 'application/json' };
    const answers = [];
    for (let i = 0; i < times; i++) {
      const response = await fetch(`${gw.clob}${path}`, { method, headers, body });
      answers.push({ status: response.status, body: (await response.json()) as Record<string, unknown> });
    }
    return answers;
  }

  async function place(tokenId: string, shares: number, collateral: number, exchange: 'standard' | 'negRisk' = 'standard') {
    return (await send('/order', await orderBody(tokenId, shares, collateral, exchange)))[0]!;
  }

  it('refuses off-grid prices and sizes under the minimum with the engine texts, without asking the engine', async () => {
    const offGrid = await place(STANDARD_TOKEN, 10_000_000, 5_050_000);
    expect(offGrid).toMatchObject({
      status: 400,
      body: { success: false, code: 'INVALID_ORDER_MIN_TICK_SIZE', errorMsg: expect.stringMatching(/Price \(0\.505\) breaks minimum tick size rule: 0\.01$/) },
    });
    const small = await place(STANDARD_TOKEN, 4_000_000, 2_000_000);
    expect(small).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_MIN_SIZE', errorMsg: expect.stringMatching(/Size \(4\) lower than the minimum: 5$/) } });
    expect((await place(CLOSED_TOKEN, 10_000_000, 5_000_000)).body).toMatchObject({ code: 'MARKET_NOT_READY' });
  });

  it('refuses an order of the V1 exchange (nonce and fee, no timestamp) with order_version_mismatch, which the stock clients act on', async () => {
    const v2 = await orderBody(STANDARD_TOKEN, 10_000_000, 5_000_000);
    const { timestamp: _timestamp, metadata: _metadata, builder: _builder, ...common } = v2.order;
    const v1 = { ...v2, order: { ...common, nonce: '0', feeRateBps: '0', expiration: '0' } };
    const [refused] = await send('/order', v1);
    expect(refused).toMatchObject({ status: 400, body: { success: false, code: 'order_version_mismatch', error: expect.stringContaining('order_version_mismatch') } });
    // A V2 order carrying a stray nonce is judged as V2 (here: good, so on to the engine, which does not run).
    expect((await send('/order', { ...v2, order: { ...v2.order, nonce: '0' } }))[0]).toMatchObject({ status: 425 });
  });

  it("refuses an order signed for the other exchange than the market's", async () => {
    const wrong = await place(NEG_RISK_TOKEN, 10_000_000, 5_000_000, 'standard');
    expect(wrong).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_ERROR', errorMsg: expect.stringContaining("this market's exchange") } });
  });

  it('lets good orders through to the engine, and unknown tokens for the engine to judge', async () => {
    for (const [token, exchange] of [[STANDARD_TOKEN, 'standard'], [NEG_RISK_TOKEN, 'negRisk'], [UNKNOWN_TOKEN, 'standard']] as const) {
      const passed = await place(token, 10_000_000, 5_000_000, exchange);
      expect(passed).toMatchObject({ status: 425, body: { code: 'too_early', error: 'the matching engine is restarting or reconnecting; retry shortly' } });
    }
  });

  it('follows a tick size change in Redis', async () => {
    await redis.hset(hotMetadataKeys.token(gw.env.REDIS_KEY_PREFIX, STANDARD_TOKEN), { tick_size: '0.001' });
    // A price of 0.505 is off the old tick: refused until the change reaches the gateway's copy.
    await eventually(async () => (await place(STANDARD_TOKEN, 10_000_000, 5_050_000)).status === 425, 'the new tick size is used');
    expect((await place(STANDARD_TOKEN, 10_000_000, 5_050_000)).status).toBe(425);
  });

  /**
   * Runs `body` while a stand-in engine takes every engine request and answers none (the RPC timeout here
   * is 1 s), or answers each with `failure` as the Nest transport does; `received()` tells how many
   * requests it got.
   */
  async function withStandInEngine<T>(failure: Failure | undefined, body: (received: () => number) => Promise<T>): Promise<T> {
    const nc = await connect({ servers: gw.env.NATS_URL });
    const codec = JSONCodec<{ id: string }>();
    let count = 0;
    const standIn = nc.subscribe(`${gw.env.NATS_PREFIX}.matching.>`, {
      callback: (_, msg) => {
        count++;
        if (failure) msg.respond(codec.encode({ id: codec.decode(msg.data).id, response: failure, isDisposed: true } as { id: string }));
      },
    });
    await nc.flush();
    try {
      return await body(() => count);
    } finally {
      standIn.unsubscribe();
      await nc.close();
    }
  }
  const withSilentEngine = <T>(body: (received: () => number) => Promise<T>) => withStandInEngine(undefined, body);

  /** A failure as a replay of its request is answered: the same, its `error` saying that it answered the first sending. */
  const answeredAgain = (first: { status: number; body: Record<string, unknown> }) => ({
    ...first,
    body: { ...first.body, error: `${String(first.body.error)} (the answer to the first sending of this signed request; sign it again to retry)` },
  });

  it('answers a placement sent again with the same headers as its first failure, without asking the engine again', async () => {
    // Received by an engine that did not answer: "it may have been placed", to the replay too.
    const good = await orderBody(STANDARD_TOKEN, 10_000_000, 5_000_000);
    await withSilentEngine(async (received) => {
      const [unanswered, replayed] = await send('/order', good, 2);
      expect(unanswered).toMatchObject({ status: 503, body: { code: 'service_unavailable', error: expect.stringMatching(/may have been placed/) } });
      expect(replayed).toEqual(answeredAgain(unanswered!));
      const batch = [await orderBody(STANDARD_TOKEN, 10_000_000, 5_000_000), await orderBody(STANDARD_TOKEN, 4_000_000, 2_000_000)];
      const [batchUnanswered, batchReplayed] = await send('/orders', batch, 2);
      expect(batchUnanswered).toMatchObject({ status: 503 });
      expect(batchReplayed).toEqual(answeredAgain(batchUnanswered!));
      expect(received()).toBe(2);
    });
    // Nothing asked of an engine (none runs: 425; refused before leaving: 400): the same answer again.
    for (const payload of [await orderBody(STANDARD_TOKEN, 10_000_000, 5_000_000), await orderBody(STANDARD_TOKEN, 4_000_000, 2_000_000)]) {
      const [first, again] = await send('/order', payload, 2);
      expect(first!.status).toBeGreaterThanOrEqual(400);
      expect(again).toEqual(answeredAgain(first!));
    }
    const [malformed, malformedAgain] = await send('/orders', { not: 'a list' }, 2);
    expect(malformed).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(malformedAgain).toEqual(answeredAgain(malformed!));
  });

  it('refuses empty or malformed batches and cancel lists with texts about what the client sent', async () => {
    const refused = async (path: '/order' | '/orders' | '/orders-scoring', payload: unknown, method: 'POST' | 'DELETE') => {
      const [answer] = await send(path, payload, 1, method);
      expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      return answer!.body.error;
    };
    expect(await refused('/orders', [], 'POST')).toBe('Invalid order payload: expected 1 to 15 orders, got none');
    expect(await refused('/orders', {}, 'POST')).toBe('Invalid order payload: expected an array of orders');
    const id = `0x${'ab'.repeat(32)}`;
    // Before, these named the engine's field: "orderIds: Too small ...", "orderIds.1: order id must be ...".
    expect(await refused('/orders', [], 'DELETE')).toBe('expected a list of 1 to 1000 order ids');
    expect(await refused('/orders', [id, 'nope'], 'DELETE')).toBe('order id at index 1: order id must be 0x + 64 hex');
    expect(await refused('/orders', Array.from({ length: 1001 }, () => id), 'DELETE')).toBe('Too many order ids: 1001, max allowed: 1000');
    // A good list goes on to the engine (none runs here).
    expect((await send('/orders', [id], 1, 'DELETE'))[0]).toMatchObject({ status: 425 });
    // DELETE /order names its field; a misspelled one is missing, not malformed (it said "must be 0x + 64 hex").
    expect(await refused('/order', { orderId: id }, 'DELETE')).toBe('orderID: is required (an order id, 0x + 64 hex)');
    expect(await refused('/order', { orderID: 'nope' }, 'DELETE')).toBe('orderID: order id must be 0x + 64 hex');

    // Order scoring takes the same lists, and one id in a query.
    expect(await refused('/orders-scoring', [], 'POST')).toBe('expected a list of 1 to 1000 order ids');
    expect(await refused('/orders-scoring', [id, 7], 'POST')).toBe('order id at index 1: order id must be 0x + 64 hex');
    expect(await refused('/orders-scoring', Array.from({ length: 1001 }, () => id), 'POST')).toBe('Too many order ids: 1001, max allowed: 1000');
    expect((await send('/orders-scoring', Array.from({ length: 1000 }, () => id)))[0]).toMatchObject({ status: 425 });
    const scoring = async (query: string) => {
      const headers = l2Headers(credentials, wallet.address, { method: 'GET', path: '/order-scoring' });
      const response = await fetch(`${gw.clob}/order-scoring${query}`, { headers });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await scoring('')).toMatchObject({ status: 400, body: { code: 'invalid_request', error: 'order_id: give one order id' } });
    expect(await scoring('?order_id=0x12')).toMatchObject({ status: 400, body: { error: 'order_id: order id must be 0x + 64 hex' } });
    expect(await scoring(`?order_id=${id}`)).toMatchObject({ status: 425 });
  });

  it('lets the same signed beat of a session through twice (two beats of one second), but not a start, which replaces the session', async () => {
    const send = async (path: string, body?: string) => {
      const signed = l2Headers(credentials, wallet.address, { method: 'POST', path, body });
      const headers = body === undefined ? signed : { ...signed, 'content-type': 'application/json' };
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) statuses.push((await fetch(`${gw.clob}${path}`, { method: 'POST', headers, body })).status);
      return statuses;
    };
    await withSilentEngine(async (received) => {
      // Beats of a session reach the engine each time; a start's second sending is answered as its first was, without it.
      expect(await send('/v1/heartbeats', JSON.stringify({ heartbeat_id: '0b6c5f1e-6b1e-4a43-9d1e-2f5b8b7c9a10' }))).toEqual([503, 503]);
      expect(await send('/heartbeats')).toEqual([503, 503]);
      expect(received()).toBe(4);
      expect(await send('/v1/heartbeats', JSON.stringify({ heartbeat_id: '' }))).toEqual([503, 503]);
      expect(received()).toBe(5);
    });
  });

  it('takes the same cancel of a market or of everything again for 2 s after its first use, and a cancel by id once', async () => {
    const id = `0x${'ab'.repeat(32)}`;
    const cancel = async (path: string, body: unknown, times: number, pauseMs = 0) => {
      const text = JSON.stringify(body);
      const headers = { ...l2Headers(credentials, wallet.address, { method: 'DELETE', path, body: text }), 'content-type': 'application/json' };
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) {
        if (i === times - 1) await sleep(pauseMs);
        statuses.push((await fetch(`${gw.clob}${path}`, { method: 'DELETE', headers, body: text })).status);
      }
      return statuses;
    };
    // Each request the engine gets is unanswered (1 s); a replay is answered with the first one's 503.
    await withSilentEngine(async (received) => {
      expect(await cancel('/order', { orderID: id }, 2)).toEqual([503, 503]);
      expect(received()).toBe(1);
      // Within 2 s of the first use it reaches the engine again; after, it is answered as the first was.
      expect(await cancel('/cancel-all', {}, 3, 1_200)).toEqual([503, 503, 503]);
      expect(received()).toBe(3);
    });
  });

  it('answers /fee-rate from the hot metadata, and asks market-data when the hot value is not JSON (not a 500)', async () => {
    const prefix = gw.env.REDIS_KEY_PREFIX;
    const token = '777000111';
    await redis.hset(hotMetadataKeys.token(prefix, token), { ...settings(false), fee_rate: '{"base_fee":0}' });
    const hot = await fetch(`${gw.clob}/fee-rate?token_id=${token}`);
    expect({ status: hot.status, body: await hot.json() }).toEqual({ status: 200, body: { base_fee: 0 } });
    await redis.hset(hotMetadataKeys.token(prefix, token), { fee_rate: '{"base_fee":' });
    // No market-data runs here: forwarded, nobody answers.
    const unreadable = await fetch(`${gw.clob}/fee-rate?token_id=${token}`);
    expect({ status: unreadable.status, body: await unreadable.json() }).toMatchObject({ status: 503, body: { code: 'service_unavailable' } });
  });

  it('says that an order may have been placed when the engine received it but did not answer in time', async () => {
    const unanswered = await withSilentEngine(() => place(STANDARD_TOKEN, 10_000_000, 5_000_000));
    expect(unanswered).toMatchObject({ status: 503, body: { code: 'service_unavailable', retry_after_seconds: 1 } });
    expect(unanswered.body.error).toMatch(/may have been placed.*GET \/data\/order\/.*same signed order/);
  });

  it("says the same when the engine could not tell whether its journal write committed, and passes on its database's unavailability", async () => {
    const unknown = await withStandInEngine(outcomeUnknown('matching.orders.place.v1', 'could not tell whether its journal write committed'), () =>
      place(STANDARD_TOKEN, 10_000_000, 5_000_000),
    );
    expect(unknown).toMatchObject({ status: 503, body: { code: 'service_unavailable', retry_after_seconds: 1 } });
    expect(unknown.body.error).toMatch(/may have been placed/);
    // Refused before it ran: nothing was placed, and the client is told to retry (a probe restarting PostgreSQL).
    const refused = await withStandInEngine(databaseUnavailable(), () => place(STANDARD_TOKEN, 10_000_000, 5_000_000));
    expect(refused).toEqual({ status: 503, body: databaseUnavailable().body });
  });
});
