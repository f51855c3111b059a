import { Pool } from 'pg';
import { toChecksumAddress } from '@exchange/chain';
import { formatUnits } from '@exchange/contracts';
import { until } from '@exchange/testing';
import { json } from '../src/http';
import { expectLedgerBalanced, units as u } from '../src/ledger';
import { startStack, type Stack } from '../src/stack';
import { Trader } from '../src/trader';

/**
 * Two fresh wallets trade through the gateway over HTTP; every balance, fee and state is checked
 * against figures computed by hand, and the ledger audit must balance after each money move.
 */
describe('trading between two wallets through the gateway', () => {
  let stack: Stack;
  let alice: Trader;
  let bob: Trader;
  let conditionId: string;
  let marketId: string;
  let yes: string;
  let no: string;

  const expectBalanced = () => expectLedgerBalanced(stack);
  const balance = async (trader: Trader, token?: string) => {
    const query = token ? `?asset_type=CONDITIONAL&token_id=${token}` : '?asset_type=COLLATERAL';
    const response = await trader.request('GET', `/balance-allowance${query}`);
    expect(response.status).toBe(200);
    return response.body.balance as string;
  };
  /** What the account holds and what its open orders reserve of it (the operator's view). */
  const account = async (trader: Trader) => json(await stack.admin('GET', `/admin/accounts/${trader.address.toLowerCase()}`));

  beforeAll(async () => {
    stack = await startStack();
    const created = await stack.admin('POST', '/admin/events', {
      title: 'Will it rain in Lisbon on Friday?',
      slug: 'rain-lisbon-friday',
      description: 'Resolves Yes if it rains.',
      endDate: '2027-06-30T00:00:00Z',
      tags: ['Weather'],
      markets: [
        {
          question: 'Will it rain in Lisbon on Friday?',
          slug: 'rain-lisbon-friday-yes',
          outcomes: ['Yes', 'No'],
          tickSize: '0.01',
          minOrderSize: '5',
          negRisk: false,
          feeSchedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0.25 },
        },
      ],
    });
    expect(created.status).toBe(201);
    const market = (await json(created)).markets[0];
    conditionId = market.conditionId;
    marketId = market.id;
    [yes, no] = JSON.parse(market.clobTokenIds);
    alice = new Trader(stack.base);
    bob = new Trader(stack.base);
    await alice.deriveCredentials();
    await bob.deriveCredentials();
    // The engine learns of the market from the catalog's stream.
    await until(
      async () => ((await alice.request('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${yes}`)).status === 200 ? true : undefined),
      20_000,
      'the engine knows the market',
    );
  });
  // Every test moves money or could: collateral and shares are conserved after each.
  afterEach(() => expectBalanced());
  afterAll(() => stack?.stop());

  it('derives the same credentials again for the same wallet and nonce', async () => {
    const first = alice.credentials;
    expect(await alice.deriveCredentials()).toEqual(first);
  });

  it('funds, rests, crosses, and settles to the unit', async () => {
    expect((await stack.admin('POST', '/admin/deposits', { address: alice.address, amount: '100' })).status).toBe(200);
    expect((await stack.admin('POST', '/admin/deposits', { address: bob.address, amount: '100' })).status).toBe(200);
    expect((await alice.request('POST', '/split', { conditionId, amount: '50' })).status).toBe(200);
    await expectBalanced();

    const ask = await alice.request('POST', '/order', await alice.order({ tokenId: yes, side: 'SELL', shares: u('10'), collateral: u('6') }));
    expect(ask).toMatchObject({ status: 200, body: { success: true, status: 'live', errorMsg: '' } });
    expect(ask.body.orderID).toMatch(/^0x[0-9a-f]{64}$/);

    const bid = await bob.request('POST', '/order', await bob.order({ tokenId: yes, side: 'BUY', shares: u('10'), collateral: u('6.5') }));
    // 10 shares at the maker's 0.60, plus a taker fee of 10 × 0.04 × 0.6 × 0.4 = 0.096.
    expect(bid).toMatchObject({ status: 200, body: { success: true, status: 'matched', makingAmount: '6.096', takingAmount: '10' } });
    expect(Object.keys(bid.body).sort()).toEqual(
      ['success', 'errorMsg', 'orderID', 'takingAmount', 'makingAmount', 'status', 'orderHash', 'code', 'retry_after_seconds', 'transactionsHashes', 'tradeIDs'].sort(),
    );
    await expectBalanced();

    expect(await balance(bob)).toBe('93904000');
    expect(await balance(bob, yes)).toBe('10000000');
    // Alice: 50 left after the split, 6 from the sale, and a 25% rebate of the fee (0.024).
    expect(await balance(alice)).toBe('56024000');
    expect(await balance(alice, yes)).toBe('40000000');
    expect(await balance(alice, no)).toBe('50000000');

    const aliceOrder = await alice.request('GET', `/data/order/${ask.body.orderID}`);
    expect(aliceOrder.body).toMatchObject({ status: 'MATCHED', original_size: '10', size_matched: '10', price: '0.6', side: 'SELL', outcome: 'Yes', market: conditionId });
    const bobOrder = await bob.request('GET', `/data/order/${bid.body.orderID}`);
    expect(bobOrder.body).toMatchObject({ status: 'MATCHED', size_matched: '10', price: '0.65' });
    expect((await alice.request('GET', `/data/order/${bid.body.orderID}`)).status).toBe(404);

    // Upstream's V1 orders: none here, paged as the other lists; the end cursor asks for no page.
    expect(await bob.request('GET', '/data/pre-migration-orders')).toEqual({ status: 200, body: { data: [], next_cursor: 'LTE=', limit: 100, count: 0 } });
    expect(await bob.request('GET', '/data/pre-migration-orders?next_cursor=LTE=')).toMatchObject({ status: 400, body: { code: 'invalid_request' } });

    const bobTrades = await bob.request('GET', '/data/trades');
    expect(bobTrades.body).toMatchObject({ count: 1, next_cursor: 'LTE=' });
    expect(bobTrades.body.data[0]).toMatchObject({
      side: 'BUY',
      size: '10',
      price: '0.6',
      status: 'MATCHED',
      trader_side: 'TAKER',
      fee_rate_bps: '400',
      taker_order_id: bid.body.orderID,
      transaction_hash: bid.body.transactionsHashes[0],
      // The maker paid no fee (a taker-only schedule): its entry says 0, not the taker's 400.
      maker_orders: [{ order_id: ask.body.orderID, matched_amount: '10', price: '0.6', side: 'SELL', outcome: 'Yes', fee_rate_bps: '0' }],
    });
    const aliceTrades = await alice.request('GET', `/data/trades?market=${conditionId}`);
    expect(aliceTrades.body.data.map((t: { trader_side: string }) => t.trader_side)).toEqual(['MAKER']);
    expect((await alice.request('GET', '/data/trades?before=1')).body.data).toEqual([]);
    // A filter in another spelling is refused, not dropped (it answered every trade); one given twice says so.
    for (const path of [`/data/trades?market[]=${conditionId}`, `/data/orders?market[0]=${conditionId}`]) {
      expect(await alice.request('GET', path)).toEqual({ status: 400, body: { error: expect.stringMatching(/^Unrecognized key/), code: 'invalid_request' } });
    }
    expect(await alice.request('GET', `/data/orders?market=${conditionId}&market=${conditionId}`)).toEqual({
      status: 400,
      body: { error: 'market must be given once', code: 'invalid_request' },
    });
  });

  it('sorts events by the volume trading gave their markets (the catalog reads it from market-data)', async () => {
    const quiet = await stack.admin('POST', '/admin/events', {
      title: 'Will it snow in Lisbon on Friday?',
      slug: 'snow-lisbon-friday',
      description: 'Resolves Yes if it snows.',
      endDate: '2027-06-30T00:00:00Z',
      markets: [{ question: 'Will it snow in Lisbon on Friday?', slug: 'snow-lisbon-friday-yes', outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5' }],
    });
    expect(quiet.status).toBe(201);
    const quietId = (await json(quiet)).id;
    const rainId = (await json(await fetch(`${stack.base}/markets/${marketId}`))).events[0].id;
    // Ties go by id (the rain event's is lower): only a volume read from trading puts the quiet one first.
    const ascending = async () => (await json(await fetch(`${stack.base}/events?order=volume&ascending=true`))).map((e: { id: string }) => e.id);
    expect(await until(async () => ((await ascending()).join() === [quietId, rainId].join() ? true : undefined), 20_000)).toBe(true);
  });

  it('takes an unused metadata and builder written as "" (upstream API example) as the zero hash the order was signed with', async () => {
    const order = await bob.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('0.05') });
    const sent = { ...order, order: { ...order.order, metadata: '', builder: '' } };
    const placed = await bob.request('POST', '/order', sent);
    expect(placed).toMatchObject({ status: 200, body: { success: true, status: 'live' } });
    expect(await bob.request('DELETE', '/order', { orderID: placed.body.orderID })).toEqual({ status: 200, body: { canceled: [placed.body.orderID], not_canceled: {} } });
  });

  it('applies a split or merge sent again under its reference once (a retry after a lost answer)', async () => {
    const before = BigInt(await balance(bob));
    const first = await bob.request('POST', '/split', { conditionId, amount: '2', reference: 'bob-split-7' });
    expect(first).toMatchObject({ status: 200, body: { reference: 'bob-split-7', replayed: false } });
    expect(await bob.request('POST', '/split', { conditionId, amount: '2', reference: 'bob-split-7' })).toEqual({ status: 200, body: { ...first.body, replayed: true } });
    expect(await bob.request('POST', '/split', { conditionId, amount: '3', reference: 'bob-split-7' })).toMatchObject({ status: 409, body: { code: 'conflict' } });
    expect(await bob.request('POST', '/split', { conditionId, amount: '2', reference: 'has space' })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(BigInt(await balance(bob))).toBe(before - u('2'));
    expect(await bob.request('POST', '/merge', { conditionId, amount: '2', reference: 'bob-merge-7' })).toMatchObject({ status: 200, body: { replayed: false } });
    expect(await bob.request('POST', '/merge', { conditionId, amount: '2', reference: 'bob-merge-7' })).toMatchObject({ status: 200, body: { replayed: true } });
    expect(BigInt(await balance(bob))).toBe(before);
    await expectBalanced();
  });

  it('ends a GTD order 60 s before the expiration it states, and refuses expirations it could not keep', async () => {
    const now = Math.floor(Date.now() / 1000);
    const gtd = (expiration: number) => bob.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('0.5'), orderType: 'GTD', expiration });
    for (const expiration of [now + 60, now - 1]) {
      expect(await bob.request('POST', '/order', await gtd(expiration))).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_EXPIRATION', errorMsg: 'invalid expiration' } });
    }
    // Past year 9999 (here past bigint): such an order once failed order-matching's whole journal batch.
    const huge = await gtd(now + 600);
    huge.order.expiration = '99999999999999999999';
    expect(await bob.request('POST', '/order', huge)).toMatchObject({ status: 400, body: { code: 'INVALID_ORDER_EXPIRATION' } });

    const before = await account(bob);
    const placed = await bob.request('POST', '/order', await gtd(now + 62));
    expect(placed.body).toMatchObject({ success: true, status: 'live' });
    let order = (await bob.request('GET', `/data/order/${placed.body.orderID}`)).body;
    for (let i = 0; i < 60 && order.status === 'LIVE'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      order = (await bob.request('GET', `/data/order/${placed.body.orderID}`)).body;
    }
    expect(order).toMatchObject({ status: 'CANCELED', expiration: String(now + 62), order_type: 'GTD' });
    expect(Date.now()).toBeLessThan((now + 62) * 1000);
    expect(await account(bob)).toEqual(before);
    await expectBalanced();
  });

  it('lets any key of an address cancel its orders, by an id in either case', async () => {
    const before = await account(bob);
    const first = await bob.request('POST', '/order', await bob.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('0.5') }));
    const second = await bob.request('POST', '/order', await bob.order({ tokenId: no, side: 'BUY', shares: u('5'), collateral: u('0.5') }));
    expect([first.body.status, second.body.status]).toEqual(['live', 'live']);
    const upper = `0x${first.body.orderID.slice(2).toUpperCase()}`;
    await bob.deriveCredentials(1);
    try {
      expect((await bob.request('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id)).toEqual([first.body.orderID, second.body.orderID]);
      expect((await alice.request('DELETE', '/order', { orderID: upper })).body).toEqual({ canceled: [], not_canceled: { [first.body.orderID]: "order can't be found - already canceled or matched" } });
      expect((await bob.request('DELETE', '/order', { orderID: upper })).body).toEqual({ canceled: [first.body.orderID], not_canceled: {} });
      // The message names the client's field (it named the engine's `orderIds.0`).
      for (const body of [{ orderID: 'nope' }, {}]) {
        const refused = await bob.request('DELETE', '/order', body);
        expect(refused).toEqual({ status: 400, body: { error: expect.stringMatching(/^orderID: /), code: 'invalid_request' } });
      }
      // A body (filters meant for /cancel-market-orders, say) is refused, cancelling nothing; before, everything.
      for (const [body, error] of [
        [{ market: conditionId }, expect.stringContaining('cancel-all takes no body')],
        [[], 'the body must be a JSON object'],
        ['x', 'the body must be a JSON object'],
      ] as const) {
        expect(await bob.request('DELETE', '/cancel-all', body)).toEqual({ status: 400, body: { error, code: 'invalid_request' } });
      }
      expect((await bob.request('DELETE', '/cancel-all', {})).body).toEqual({ canceled: [second.body.orderID], not_canceled: {} });
    } finally {
      await bob.deriveCredentials(0);
    }
    expect(await account(bob)).toEqual(before);
    await expectBalanced();
  });

  it('cancels the orders of one token or one market, and refuses a body it cannot read as filters', async () => {
    const before = await account(bob);
    const place = async (tokenId: string) =>
      (await bob.request('POST', '/order', await bob.order({ tokenId, side: 'BUY', shares: u('5'), collateral: u('0.5') }))).body.orderID as string;
    const [onYes, onNo] = [await place(yes), await place(no)];
    const open = async () => (await bob.request('GET', '/data/orders')).body.data.map((o: { id: string }) => o.id);
    // Before, each of these cancelled every order of the account: no readable filter meant no filter.
    for (const body of [[], 'x', 1, true, [{ market: conditionId }], { condition_id: conditionId }, { token_id: yes }]) {
      const refused = await bob.request('DELETE', '/cancel-market-orders', body);
      expect({ body, status: refused.status, code: refused.body.code }).toEqual({ body, status: 400, code: 'invalid_request' });
    }
    expect(await open()).toEqual([onYes, onNo]);
    expect((await bob.request('DELETE', '/cancel-market-orders', { market: conditionId, asset_id: yes })).body).toEqual({ canceled: [onYes], not_canceled: {} });
    expect((await bob.request('DELETE', '/cancel-market-orders', { market: conditionId })).body).toEqual({ canceled: [onNo], not_canceled: {} });
    expect(await open()).toEqual([]);
    expect(await account(bob)).toEqual(before);
    // A heartbeat whose body is not an object neither starts nor replaces a cancel-on-disconnect session.
    expect((await bob.request('POST', '/v1/heartbeats', 'x')).status).toBe(400);
    // Upstream's legacy spelling beats the key's session by no id (here it starts one), answering its status;
    // a wallet of its own, as the session ends the account's orders when the beats stop.
    const beating = new Trader(stack.base);
    await beating.deriveCredentials();
    expect(await beating.request('POST', '/heartbeats')).toEqual({ status: 200, body: { status: 'ok' } });
    // A wrong id is told the right one, in the text and as a field.
    const wrong = await beating.request('POST', '/v1/heartbeats', { heartbeat_id: 'x' });
    expect(wrong).toEqual({ status: 400, body: { error: `Invalid heartbeat id; the current id is ${wrong.body.heartbeat_id}`, code: 'invalid_request', heartbeat_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect((await beating.request('POST', '/v1/heartbeats', { heartbeat_id: wrong.body.heartbeat_id })).status).toBe(200);
    // Deleting the key ends its session without cancelling: nothing could beat it any more, and it used to
    // cancel the account's orders 15 s later, the next key's session beating or not.
    const sessions = async () => {
      const pool = new Pool({ connectionString: stack.databaseUrl('order-matching') });
      try {
        return (await pool.query('SELECT 1 FROM heartbeat_sessions WHERE address = $1', [beating.address.toLowerCase()])).rowCount;
      } finally {
        await pool.end();
      }
    };
    expect(await sessions()).toBe(1);
    expect((await beating.request('DELETE', '/auth/api-key')).status).toBe(200);
    expect(await sessions()).toBe(0);
    await expectBalanced();
  });

  /** A fresh wallet with credentials and `amount` of collateral. */
  const funded = async (amount: string) => {
    const trader = new Trader(stack.base);
    await trader.deriveCredentials();
    const deposited = await stack.admin('POST', '/admin/deposits', { address: trader.address, amount });
    expect({ status: deposited.status, body: await json(deposited) }).toMatchObject({ status: 200, body: { collateral: { available: amount, reserved: '0' } } });
    return trader;
  };

  it('places a batch of exactly 15 orders (the most POST /orders takes), one result each in the order given', async () => {
    const erin = await funded('20');
    // BUYs of 5 YES at 0.01 to 0.15: nothing rests on the ask side, so all 15 rest.
    const orders = await Promise.all(
      Array.from({ length: 15 }, (_, i) => erin.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('5') * BigInt(i + 1) / 100n })),
    );
    const placed = await erin.request('POST', '/orders', orders);
    expect(placed.status).toBe(200);
    expect(placed.body).toHaveLength(15);
    expect(placed.body.map((r: { success: boolean; status: string; errorMsg: string }) => [r.success, r.status, r.errorMsg])).toEqual(orders.map(() => [true, 'live', '']));
    const ids: string[] = placed.body.map((r: { orderID: string }) => r.orderID);
    expect(new Set(ids).size).toBe(15);
    // Result i is order i: its price is the one signed in place i.
    for (const [i, id] of ids.entries()) {
      expect((await erin.request('GET', `/data/order/${id}`)).body).toMatchObject({ id, status: 'LIVE', price: formatUnits((i + 1) * 10_000), original_size: '5' });
    }
    // 5 × (0.01 + ... + 0.15) = 6.00 held for them.
    expect((await account(erin)).collateral).toEqual({ available: '14', reserved: '6' });
    expect(await erin.request('POST', '/orders', [])).toEqual({
      status: 400,
      body: { error: 'Invalid order payload: expected 1 to 15 orders, got none', code: 'invalid_request' },
    });
    const cancelled = await erin.request('DELETE', '/cancel-all', {});
    expect(cancelled.status).toBe(200);
    expect([...cancelled.body.canceled].sort()).toEqual([...ids].sort());
    expect((await account(erin)).collateral).toEqual({ available: '20', reserved: '0' });
  });

  it('takes only post-only orders and cancels in post-only mode, refusing the rest with post_only_mode and a retry time', async () => {
    const mia = await funded('20');
    const tom = await funded('10');
    expect(await mia.request('POST', '/split', { conditionId, amount: '10' })).toMatchObject({ status: 200 });
    const ask = await mia.request('POST', '/order', await mia.order({ tokenId: yes, side: 'SELL', shares: u('5'), collateral: u('3') }));
    expect(ask.body).toMatchObject({ success: true, status: 'live' });
    const tomBefore = await account(tom);

    const on = await stack.admin('POST', '/admin/post-only-mode', { enabled: true, retryAfterSeconds: 60 });
    expect({ status: on.status, body: await json(on) }).toEqual({ status: 200, body: { enabled: true, until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });
    try {
      // An order that would take the ask: refused whole, with the spec's error body and Retry-After.
      const crossing = await tom.send('POST', '/order', await tom.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('3') }));
      const refused = await json(crossing);
      expect(crossing.status).toBe(503);
      expect(refused).toMatchObject({
        success: false,
        error: 'post-only mode: only post-only orders and cancels are allowed',
        errorMsg: 'post-only mode: only post-only orders and cancels are allowed',
        code: 'post_only_mode',
        retry_after_seconds: expect.any(Number),
      });
      expect(Number.isInteger(refused.retry_after_seconds)).toBe(true);
      expect(refused.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(refused.retry_after_seconds).toBeLessThanOrEqual(60);
      expect(crossing.headers.get('retry-after')).toBe(String(refused.retry_after_seconds));
      // Not post-only, even resting, is refused; in a batch, in its own result.
      const batch = await tom.request('POST', '/orders', [await tom.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('1') })]);
      expect(batch.body).toEqual([expect.objectContaining({ success: false, code: 'post_only_mode', retry_after_seconds: expect.any(Number) })]);

      // A post-only order that rests is taken; one that would cross is refused as crossing.
      const resting = await tom.request('POST', '/order', await tom.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('2.5'), postOnly: true }));
      expect(resting).toMatchObject({ status: 200, body: { success: true, status: 'live', errorMsg: '' } });
      const crossingPostOnly = await tom.request('POST', '/order', await tom.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('3'), postOnly: true }));
      expect(crossingPostOnly).toMatchObject({
        status: 400,
        body: { success: false, code: 'INVALID_POST_ONLY_ORDER', errorMsg: 'invalid post-only order: order crosses book', error: 'invalid post-only order: order crosses book' },
      });
      expect((await account(tom)).collateral).toEqual({ available: '7.5', reserved: '2.5' });
      // Cancels are taken.
      expect(await tom.request('DELETE', '/order', { orderID: resting.body.orderID })).toEqual({ status: 200, body: { canceled: [resting.body.orderID], not_canceled: {} } });
      expect(await account(tom)).toEqual(tomBefore);
    } finally {
      const off = await stack.admin('POST', '/admin/post-only-mode', { enabled: false, retryAfterSeconds: 0 });
      expect({ status: off.status, body: await json(off) }).toEqual({ status: 200, body: { enabled: false, until: null } });
    }
    await expectBalanced();

    // Off again, the same crossing order trades: 5 at 0.60 and a taker fee of 5 × 0.04 × 0.6 × 0.4 = 0.048.
    const taken = await tom.request('POST', '/order', await tom.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('3') }));
    expect(taken).toMatchObject({ status: 200, body: { success: true, status: 'matched', makingAmount: '3.048', takingAmount: '5' } });
    expect(await balance(tom)).toBe(String(u('10') - u('3.048')));
    expect(await balance(tom, yes)).toBe(String(u('5')));
    // Mia: 10 left after the split, 3 from the sale and a quarter of the fee back (0.012).
    expect(await balance(mia)).toBe(String(u('13.012')));
    expect(await balance(mia, yes)).toBe(String(u('5')));
  });

  it('lists the trades after a time (GET /data/trades?after=, unix seconds, exclusive)', async () => {
    const [trade] = (await bob.request('GET', `/data/trades?market=${conditionId}`)).body.data;
    expect(trade).toBeDefined();
    const matchedMs = Date.parse(trade.match_time);
    expect(matchedMs).toBeGreaterThan(0);
    const [floor, ceil] = [Math.floor(matchedMs / 1000), Math.ceil(matchedMs / 1000)];
    const ids = async (query: string) => {
      const listed = await bob.request('GET', `/data/trades?${query}`);
      expect(listed.status).toBe(200);
      return listed.body.data.map((t: { id: string }) => t.id);
    };
    expect(await ids(`after=${floor - 1}`)).toEqual([trade.id]);
    expect(await ids(`after=${ceil}`)).toEqual([]);
    // Its own second is not after itself (whole seconds, as clients see them).
    expect(await ids(`after=${floor}`)).toEqual([]);
    expect(await ids(`after=${floor - 1}&before=${ceil + 1}`)).toEqual([trade.id]);
    expect(await ids(`after=${floor - 1}&before=${floor}`)).toEqual([]);
    expect(await ids(`after=${Math.floor(Date.now() / 1000) + 60}`)).toEqual([]);
    for (const after of ['-1', 'soon', '100000000000']) {
      expect(await bob.request('GET', `/data/trades?after=${after}`)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.stringContaining('after') } });
    }
  });

  it('cancels, merges, resolves, redeems and withdraws with the ledger balanced throughout', async () => {
    // Balances as the earlier tests left them: each figure below is derived from these.
    const [bobBefore, bobYes, aliceBefore, aliceYes, aliceNo] = (
      await Promise.all([balance(bob), balance(bob, yes), balance(alice), balance(alice, yes), balance(alice, no)])
    ).map(BigInt) as [bigint, bigint, bigint, bigint, bigint];
    expect((await account(bob)).collateral).toEqual({ available: formatUnits(Number(bobBefore)), reserved: '0' });
    const resting = await bob.request('POST', '/order', await bob.order({ tokenId: no, side: 'BUY', shares: u('10'), collateral: u('3') }));
    expect(resting.body.status).toBe('live');
    // Reserved: 3.00 for the shares. Not the 10 × 0.04 × 0.3 × 0.7 = 0.084 it could have owed as a taker:
    // resting, it is a maker, and makers pay no fee on this market's taker-only schedule.
    // The balance is the whole of it, the 3.00 its open order holds included, as upstream's.
    expect(BigInt(await balance(bob))).toBe(bobBefore);
    expect((await account(bob)).collateral).toEqual({ available: formatUnits(Number(bobBefore - u('3'))), reserved: '3' });
    const open = await bob.request('GET', '/data/orders');
    expect(open.body.data.map((o: { id: string }) => o.id)).toEqual([resting.body.orderID]);
    const cancel = await bob.request('DELETE', '/order', { orderID: resting.body.orderID });
    expect(cancel.body).toEqual({ canceled: [resting.body.orderID], not_canceled: {} });
    expect(BigInt(await balance(bob))).toBe(bobBefore);
    expect((await account(bob)).collateral).toEqual({ available: formatUnits(Number(bobBefore)), reserved: '0' });
    await expectBalanced();

    // Alice merges every pair she holds; one more is refused.
    const pairs = aliceYes < aliceNo ? aliceYes : aliceNo;
    expect(pairs).toBeGreaterThan(0n);
    expect(await alice.request('POST', '/merge', { conditionId, amount: formatUnits(Number(pairs)) })).toMatchObject({ status: 200, body: { replayed: false } });
    expect(BigInt(await balance(alice))).toBe(aliceBefore + pairs);
    expect(await alice.request('POST', '/merge', { conditionId, amount: '1' })).toEqual({
      status: 400,
      body: { error: 'not enough available shares of both outcomes', code: 'insufficient_balance' },
    });
    expect(BigInt(await balance(alice))).toBe(aliceBefore + pairs);
    await expectBalanced();

    const unknown = await stack.admin('POST', `/admin/markets/${conditionId}/resolve`, { winningOutcome: 'Maybe' });
    expect({ status: unknown.status, body: await json(unknown) }).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', error: "winningOutcome must be 0, 1 or an outcome's name in any case (Yes, No)" },
    });
    const listed = await stack.admin('POST', `/admin/markets/${conditionId}/resolve`, ['Yes']);
    expect({ status: listed.status, body: await json(listed) }).toEqual({ status: 400, body: { code: 'invalid_request', error: 'the body must be a JSON object' } });
    const resolved = await stack.admin('POST', `/admin/markets/${conditionId}/resolve`, { winningOutcome: 'Yes' });
    expect(await json(resolved)).toMatchObject({ conditionId, winningOutcome: 0 });
    // YES won: each YES share pays 1, each NO share nothing.
    expect((await bob.request('POST', '/redeem', { conditionId })).status).toBe(200);
    expect(BigInt(await balance(bob))).toBe(bobBefore + bobYes);
    expect(await balance(bob, yes)).toBe('0');
    expect((await alice.request('POST', '/redeem', { conditionId })).status).toBe(200);
    expect(BigInt(await balance(alice))).toBe(aliceBefore + pairs + (aliceYes - pairs));
    expect([await balance(alice, yes), await balance(alice, no)]).toEqual(['0', '0']);
    await expectBalanced();

    const late = await alice.request('POST', '/order', await alice.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('2.5') }));
    expect(late).toMatchObject({ status: 400, body: { success: false, code: 'MARKET_NOT_READY' } });

    // One market, one state: the catalog form learns of the resolution too (through the MATCHING stream),
    // and the event closes with its only market.
    const catalogForm = async () => {
      for (const until = Date.now() + 5_000; ; await new Promise((r) => setTimeout(r, 100))) {
        const [market, event] = await Promise.all([
          json(await fetch(`${stack.base}/markets/${marketId}`)),
          json(await fetch(`${stack.base}/events/slug/rain-lisbon-friday`)),
        ]);
        if ((market.closed && event.closed) || Date.now() > until) return { market, event };
      }
    };
    const { market, event } = await catalogForm();
    expect(market).toMatchObject({ id: marketId, conditionId, closed: true, active: true });
    expect(event).toMatchObject({ closed: true, active: true, markets: [expect.objectContaining({ conditionId, closed: true })] });
    const closedEvents = await json(await fetch(`${stack.base}/events?closed=true&slug=rain-lisbon-friday`));
    expect(closedEvents.map((e: { slug: string }) => e.slug)).toEqual(['rain-lisbon-friday']);

    const bobAll = bobBefore + bobYes;
    const tooMuch = await stack.admin('POST', '/admin/withdrawals', { address: bob.address, amount: formatUnits(Number(bobAll + 1n)) });
    expect({ status: tooMuch.status, body: await json(tooMuch) }).toEqual({ status: 400, body: { error: 'not enough available collateral', code: 'insufficient_balance' } });
    expect(BigInt(await balance(bob))).toBe(bobAll);
    const withdrawn = await stack.admin('POST', '/admin/withdrawals', { address: bob.address, amount: formatUnits(Number(bobAll)) });
    expect({ status: withdrawn.status, body: await json(withdrawn) }).toMatchObject({ status: 200, body: { replayed: false, collateral: { available: '0', reserved: '0' } } });
    expect(await balance(bob)).toBe('0');
    await expectBalanced();
  });

  it('binds a deposit wallet to one owner for good', async () => {
    const wallet = `0x${'7a'.repeat(20)}`;
    const bind = async (body: unknown) => {
      const response = await stack.admin('POST', '/admin/wallets', body);
      return { status: response.status, body: await json(response) };
    };
    const bound = await bind({ wallet, owner: bob.address });
    expect(bound).toEqual({ status: 200, body: { wallet: toChecksumAddress(wallet), owner: toChecksumAddress(bob.address) } });
    expect((await bind({ wallet: wallet.toUpperCase().replace('0X', '0x'), owner: bob.address.toLowerCase() })).status).toBe(200);
    expect(await bind({ wallet, owner: alice.address })).toMatchObject({ status: 409, body: { code: 'conflict' } });
    // One wallet per owner: upstream derives it from the owner, and clients name it by signature type only.
    expect(await bind({ wallet: `0x${'7b'.repeat(20)}`, owner: bob.address })).toMatchObject({ status: 409, body: { code: 'conflict' } });
    // The operator reads a binding by either address.
    for (const address of [wallet, bob.address]) {
      expect(await json(await stack.admin('GET', `/admin/wallets/${address}`))).toEqual({ wallet: toChecksumAddress(wallet), owner: toChecksumAddress(bob.address) });
    }
    const unbound = await stack.admin('GET', `/admin/wallets/0x${'7d'.repeat(20)}`);
    expect({ status: unbound.status, body: await json(unbound) }).toMatchObject({ status: 404, body: { code: 'wallet_not_found' } });
    const badWallet = await stack.admin('GET', '/admin/wallets/nope');
    expect({ status: badWallet.status, body: await json(badWallet) }).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
    const keyless = `0x${'7c'.repeat(20)}`;
    expect(await bind({ wallet: keyless, owner: keyless })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    // Alice has API keys: her address is her own account, not a contract wallet someone else's keys could take over.
    expect(await bind({ wallet: alice.address, owner: keyless })).toMatchObject({ status: 409, body: { error: expect.stringContaining('has API keys') } });
    expect(await bind({ wallet: '0x1234', owner: alice.address })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    // Named as its own owner, an address with keys is refused for that, not for its keys.
    expect(await bind({ wallet: alice.address, owner: alice.address.toLowerCase() })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', error: expect.stringContaining('its own owner') },
    });
  });

  it('applies a deposit or withdrawal sent again under its reference once', async () => {
    const carol = new Trader(stack.base);
    const deposit = { address: carol.address, amount: '20', reference: 'wire-2026-11-26-0001' };
    const first = await stack.admin('POST', '/admin/deposits', deposit);
    expect(await json(first)).toMatchObject({ reference: deposit.reference, replayed: false, collateral: { available: '20', reserved: '0' } });
    const again = await stack.admin('POST', '/admin/deposits', deposit);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ reference: deposit.reference, replayed: true, collateral: { available: '20' } });
    const other = await stack.admin('POST', '/admin/deposits', { ...deposit, amount: '21' });
    expect(other.status).toBe(409);
    expect(await json(other)).toEqual({ error: `reference ${deposit.reference} already names a deposit of 20 to ${carol.address.toLowerCase()}`, code: 'conflict' });
    const withdrawal = { address: carol.address, amount: '20', reference: deposit.reference };
    expect(await json(await stack.admin('POST', '/admin/withdrawals', withdrawal))).toMatchObject({ replayed: false, collateral: { available: '0' } });
    expect(await json(await stack.admin('POST', '/admin/withdrawals', withdrawal))).toMatchObject({ replayed: true, collateral: { available: '0' } });
    const spaced = await stack.admin('POST', '/admin/deposits', { ...deposit, reference: 'two words' });
    expect(spaced.status).toBe(400);
    expect(await json(spaced)).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('reference') });
    await expectBalanced();
  });

  it("shows the operator an account and the journal of money moves, newest first, with filters", async () => {
    const dave = new Trader(stack.base);
    for (const [route, amount, reference] of [
      ['deposits', '7.25', 'wire-dave-1'],
      ['deposits', '0.75', undefined],
      ['withdrawals', '3', 'payout-dave-1'],
    ] as const) {
      const moved = await stack.admin('POST', `/admin/${route}`, { address: dave.address, amount, reference });
      expect({ status: moved.status, body: await json(moved) }).toMatchObject({ status: 200, body: { replayed: false } });
    }

    const account = await stack.admin('GET', `/admin/accounts/${dave.address.toLowerCase()}`);
    expect(await json(account)).toEqual({ address: dave.address, collateral: { available: '5', reserved: '0' }, positions: [] });

    const moves = await json(await stack.admin('GET', `/admin/money-moves?address=${dave.address}`));
    expect(moves.map((m: { kind: string; amount: string; reference: string | null }) => [m.kind, m.amount, m.reference])).toEqual([
      ['withdrawal', '3', 'payout-dave-1'],
      ['deposit', '0.75', null],
      ['deposit', '7.25', 'wire-dave-1'],
    ]);
    expect(moves[2]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      kind: 'deposit',
      address: dave.address,
      condition_id: null,
      amount: '7.25',
      payout: '0',
      reference: 'wire-dave-1',
      transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const byReference = await json(await stack.admin('GET', '/admin/money-moves?kind=deposit&reference=wire-dave-1'));
    expect(byReference.map((m: { id: string }) => m.id)).toEqual([moves[2].id]);
    const page = await json(await stack.admin('GET', `/admin/money-moves?address=${dave.address}&limit=1&offset=1`));
    expect(page.map((m: { id: string }) => m.id)).toEqual([moves[1].id]);
    const splits = await json(await stack.admin('GET', `/admin/money-moves?kind=split&address=${alice.address}`));
    expect(splits).toEqual([expect.objectContaining({ kind: 'split', condition_id: conditionId, amount: '50' })]);

    for (const query of ['limit=0', 'limit=501', 'offset=-1', 'kind=gift', 'address=0x12', 'reference=two%20words']) {
      const refused = await stack.admin('GET', `/admin/money-moves?${query}`);
      expect(refused.status).toBe(400);
      expect(await json(refused)).toMatchObject({ code: 'invalid_request' });
    }
    const badAddress = await stack.admin('GET', '/admin/accounts/0x12');
    expect({ status: badAddress.status, body: await json(badAddress) }).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.any(String) } });
    const anonymous = await fetch(`${stack.base}/admin/money-moves`);
    expect({ status: anonymous.status, body: await json(anonymous) }).toMatchObject({ status: 401, body: { code: 'unauthorized', error: expect.any(String) } });
  });

  it('refuses unsigned, stale and malformed requests with 401 or 400 and the error body', async () => {
    const anonymous = await fetch(`${stack.base}/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(await json(anonymous)).toMatchObject({ code: 'unauthorized' });
    const tooMany = await bob.request('POST', '/orders', Array.from({ length: 16 }, () => ({})));
    expect(tooMany).toMatchObject({ status: 400, body: { error: 'Too many orders in payload: 16, max allowed: 15', code: 'invalid_request' } });
    const garbage = await bob.request('POST', '/order', { order: { side: 'SIDEWAYS' } });
    expect(garbage).toMatchObject({ status: 400, body: { success: false, errorMsg: expect.stringContaining('Invalid order payload') } });
    const forged = await bob.order({ tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('2.5') });
    forged.order.makerAmount = '2600000';
    expect(await bob.request('POST', '/order', forged)).toMatchObject({ status: 400, body: { errorMsg: 'invalid signature' } });
    expect(await bob.request('GET', '/data/trades?next_cursor=%%%')).toEqual({ status: 400, body: { error: 'next_cursor must be a cursor returned by a previous page (base64 offset)', code: 'invalid_request' } });
  });

  it('answers the balance refresh of upstream clients (GET /balance-allowance/update, PUT /balance-allowance) as the balance read', async () => {
    for (const query of ['?asset_type=COLLATERAL', `?asset_type=CONDITIONAL&token_id=${yes}`]) {
      const read = await bob.request('GET', `/balance-allowance${query}`);
      expect(read.status).toBe(200);
      expect(await bob.request('GET', `/balance-allowance/update${query}`)).toEqual(read);
      expect(await bob.request('PUT', `/balance-allowance${query}`)).toEqual(read);
    }
    expect(await bob.request('GET', '/balance-allowance/update?asset_type=GOLD')).toEqual({
      status: 400,
      body: { error: 'asset_type must be COLLATERAL or CONDITIONAL', code: 'invalid_request' },
    });
    const anonymous = await fetch(`${stack.base}/balance-allowance/update?asset_type=COLLATERAL`);
    expect({ status: anonymous.status, body: await json(anonymous) }).toMatchObject({ status: 401, body: { code: 'unauthorized', error: expect.any(String) } });
  });
});
