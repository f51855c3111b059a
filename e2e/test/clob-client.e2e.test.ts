import { ApiError, ClobClient, OrderType, Side, SignatureTypeV2, type ApiKeyCreds, type UserOrderV2 } from '@polymarket/clob-client-v2';
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { until } from '@exchange/testing';
import { json } from '../src/http';
import { expectLedgerBalanced } from '../src/ledger';
import { oneMarket } from '../src/markets';
import { startStack, type Stack } from '../src/stack';
import { Trader } from '../src/trader';

/** A change that crosses services (catalog, its stream, order-matching or market-data, the gateway) on a loaded machine. */
const PROPAGATION_MS = 20_000;

/** A stock `@polymarket/clob-client-v2` (from npm, unchanged) pointed at the gateway. */
describe('@polymarket/clob-client-v2 against the exchange', () => {
  let stack: Stack;
  let conditionId: string;
  let yes: string;
  let no: string;
  /** A wallet of its own that only reads: whether the engine knows a token yet. */
  let watcher: Trader;

  const wallet = () =>
    createWalletClient({ account: privateKeyToAccount(generatePrivateKey()), chain: polygon, transport: http('http://127.0.0.1:9') });

  async function tradingClient(host: string, deposit = '1000', signer = wallet(), options: { retryOnError?: boolean; throwOnError?: boolean } = {}) {
    const anonymous = new ClobClient({ host, chain: 137, signer });
    const creds = await anonymous.createOrDeriveApiKey();
    expect(creds.key).toMatch(/^[0-9a-f-]{36}$/);
    const deposited = await stack.admin('POST', '/admin/deposits', { address: signer.account.address, amount: deposit });
    expect({ status: deposited.status, body: await json(deposited) }).toMatchObject({ status: 200, body: { replayed: false, collateral: { available: deposit, reserved: '0' } } });
    return new ClobClient({ host, chain: 137, signer, creds, signatureType: SignatureTypeV2.EOA, throwOnError: true, ...options });
  }

  /**
   * The engine and market-data learn of a new market from the catalog's stream, each on its own: until
   * both know the token, a first order may race them (the client reads the tick size from market-data,
   * the engine takes the order). Waits for both through read routes, then posts once: a refusal is a failure.
   */
  async function postOnceKnown(client: ClobClient, order: UserOrderV2) {
    await until(
      async () => {
        const [tick, balance] = await Promise.all([
          fetch(`${stack.urls.clob}/tick-size?token_id=${order.tokenID}`),
          watcher.request('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${order.tokenID}`),
        ]);
        return tick.status === 200 && balance.status === 200 ? true : undefined;
      },
      PROPAGATION_MS,
      `market-data and the engine know token ${order.tokenID}`,
    );
    return client.createAndPostOrder(order, undefined, OrderType.GTC);
  }

  beforeAll(async () => {
    stack = await startStack();
    const created = await json(
      await stack.admin('POST', '/admin/events', {
        title: 'Client test',
        slug: 'client-test',
        description: '',
        endDate: '2027-06-30T00:00:00Z',
        markets: [
          {
            question: 'Client?',
            slug: 'client-test-market',
            outcomes: ['Yes', 'No'],
            tickSize: '0.01',
            minOrderSize: '5',
            negRisk: false,
            feeSchedule: { rate: 0.02, exponent: 1, takerOnly: true, rebateRate: 0 },
          },
        ],
      }),
    );
    conditionId = created.markets[0].conditionId;
    [yes, no] = JSON.parse(created.markets[0].clobTokenIds);
    watcher = new Trader(stack.base);
    await watcher.deriveCredentials();
  });
  // Each test trades, posts market orders or cancels: collateral and shares are conserved after each.
  afterEach(() => expectLedgerBalanced(stack));
  afterAll(() => stack?.stop());

  it('creates credentials, reads market settings, posts, crosses, reads trades and cancels', async () => {
    const host = stack.urls.clob;
    const maker = await tradingClient(host);
    const taker = await tradingClient(host);

    expect(await maker.getVersion()).toBe(2);
    expect(await maker.getTickSize(yes)).toBe('0.01');
    expect(await maker.getNegRisk(yes)).toBe(false);
    expect(await maker.getFeeRateBps(yes)).toBe(200);

    expect(await postOnceKnown(maker, { tokenID: yes, price: 0.6, size: 10, side: Side.BUY })).toMatchObject({ success: true, status: 'live' });

    // A BUY of NO at 0.40 meets the YES bid at 0.60: together they mint a pair.
    const crossing = await taker.createAndPostOrder({ tokenID: no, price: 0.4, size: 10, side: Side.BUY }, undefined, OrderType.GTC);
    expect(crossing).toMatchObject({ success: true, status: 'matched' });

    const trades = await taker.getTrades({ market: conditionId });
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ side: 'BUY', size: '10', asset_id: no, trader_side: 'TAKER', err_msg: '' });
    // The client's optional nanosecond time, the same moment as match_time.
    expect(BigInt(trades[0]!.match_time_nano!)).toBe(BigInt(Date.parse(trades[0]!.match_time)) * 1_000_000n);
    expect((await maker.getTrades())[0]).toMatchObject({ trader_side: 'MAKER' });

    const another = await maker.createAndPostOrder({ tokenID: yes, price: 0.55, size: 5, side: Side.BUY }, undefined, OrderType.GTC);
    expect((await maker.getOpenOrders()).map((o: { id: string }) => o.id)).toEqual([another.orderID]);
    expect(await maker.cancelOrder({ orderID: another.orderID })).toEqual({ canceled: [another.orderID], not_canceled: {} });
    expect(await maker.getOpenOrders()).toEqual([]);
    // Orders of upstream's V1 exchange: this one never ran it.
    expect(await maker.getPreMigrationOrders()).toEqual([]);
    const balance = await taker.getBalanceAllowance({ asset_type: 'CONDITIONAL' as never, token_id: no });
    expect(balance.balance).toBe('10000000');
    // What clients call before selling what a fill just bought: nothing to refresh here, the same answer.
    expect(await taker.updateBalanceAllowance({ asset_type: 'CONDITIONAL' as never, token_id: no })).toEqual(balance);

    // A market BUY spends its dollar amount: the client caps it at the price of the level that completes
    // $5 (0.55) and signs $5 for 5 / 0.55 shares; the better first level buys more shares than that.
    for (const price of [0.5, 0.55]) {
      expect(await maker.createAndPostOrder({ tokenID: yes, price, size: 5, side: Side.SELL }, undefined, OrderType.GTC)).toMatchObject({ status: 'live' });
    }
    await until(async () => ((await taker.getOrderBook(yes)).asks.length === 2 ? true : undefined), PROPAGATION_MS, 'two asks in the book');
    const market = await taker.createAndPostMarketOrder({ tokenID: yes, amount: 5, side: Side.BUY }, undefined, OrderType.FOK);
    // 5 at 0.50 and 4.54 at 0.55 for $4.997, plus fees of 0.025 and 4.54 × 0.02 × 0.55 × 0.45 = 0.02247.
    expect(market).toMatchObject({ success: true, status: 'matched', makingAmount: '5.04447', takingAmount: '9.54' });
  });

  it('answers what is owed to writes sent again with the same headers: retryOnError after a 503, a cancel-all twice in one second', async () => {
    const maker = await tradingClient(stack.urls.clob, '1000', wallet(), { retryOnError: true });
    const resting = await postOnceKnown(maker, { tokenID: yes, price: 0.3, size: 5, side: Side.BUY });

    // Post-only mode refuses a plain order with a 503, which the client sends again 30 ms later with the
    // same headers: the retry is answered as the first was, not with a replay's 401.
    expect((await stack.admin('POST', '/admin/post-only-mode', { enabled: true, retryAfterSeconds: 60 })).status).toBe(200);
    try {
      await expect(maker.createAndPostOrder({ tokenID: yes, price: 0.31, size: 5, side: Side.BUY }, undefined, OrderType.GTC)).rejects.toMatchObject({
        status: 503,
        data: { code: 'post_only_mode', retry_after_seconds: expect.any(Number) },
      });
    } finally {
      expect((await stack.admin('POST', '/admin/post-only-mode', { enabled: false, retryAfterSeconds: 0 })).status).toBe(200);
    }

    // A cancel-all, a quote, and a cancel-all again within one second (begun early in a second): the stock
    // client signs in whole seconds, so the same headers, and the second ends the quote, as meant, where it
    // was refused as a replay.
    await until(async () => (Date.now() % 1_000 < 100 ? true : undefined), 2_000, 'the start of a second');
    expect(await maker.cancelAll()).toEqual({ canceled: [resting.orderID], not_canceled: {} });
    const quote = await maker.createAndPostOrder({ tokenID: yes, price: 0.3, size: 5, side: Side.BUY }, undefined, OrderType.GTC);
    expect(await maker.cancelAll()).toEqual({ canceled: [quote.orderID], not_canceled: {} });
    expect(await maker.getOpenOrders()).toEqual([]);
  });

  it('refuses a V1 order with order_version_mismatch, after which the client reads /version again and posts it as V2', async () => {
    /** What the client holds of `/version` (read once, then cached): a client started against upstream before its V2 cutover. */
    const heldVersion = (client: ClobClient) => client as unknown as { cachedVersion?: number };
    const strict = await tradingClient(stack.urls.clob);
    heldVersion(strict).cachedVersion = 1;
    await expect(postOnceKnown(strict, { tokenID: yes, price: 0.2, size: 5, side: Side.BUY })).rejects.toMatchObject({
      status: 400,
      data: { error: expect.stringContaining('order_version_mismatch'), code: 'order_version_mismatch', success: false },
    });
    expect(heldVersion(strict).cachedVersion).toBe(2);

    // The default client (no throwOnError) posts the order again at once, as V2.
    const lenient = await tradingClient(stack.urls.clob, '1000', wallet(), { throwOnError: false });
    heldVersion(lenient).cachedVersion = 1;
    const placed = await lenient.createAndPostOrder({ tokenID: yes, price: 0.2, size: 5, side: Side.BUY }, undefined, OrderType.GTC);
    expect(placed).toMatchObject({ success: true, status: 'live' });
    expect(heldVersion(lenient).cachedVersion).toBe(2);
    expect(await lenient.cancelOrder({ orderID: placed.orderID })).toEqual({ canceled: [placed.orderID], not_canceled: {} });
  });

  it('posts limit and market orders of odd sizes on a 0.001 tick, amounts of five decimals', async () => {
    const {
      tokens: [fineYes, fineNo],
    } = await oneMarket(stack, 'client-fine-tick', { tickSize: '0.001', minOrderSize: '5' });
    const host = stack.urls.clob;
    const maker = await tradingClient(host);
    const taker = await tradingClient(host);
    expect(await maker.getTickSize(fineYes)).toBe('0.001');

    // 5.01 × 0.123 = 0.61623: refused as "a max accuracy of 4 decimals" until the eighteenth session.
    const resting = await postOnceKnown(maker, { tokenID: fineYes, price: 0.123, size: 5.01, side: Side.BUY });
    expect(resting).toMatchObject({ success: true, status: 'live', makingAmount: '0', takingAmount: '0' });
    // A NO bid at 0.543 is a YES ask at 0.457.
    expect(await maker.createAndPostOrder({ tokenID: fineNo, price: 0.543, size: 7.77, side: Side.BUY }, undefined, OrderType.GTC)).toMatchObject({
      success: true,
      status: 'live',
    });
    await until(async () => ((await taker.getOrderBook(fineYes)).asks.length === 1 ? true : undefined), PROPAGATION_MS, 'the NO bid as a YES ask');
    // $2 at 0.457: the client signs a taker amount of 2 / 0.457 = 4.37636 shares (five decimals); the
    // engine takes the whole hundredths of a share that $2 buys there, 4.37 for 1.99709, minting them.
    const bought = await taker.createAndPostMarketOrder({ tokenID: fineYes, amount: 2, side: Side.BUY }, undefined, OrderType.FOK);
    expect(bought).toMatchObject({ success: true, status: 'matched', makingAmount: '1.99709', takingAmount: '4.37' });
  });

  it('spends a whole balance on a market BUY above 0.50 (userUSDCBalance), and lists its trades by maker_address', async () => {
    const {
      tokens: [yesToken, noToken],
    } = await oneMarket(stack, 'client-whole-balance', { feeSchedule: { rate: 0.02, exponent: 1, takerOnly: true, rebateRate: 0 } });
    const host = stack.urls.clob;
    const maker = await tradingClient(host);
    const takerWallet = wallet();
    const taker = await tradingClient(host, '10', takerWallet);
    // A NO bid at 0.45 is a YES ask at 0.55.
    expect(await postOnceKnown(maker, { tokenID: noToken, price: 0.45, size: 20, side: Side.BUY })).toMatchObject({ success: true, status: 'live' });
    await until(async () => ((await taker.getOrderBook(yesToken)).asks.length === 1 ? true : undefined), PROPAGATION_MS, 'the NO bid as a YES ask');

    // The client fits $10 less the fee at 0.55 into the balance: $9.91, 18.01 shares for 9.9055 plus a
    // fee of 18.01 × 0.02 × 0.55 × 0.45 = 0.08915. Refused until the nineteenth session, when the fee was
    // held at 0.50 (0.09005) and the two came to 10.00005.
    const bought = await taker.createAndPostMarketOrder({ tokenID: yesToken, amount: 10, side: Side.BUY, userUSDCBalance: 10 }, undefined, OrderType.FOK);
    expect(bought).toMatchObject({ success: true, status: 'matched', makingAmount: '9.99465', takingAmount: '18.01' });
    expect((await taker.getBalanceAllowance({ asset_type: 'COLLATERAL' as never })).balance).toBe('5350');

    // The stock client's examples ask for their own trades by maker_address; it hid a taker's trades.
    const own = await taker.getTrades({ maker_address: takerWallet.account.address });
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ trader_side: 'TAKER', size: '18.01' });
    expect(await taker.getTrades({ maker_address: wallet().account.address })).toEqual([]);
  });

  it("trades by a market's tick size and fees as the operator changes them (PATCH /admin/markets/{id})", async () => {
    const {
      conditionId: changed,
      tokens: [yesToken, noToken],
    } = await oneMarket(stack, 'client-settings-change', { feeSchedule: { rate: 0.02, exponent: 1, takerOnly: true, rebateRate: 0 } });
    const host = stack.urls.clob;
    const maker = await tradingClient(host);
    const taker = await tradingClient(host);
    expect(await postOnceKnown(maker, { tokenID: yesToken, price: 0.5, size: 5, side: Side.BUY })).toMatchObject({ success: true, status: 'live' });

    const patched = await stack.admin('PATCH', `/admin/markets/${changed}`, {
      tickSize: '0.001',
      feeSchedule: { rate: 0.1, exponent: 1, takerOnly: true, rebateRate: 0 },
    });
    expect(patched.status).toBe(200);
    // The stock client keeps the tick sizes it read (upstream's clients hear of a change on a WebSocket):
    // a new one, once market-data serves the finer tick, reads it and places an order on it.
    const tickOf = async () => (await json(await fetch(`${host}/tick-size?token_id=${yesToken}`))).minimum_tick_size;
    await until(async () => ((await tickOf()) === 0.001 ? true : undefined), PROPAGATION_MS, 'market-data serves the finer tick');
    const fresh = await tradingClient(host);
    expect(await fresh.getTickSize(yesToken)).toBe('0.001');
    // The engine hears of the change on its own: until then, and only then, it refuses the finer price as breaking the tick.
    const finer = await until(
      () =>
        fresh.createAndPostOrder({ tokenID: yesToken, price: 0.505, size: 5, side: Side.BUY }, undefined, OrderType.GTC).catch((error: unknown) => {
          if (error instanceof ApiError && (error.data as { code?: string })?.code === 'INVALID_ORDER_MIN_TICK_SIZE') return undefined;
          throw error;
        }),
      PROPAGATION_MS,
      'the engine takes the finer tick',
    );
    expect(finer).toMatchObject({ success: true, status: 'live' });

    // A BUY of NO at 0.50 mints with both bids, the one placed before the change still resting: 5 at
    // 0.495 and 5 at 0.50 for 4.975, and the new rate's fees: 5 × 0.1 × 0.495 × 0.505 = 0.12499, held to 5%
    // of that fill's 2.475 (0.12375, upstream's maxFeeRateBps), and 5 × 0.1 × 0.25 = 0.125, 5% of 2.50.
    const crossing = await taker.createAndPostOrder({ tokenID: noToken, price: 0.5, size: 10, side: Side.BUY }, undefined, OrderType.GTC);
    expect(crossing).toMatchObject({ success: true, status: 'matched', makingAmount: '5.22375', takingAmount: '10' });
  });

  it('moves a market of 0.01 ticks to 0.001 once it trades above 0.96, as upstream', async () => {
    const {
      tokens: [yesToken, noToken],
    } = await oneMarket(stack, 'client-near-certain', {});
    const host = stack.urls.clob;
    const maker = await tradingClient(host);
    const taker = await tradingClient(host);
    expect(await postOnceKnown(maker, { tokenID: noToken, price: 0.03, size: 10, side: Side.BUY })).toMatchObject({ success: true, status: 'live' });
    expect(await taker.createAndPostOrder({ tokenID: yesToken, price: 0.97, size: 10, side: Side.BUY }, undefined, OrderType.GTC)).toMatchObject({
      status: 'matched',
    });
    const tickOf = async () => (await json(await fetch(`${host}/tick-size?token_id=${yesToken}`))).minimum_tick_size;
    expect(await until(async () => ((await tickOf()) === 0.001 ? true : undefined), PROPAGATION_MS, 'the finer tick after a trade above 0.96')).toBe(true);
  });

  it('tells which orders earn liquidity rewards (isOrderScoring, areOrdersScoring) by the rewards the operator set', async () => {
    const {
      conditionId: rewarded,
      tokens: [yesToken, noToken],
    } = await oneMarket(stack, 'client-scoring', {});
    const host = stack.urls.clob;
    const maker = await tradingClient(host);
    const other = await tradingClient(host);
    const rewards = { rates: [{ asset_address: '0x0000000000000000000000000000000000000c01', rewards_daily_rate: 10 }], min_size: 20, max_spread: 3 };
    expect((await stack.admin('PUT', `/admin/markets/${rewarded}/rewards`, rewards)).status).toBe(200);

    const placed = async (client: ClobClient, tokenID: string, price: number, size: number) =>
      (await postOnceKnown(client, { tokenID, price, size, side: Side.BUY }))!.orderID as string;
    const near = await placed(maker, yesToken, 0.48, 25);
    const far = await placed(maker, yesToken, 0.4, 25);
    const small = await placed(maker, yesToken, 0.47, 10);
    // NO bids are YES asks at 1 - p: the best is 0.51, so the YES midpoint is 0.495 and NO's 0.505.
    const noSide = await placed(maker, noToken, 0.49, 25);
    const others = await placed(other, noToken, 0.48, 25);
    await until(async () => ((await maker.getMidpoint(yesToken)).mid === '0.495' ? true : undefined), PROPAGATION_MS, 'the YES midpoint of the bids');

    // 1.5 cents from the midpoint with 25 shares scores; 9.5 cents, or 10 shares, does not; another
    // trader's order is not the caller's to ask about.
    expect(await maker.areOrdersScoring({ orderIds: [near, far, small, noSide, others] })).toEqual({
      [near]: true,
      [far]: false,
      [small]: false,
      [noSide]: true,
      [others]: false,
    });
    expect(await other.isOrderScoring({ order_id: others })).toEqual({ scoring: true });
    expect(await other.isOrderScoring({ order_id: near })).toEqual({ scoring: false });

    // An order that no longer rests does not score; nor does any once the operator ends the rewards.
    expect(await maker.cancelOrder({ orderID: near })).toEqual({ canceled: [near], not_canceled: {} });
    expect(await maker.isOrderScoring({ order_id: near })).toEqual({ scoring: false });
    expect((await stack.admin('PUT', `/admin/markets/${rewarded}/rewards`, { rates: [], min_size: 20, max_spread: 3 })).status).toBe(200);
    expect(await until(async () => ((await maker.isOrderScoring({ order_id: noSide })).scoring === false ? true : undefined), PROPAGATION_MS, 'rewards ended')).toBe(true);
  });

  // Runs last: it resolves the market.
  it("trades, reads, cancels and redeems a deposit wallet's account with its owner's keys (signature type 3)", async () => {
    const host = stack.urls.clob;
    const key = generatePrivateKey();
    const signer = createWalletClient({ account: privateKeyToAccount(key), chain: polygon, transport: http('http://127.0.0.1:9') });
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    // A trader's own address (it has API keys) is not a deposit wallet: bound, its owner would take it over.
    const keyHolder = createWalletClient({ account: privateKeyToAccount(generatePrivateKey()), chain: polygon, transport: http('http://127.0.0.1:9') });
    await new ClobClient({ host, chain: 137, signer: keyHolder }).createOrDeriveApiKey();
    const refused = await stack.admin('POST', '/admin/wallets', { wallet: keyHolder.account.address, owner: signer.account.address });
    expect({ status: refused.status, body: await json(refused) }).toMatchObject({ status: 409, body: { code: 'conflict', error: expect.stringContaining('has API keys') } });
    expect((await stack.admin('POST', '/admin/wallets', { wallet, owner: signer.account.address })).status).toBe(200);
    const deposited = await stack.admin('POST', '/admin/deposits', { address: wallet, amount: '100' });
    expect({ status: deposited.status, body: await json(deposited) }).toMatchObject({ status: 200, body: { collateral: { available: '100', reserved: '0' } } });
    const ownerClient = (creds: ApiKeyCreds, signatureType = SignatureTypeV2.POLY_1271) =>
      new ClobClient({ host, chain: 137, signer, creds, signatureType, funderAddress: wallet, throwOnError: true });
    const creds = await new ClobClient({ host, chain: 137, signer }).createOrDeriveApiKey();
    const owner = ownerClient(creds);
    const collateral = async (client: ClobClient) => (await client.getBalanceAllowance({ asset_type: 'COLLATERAL' as never })).balance;
    const audit = () => expectLedgerBalanced(stack);

    // The client sends its own signature type with the balance query: type 3 reads the wallet.
    expect(await collateral(owner)).toBe('100000000');
    expect(await collateral(ownerClient(creds, SignatureTypeV2.EOA))).toBe('0');

    const bid = await owner.createAndPostOrder({ tokenID: yes, price: 0.3, size: 10, side: Side.BUY }, undefined, OrderType.GTC);
    expect(bid).toMatchObject({ success: true, status: 'live' });
    const counterparty = await tradingClient(host);
    expect(await counterparty.createAndPostOrder({ tokenID: no, price: 0.7, size: 10, side: Side.BUY }, undefined, OrderType.GTC)).toMatchObject({ status: 'matched' });
    const [trade] = await owner.getTrades({ market: conditionId });
    expect(trade).toMatchObject({ trader_side: 'MAKER', maker_orders: [{ order_id: bid.orderID, maker_address: wallet, matched_amount: '10' }] });
    expect(await collateral(owner)).toBe('97000000');

    // A deleted key's resting order: the owner's next key lists and cancels it.
    const resting = await owner.createAndPostOrder({ tokenID: yes, price: 0.2, size: 10, side: Side.BUY }, undefined, OrderType.GTC);
    expect(resting).toMatchObject({ success: true, status: 'live' });
    await owner.deleteApiKey();
    const next = ownerClient(await new ClobClient({ host, chain: 137, signer }).createApiKey(1));
    expect((await next.getOpenOrders()).map((o: { id: string }) => o.id)).toEqual([resting.orderID]);
    expect(await next.cancelAll()).toEqual({ canceled: [resting.orderID], not_canceled: {} });

    // Money moves take the account's signature type in their body (the stock client has no such methods).
    const trader = new Trader(stack.base, key);
    trader.credentials = { apiKey: next.creds!.key, secret: next.creds!.secret, passphrase: next.creds!.passphrase };
    expect(await trader.request('POST', '/split', { conditionId, amount: '2', signatureType: 3 })).toMatchObject({
      status: 200,
      body: { address: wallet, collateral: { available: '95', reserved: '0' } },
    });
    expect(await trader.request('POST', '/split', { conditionId, amount: '2', signatureType: 2 })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(await trader.request('POST', '/merge', { conditionId, amount: '2', signatureType: 3 })).toMatchObject({ status: 200, body: { collateral: { available: '97' } } });
    await audit();
    expect((await stack.admin('POST', `/admin/markets/${conditionId}/resolve`, { winningOutcome: 'Yes' })).status).toBe(200);
    expect(await trader.request('POST', '/redeem', { conditionId })).toMatchObject({ status: 400, body: { code: 'nothing_to_redeem' } });
    expect(await trader.request('POST', '/redeem', { conditionId, signatureType: 3 })).toMatchObject({ status: 200, body: { collateral: { available: '107' } } });
    expect(await collateral(next)).toBe('107000000');
    await audit();
  });
});
