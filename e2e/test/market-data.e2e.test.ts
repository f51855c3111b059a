import { ClobClient } from '@polymarket/clob-client-v2';
import { MATCHING_STREAM } from '@exchange/contracts';
import { pgPool } from '@exchange/service-kit';
import { purgeStream, until } from '@exchange/testing';
import { getJson, json, type Json } from '../src/http';
import { expectLedgerBalanced, units as u } from '../src/ledger';
import { CLOB_MARKET, CLOB_MARKET_INFO, FEE_RATE, ORDER_BOOK, SAMPLING_MARKET, shapeErrors } from '../src/shapes';
import { startStack, type Stack } from '../src/stack';
import { Trader } from '../src/trader';

/** A change that crosses services (the engine's events, market-data's books, the gateway) on a loaded machine. */
const PROPAGATION_MS = 20_000;

/**
 * Market data over HTTP through the gateway: orders placed and cancelled through the trading API show
 * up in /book, /price, /midpoint and /spread (the NO book mirrored), trades in the last trade prices and
 * the price history; market settings on every route; bounds and bad input.
 */
describe('market data through the gateway', () => {
  let stack: Stack;
  let alice: Trader;
  let bob: Trader;
  let conditionId: string;
  let otherConditionId: string;
  let yes: string;
  let no: string;
  let client: ClobClient;

  const get = (path: string, base = stack.base) => getJson(base + path);
  const post = (path: string, body: unknown, base = stack.base) =>
    getJson(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const book = async (token: string) => (await get(`/book?token_id=${token}`)).body;
  /** The book of a token once it satisfies `ready` (books follow the engine's events asynchronously). */
  const bookWhen = (token: string, ready: (b: Json) => boolean) =>
    until(async () => {
      const b = await book(token);
      return ready(b) ? b : undefined;
    }, PROPAGATION_MS, `book of ${token}`);
  const levels = (b: Json, side: 'bids' | 'asks') => b[side].map((l: Json) => `${l.size}@${l.price}`).join(' ');
  const place = async (trader: Trader, o: Parameters<Trader['order']>[0]) => {
    const result = await trader.request('POST', '/order', await trader.order(o));
    expect([result.status, result.body.errorMsg]).toEqual([200, '']);
    return result.body.orderID as string;
  };

  beforeAll(async () => {
    stack = await startStack();
    const created = await stack.admin('POST', '/admin/events', {
      title: 'Will the bridge open in May?',
      slug: 'bridge-may',
      description: 'Resolves Yes if the bridge opens in May.',
      endDate: '2027-06-30T00:00:00Z',
      tags: ['Politics'],
      category: 'politics',
      markets: [
        {
          question: 'Will the bridge open in May?',
          slug: 'bridge-may-yes',
          tickSize: '0.01',
          minOrderSize: '5',
          feeSchedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0.25 },
        },
      ],
    });
    expect(created.status).toBe(201);
    // A neg-risk market is one of a neg-risk event: an event may not mix them (docs/catalog.md).
    const other = await stack.admin('POST', '/admin/events', {
      title: 'Which month will the bridge open?',
      slug: 'bridge-month',
      description: '',
      endDate: '2027-06-30T00:00:00Z',
      markets: [{ question: 'Will the bridge open in June?', slug: 'bridge-june-yes', tickSize: '0.001', minOrderSize: '10', negRisk: true }],
    });
    expect(other.status).toBe(201);
    const markets = (await json(created)).markets;
    conditionId = markets[0].conditionId;
    otherConditionId = (await json(other)).markets[0].conditionId;
    [yes, no] = JSON.parse(markets[0].clobTokenIds);
    alice = new Trader(stack.base);
    bob = new Trader(stack.base);
    await alice.deriveCredentials();
    await bob.deriveCredentials();
    client = new ClobClient({ host: stack.urls.clob, chain: 137 });
    await until(async () => ((await get(`/markets/${otherConditionId}`)).status === 200 ? true : undefined), PROPAGATION_MS, 'market-data knows the markets');
    await until(
      async () => ((await alice.request('GET', `/balance-allowance?asset_type=CONDITIONAL&token_id=${yes}`)).status === 200 ? true : undefined),
      PROPAGATION_MS,
      'the engine knows the market',
    );
    for (const trader of [alice, bob]) {
      const deposited = await stack.admin('POST', '/admin/deposits', { address: trader.address, amount: '100' });
      expect({ status: deposited.status, body: await json(deposited) }).toMatchObject({ status: 200, body: { collateral: { available: '100', reserved: '0' } } });
    }
    expect(await alice.request('POST', '/split', { conditionId, amount: '50' })).toMatchObject({ status: 200, body: { collateral: { available: '50', reserved: '0' } } });
    await expectLedgerBalanced(stack);
  });
  // Orders, trades and cancels move money: collateral and shares are conserved after each test.
  afterEach(() => expectLedgerBalanced(stack));
  afterAll(() => stack?.stop());

  it('serves the CLOB form of a market with every field of SPEC.md, on the CLOB and the combined port', async () => {
    for (const base of [stack.urls.clob, stack.base]) {
      const { status, body } = await get(`/markets/${conditionId}`, base);
      expect(status).toBe(200);
      expect(shapeErrors(body, CLOB_MARKET)).toEqual([]);
      expect(body).toMatchObject({
        condition_id: conditionId,
        question: 'Will the bridge open in May?',
        market_slug: 'bridge-may-yes',
        minimum_tick_size: 0.01,
        minimum_order_size: 5,
        taker_base_fee: 400,
        maker_base_fee: 0,
        neg_risk: false,
        accepting_orders: true,
        status: 'active',
        tags: ['politics'],
        event: { slug: 'bridge-may', title: 'Will the bridge open in May?' },
        rewards: { rates: [], min_size: 0, max_spread: 0 },
        tokens: [
          { token_id: yes, outcome: 'Yes', price: 0.5, winner: false },
          { token_id: no, outcome: 'No', price: 0.5, winner: false },
        ],
      });
    }
    // The catalog port keeps the catalog form; a stock client reads the CLOB form.
    expect((await get(`/markets/${conditionId}`, stack.urls.catalog)).body.conditionId).toBe(conditionId);
    expect((await client.getMarket(conditionId)).condition_id).toBe(conditionId);
    expect(await get(`/markets/0x${'ab'.repeat(32)}`, stack.urls.clob)).toMatchObject({ status: 404, body: { code: 'market_not_found' } });
  });

  it('pages /markets to the end with base64 offset cursors, and refuses bad cursors', async () => {
    const first = await get('/markets?limit=1', stack.urls.clob);
    expect(first).toMatchObject({ status: 200, body: { limit: 1, count: 1, next_cursor: 'MQ==' } });
    const second = await get(`/markets?limit=1&next_cursor=${first.body.next_cursor}`, stack.urls.clob);
    expect(second.body).toMatchObject({ count: 1, next_cursor: 'LTE=' });
    expect([...first.body.data, ...second.body.data].map((m: Json) => m.condition_id)).toEqual([conditionId, otherConditionId]);
    const all = await get('/markets?next_cursor=MA==');
    expect(all.body).toMatchObject({ limit: 500, count: 2, next_cursor: 'LTE=' });
    expect(shapeErrors(all.body.data, [CLOB_MARKET])).toEqual([]);
    expect((await client.getMarkets()).count).toBe(2);
    for (const cursor of ['LTE=', '%25%25', 'bm90LWFuLW9mZnNldA==']) {
      const bad = await get(`/markets?next_cursor=${cursor}`);
      expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.stringContaining('next_cursor') } });
    }
    expect(await get('/markets?limit=501')).toEqual({ status: 400, body: { error: 'limit must be <= 500', code: 'invalid_request' } });
    // The catalog surface has no market list.
    expect((await get('/markets', stack.urls.catalog)).status).toBe(404);
  });

  it('lists sampling markets: those accepting orders with rewards set by the operator', async () => {
    expect((await get('/sampling-markets')).body).toEqual({ data: [], next_cursor: 'LTE=', limit: 500, count: 0 });
    const rewards = { rates: [{ asset_address: '0x0000000000000000000000000000000000000c01', rewards_daily_rate: 10 }], min_size: 20, max_spread: 3 };
    const set = await stack.admin('PUT', `/admin/markets/${otherConditionId}/rewards`, rewards);
    expect(set.status).toBe(200);
    const sampling = await get('/sampling-markets?next_cursor=MA==', stack.urls.clob);
    expect(sampling.body).toMatchObject({ count: 1, next_cursor: 'LTE=' });
    expect(shapeErrors(sampling.body.data, [SAMPLING_MARKET])).toEqual([]);
    expect(sampling.body.data[0]).toMatchObject({ condition_id: otherConditionId, rewards });
    // The stock client's getSimplifiedMarkets and getSamplingSimplifiedMarkets (a 404 until the nineteenth session).
    const simplified = await get('/sampling-simplified-markets', stack.urls.clob);
    expect(simplified.body).toMatchObject({ count: 1, next_cursor: 'LTE=' });
    expect(Object.keys(simplified.body.data[0]).sort()).toEqual(['accepting_orders', 'active', 'archived', 'closed', 'condition_id', 'rewards', 'tokens']);
    expect(simplified.body.data[0]).toMatchObject({ condition_id: otherConditionId, rewards, tokens: sampling.body.data[0].tokens });
    expect((await get('/simplified-markets')).body.data.map((m: { condition_id: string }) => m.condition_id)).toContain(otherConditionId);
    expect((await get(`/clob-markets/${otherConditionId}`)).body.r).toEqual(rewards);
    const unauthorized = await fetch(`${stack.base}/admin/markets/${otherConditionId}/rewards`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
    expect((await stack.admin('PUT', `/admin/markets/${otherConditionId}/rewards`, { rates: 'lots' })).status).toBe(400);
  });

  it('answers the settings clients need before signing: clob-markets, markets-by-token, tick size, neg risk, fee rate', async () => {
    const info = await get(`/clob-markets/${conditionId}`, stack.urls.clob);
    expect(shapeErrors(info.body, CLOB_MARKET_INFO)).toEqual([]);
    expect(info.body).toMatchObject({ c: conditionId, t: [{ t: yes, o: 'Yes' }, { t: no, o: 'No' }], mts: 0.01, mos: 5, nr: false, fd: { r: 0.04, e: 1, to: true }, tbf: 400, mbf: 0 });
    expect((await get(`/markets-by-token/${no}`)).body).toEqual({ condition_id: conditionId, primary_token_id: yes, secondary_token_id: no });
    expect((await get(`/tick-size?token_id=${yes}`)).body).toEqual({ minimum_tick_size: 0.01 });
    expect((await get(`/neg-risk?token_id=${yes}`)).body).toEqual({ neg_risk: false });
    const fee = await get(`/fee-rate?token_id=${no}`);
    expect(shapeErrors(fee.body, FEE_RATE)).toEqual([]);
    expect(fee.body).toEqual({
      base_fee: 400,
      fd: { r: 0.04, e: 1, to: true },
      fee_schedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0.25, category: 'politics', version: 1, source: 'local' },
    });
    expect((await get('/fee-rate')).body).toMatchObject({ base_fee: 0, fee_schedule: { rate: 0, source: 'local' } });
    // What a stock client reads before signing an order.
    const [otherYes] = (await get(`/markets/${otherConditionId}`)).body.assets_ids;
    expect(await client.getTickSize(otherYes)).toBe('0.001');
    expect(await client.getNegRisk(otherYes)).toBe(true);
    expect(await client.getFeeRateBps(yes)).toBe(400);
    expect(await client.getClobMarketInfo(conditionId)).toMatchObject({ c: conditionId, mts: 0.01 });

    for (const path of ['/tick-size?token_id=1', '/neg-risk/1', '/fee-rate?token_id=1', '/markets-by-token/1', `/clob-markets/0x${'cd'.repeat(32)}`]) {
      expect(await get(path)).toMatchObject({ status: 404, body: { code: 'market_not_found', error: expect.any(String) } });
    }
    for (const path of ['/tick-size', '/tick-size?token_id=abc', '/neg-risk?token_id=0x1', '/fee-rate?token_id=-1', '/markets-by-token/x', '/clob-markets/42']) {
      expect(await get(path)).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    }
  });

  it('shows each order and cancel in /book, /price, /midpoint and /spread, with the NO book mirrored', async () => {
    const empty = await book(yes);
    expect(shapeErrors(empty, ORDER_BOOK)).toEqual([]);
    expect(empty).toMatchObject({ market: conditionId, asset_id: yes, bids: [], asks: [], min_order_size: '5', tick_size: '0.01', neg_risk: false, last_trade_price: '0.5' });
    expect((await get(`/midpoint?token_id=${yes}`)).body).toEqual({ mid: '0.5' });
    expect((await get(`/spread?token_id=${yes}`)).body).toEqual({ spread: '1' });
    expect((await get(`/price?token_id=${yes}&side=BUY`)).body).toEqual({ price: '0' });

    await place(alice, { tokenId: yes, side: 'SELL', shares: u('10'), collateral: u('6') });
    const bidId = await place(bob, { tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('2') });
    const yesBook = await bookWhen(yes, (b) => b.bids.length === 1 && b.asks.length === 1);
    expect([levels(yesBook, 'bids'), levels(yesBook, 'asks')]).toEqual(['5@0.4', '10@0.6']);
    const noBook = await book(no);
    expect([levels(noBook, 'bids'), levels(noBook, 'asks')]).toEqual(['10@0.4', '5@0.6']);
    expect(Number(noBook.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    // The hash is reproducible from the content, with the stock client's own function.
    expect(await client.getOrderBookHash({ ...yesBook })).toBe(yesBook.hash);
    expect(await client.getOrderBookHash({ ...noBook })).toBe(noBook.hash);
    expect((await client.getOrderBook(yes)).hash).toBe(yesBook.hash);

    for (const token of [yes, no]) {
      expect((await get(`/price?token_id=${token}&side=BUY`)).body).toEqual({ price: '0.4' });
      expect((await get(`/price?token_id=${token}&side=SELL`)).body).toEqual({ price: '0.6' });
      expect((await get(`/midpoint?token_id=${token}`)).body).toEqual({ mid: '0.5' });
      expect((await get(`/spread?token_id=${token}`)).body).toEqual({ spread: '0.2' });
    }

    // A BUY of NO at 0.30 is a SELL of YES at 0.70.
    const noBidId = await place(bob, { tokenId: no, side: 'BUY', shares: u('5'), collateral: u('1.5') });
    const withNoBid = await bookWhen(no, (b) => b.bids.length === 2);
    expect([levels(withNoBid, 'bids'), levels(withNoBid, 'asks')]).toEqual(['5@0.3 10@0.4', '5@0.6']);
    expect(levels(await book(yes), 'asks')).toEqual('5@0.7 10@0.6');

    expect(await bob.request('DELETE', '/order', { orderID: bidId })).toEqual({ status: 200, body: { canceled: [bidId], not_canceled: {} } });
    const afterCancel = await bookWhen(yes, (b) => b.bids.length === 0);
    expect(levels(afterCancel, 'asks')).toEqual('5@0.7 10@0.6');
    expect(levels(await book(no), 'asks')).toEqual('');
    expect((await get(`/price?token_id=${yes}&side=BUY`)).body).toEqual({ price: '0' });
    expect((await get(`/spread?token_id=${yes}`)).body).toEqual({ spread: '0.6' });
    expect((await get(`/midpoint?token_id=${no}`)).body).toEqual({ mid: '0.5' });

    const batch = await post('/books', [{ token_id: yes }, { token_id: no, side: 'BUY' }]);
    expect(batch.status).toBe(200);
    expect(shapeErrors(batch.body, [ORDER_BOOK])).toEqual([]);
    expect(batch.body.map((b: Json) => b.asset_id)).toEqual([yes, no]);
    expect((await post('/prices', [{ token_id: yes, side: 'BUY' }, { token_id: no, side: 'SELL' }])).body).toEqual({
      [yes]: { BUY: '0', SELL: '0.6' },
      [no]: { BUY: '0.4', SELL: '0' },
    });
    expect((await post('/midpoints', [{ token_id: yes }])).body).toEqual({ [yes]: '0.5' });
    expect((await post('/spreads', [{ token_id: yes }, { token_id: no }])).body).toEqual({ [yes]: '0.6', [no]: '0.6' });
    expect(await bob.request('DELETE', '/order', { orderID: noBidId })).toEqual({ status: 200, body: { canceled: [noBidId], not_canceled: {} } });
    await bookWhen(yes, (b) => b.asks.length === 1);
  });

  it('records trades: last trade prices per token (mirrored) and the price history', async () => {
    expect((await get(`/last-trade-price?token_id=${yes}`)).body).toEqual({ price: '0.5', side: '' });
    const started = Math.floor(Date.now() / 1000);
    const holding = async (trader: Trader, query: string) => BigInt((await trader.request('GET', `/balance-allowance?${query}`)).body.balance);
    const [bobCash, bobYes, aliceCash] = [await holding(bob, 'asset_type=COLLATERAL'), await holding(bob, `asset_type=CONDITIONAL&token_id=${yes}`), await holding(alice, 'asset_type=COLLATERAL')];
    // Bob takes 5 of Alice's 10 YES at 0.60, paying a taker fee of 5 × 0.04 × 0.6 × 0.4 = 0.048; Alice gets a quarter of it back.
    await place(bob, { tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('3') });
    expect(await holding(bob, 'asset_type=COLLATERAL')).toBe(bobCash - u('3.048'));
    expect(await holding(bob, `asset_type=CONDITIONAL&token_id=${yes}`)).toBe(bobYes + u('5'));
    expect(await holding(alice, 'asset_type=COLLATERAL')).toBe(aliceCash + u('3.012'));
    const afterTrade = await bookWhen(yes, (b) => b.last_trade_price === '0.6');
    expect(levels(afterTrade, 'asks')).toEqual('5@0.6');
    expect((await get(`/last-trade-price?token_id=${yes}`)).body).toEqual({ price: '0.6', side: 'BUY' });
    expect((await get(`/last-trade-price?token_id=${no}`)).body).toEqual({ price: '0.4', side: 'SELL' });
    expect((await post('/last-trades-prices', [{ token_id: yes }, { token_id: no }])).body).toEqual([
      { token_id: yes, price: '0.6', side: 'BUY' },
      { token_id: no, price: '0.4', side: 'SELL' },
    ]);
    // With no bid left, the midpoint falls back to the last trade; the market shows it as the price.
    expect((await get(`/midpoint?token_id=${yes}`)).body).toEqual({ mid: '0.6' });
    expect((await get(`/markets/${conditionId}`)).body.tokens.map((t: Json) => t.price)).toEqual([0.6, 0.4]);

    const history = await until(async () => {
      const h = await get(`/prices-history?market=${yes}&interval=1h&fidelity=1`);
      return h.body.history?.length ? h : undefined;
    }, PROPAGATION_MS, 'price history');
    expect(history.status).toBe(200);
    const last = history.body.history.at(-1);
    expect(last.p).toBe(0.6);
    expect(last.t).toBeGreaterThanOrEqual(started);
    expect(history.body.history.every((p: Json) => Number.isInteger(p.t) && typeof p.p === 'number')).toBe(true);
    const ranged = await get(`/prices-history?market=${no}&startTs=${started - 60}&endTs=${Math.floor(Date.now() / 1000)}&fidelity=5`);
    expect(ranged.body.history.at(-1)).toMatchObject({ p: 0.4 });
    const batch = await post('/batch-prices-history', { markets: [yes, no], interval: 'max', fidelity: 1 });
    expect(batch.status).toBe(200);
    expect(batch.body.history[yes].at(-1).p).toBe(0.6);
    expect(batch.body.history[no].at(-1).p).toBe(0.4);
    // The client types the answer as an array; the upstream body (and ours) is {history: [...]}.
    const viaClient = (await client.getPricesHistory({ market: yes, interval: '1d' as never })) as unknown as { history: { p: number }[] };
    expect(viaClient.history.at(-1)!.p).toBe(0.6);
  });

  it('rebuilds its books from order-matching when the event stream no longer holds its position', async () => {
    expect([levels(await book(yes), 'bids'), levels(await book(yes), 'asks')]).toEqual(['', '5@0.6']);
    let bidId = '';
    await stack.restart('market-data', undefined, async () => {
      // While market-data is down a bid rests, and the stream loses its history (its age limit, or lost storage).
      bidId = await place(bob, { tokenId: yes, side: 'BUY', shares: u('5'), collateral: u('2') });
      await purgeStream(stack.prefix, MATCHING_STREAM.name);
      // And its price history is lost too (a new database): it comes back from order-matching's trades.
      const db = pgPool('e2e', { connectionString: stack.databaseUrl('market-data'), max: 1 });
      await db.query('DELETE FROM price_history').finally(() => db.end());
    });
    const rebuilt = await book(yes);
    expect([levels(rebuilt, 'bids'), levels(rebuilt, 'asks'), rebuilt.last_trade_price]).toEqual(['5@0.4', '5@0.6', '0.6']);
    expect((await get(`/last-trade-price?token_id=${no}`)).body).toEqual({ price: '0.4', side: 'SELL' });
    const refilled = await until(async () => {
      const h = await get(`/prices-history?market=${yes}&interval=max&fidelity=1`);
      return h.body.history?.length ? h.body.history : undefined;
    }, PROPAGATION_MS, 'refilled price history');
    expect(refilled.at(-1).p).toBe(0.6);
    // Later events apply on top.
    expect(await bob.request('DELETE', '/order', { orderID: bidId })).toEqual({ status: 200, body: { canceled: [bidId], not_canceled: {} } });
    await bookWhen(yes, (b) => b.bids.length === 0);
  });

  it('refuses bad input with 400 and unknown tokens with 404, with the error body', async () => {
    const unknown = '123456789';
    for (const path of [`/book?token_id=${unknown}`, `/price?token_id=${unknown}&side=BUY`, `/midpoint?token_id=${unknown}`, `/spread?token_id=${unknown}`, `/last-trade-price?token_id=${unknown}`, `/prices-history?market=${unknown}&interval=1d`]) {
      expect(await get(path)).toMatchObject({ status: 404, body: { error: 'No orderbook exists for the requested token id', code: 'orderbook_not_found' } });
    }
    expect(await post('/books', [{ token_id: yes }, { token_id: unknown }])).toMatchObject({ status: 404, body: { code: 'orderbook_not_found' } });
    const bad: [string, string][] = [
      ['/book', 'Invalid token id'],
      ['/book?token_id=0xabc', 'Invalid token id'],
      [`/price?token_id=${yes}`, 'side'],
      [`/price?token_id=${yes}&side=UP`, 'side must be BUY or SELL'],
      [`/prices-history?market=${yes}`, 'interval'],
      [`/prices-history?market=${yes}&interval=2y`, 'interval'],
      [`/prices-history?market=${yes}&endTs=1700000000`, 'interval'],
      [`/prices-history?market=${yes}&startTs=1700000000000`, 'startTs'],
      [`/prices-history?market=${yes}&startTs=200&endTs=100`, 'end timestamp'],
      [`/prices-history?market=${yes}&interval=1d&fidelity=0`, 'fidelity'],
    ];
    for (const [path, message] of bad) {
      expect(await get(path)).toMatchObject({ status: 400, body: { code: 'invalid_request', error: expect.stringContaining(message) } });
    }
    const tooMany = Array.from({ length: 501 }, () => ({ token_id: yes }));
    for (const route of ['/books', '/prices', '/midpoints', '/spreads', '/last-trades-prices']) {
      expect(await post(route, tooMany)).toEqual({ status: 400, body: { error: 'at most 500 tokens per request', code: 'invalid_request' } });
      expect(await post(route, [])).toEqual({ status: 400, body: { error: 'give at least one token', code: 'invalid_request' } });
      expect(await post(route, { token_id: yes })).toEqual({ status: 400, body: { error: 'the body must be an array of {token_id, side?}', code: 'invalid_request' } });
    }
    expect((await post('/prices', Array.from({ length: 500 }, () => ({ token_id: yes })))).status).toBe(200);
    expect(await post('/batch-prices-history', { markets: Array.from({ length: 21 }, () => yes), interval: '1d' })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('at most 20') },
    });
    const notJson = await fetch(`${stack.base}/prices`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[{' });
    expect(notJson.status).toBe(400);
    expect(await json(notJson)).toMatchObject({ code: 'invalid_json' });
  });
});
