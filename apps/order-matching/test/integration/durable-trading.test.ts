import { Pool } from 'pg';
import { eventually, readStream, until } from '@exchange/testing';
import { MATCHING_BATCH_SUBJECT, MAX_EVENTS_PER_MESSAGE, type MatchingEventBatch, type TradeEvent } from '@exchange/contracts';
import { COLLATERAL } from '../../src/engine/ledger';
import { audit, resolve } from '../../src/engine/money';
import { EndedOrderIds } from '../../src/engine/ended-order-ids';
import { loadPastIds } from '../../src/journal/state-loader';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'ab'.repeat(32)}`;
const YES = '101';
const NO = '202';
const alice = traderOf(1);
const bob = traderOf(2);
const carol = traderOf(3);

describe('order-matching on real PostgreSQL and NATS', () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching();
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, NO]));
  });
  afterAll(() => om.stop());

  const place = (caller: typeof alice, order: ReturnType<typeof anOrder>) => om.place(caller, order);
  /**
   * A market and traders of the test's own (nothing of the other tests' books), orders that cross, 100
   * deposited for each trader in turn and 20 of each outcome split by `splitter`.
   */
  const ownMarket = async (market: string, tokens: [string, string], traders: (typeof alice)[], splitter: typeof alice) => {
    await om.publishMarket(aMarketSnapshot(market, tokens));
    // Orders that cross: off, whatever a restart of another test left on.
    await om.data('matching.admin.post-only.v1', { enabled: false, retryAfterSeconds: 0 });
    for (const trader of traders) await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '100' });
    await om.data('matching.split.v1', { caller: splitter, conditionId: market, amount: '20' });
  };

  it('trades, answers after the commit, and keeps everything across a restart', async () => {
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '100' });
    await om.data('matching.admin.deposit.v1', { address: bob.address, amount: '100' });
    const split = await om.data('matching.split.v1', { caller: alice, conditionId: CONDITION, amount: '50' });
    expect(split.positions).toHaveLength(2);

    const asks = [];
    for (const price of ['0.60', '0.61', '0.62']) asks.push(await place(alice, anOrder(alice, { token: YES, side: 'SELL', price, size: '10' })));
    const bids = [];
    for (const price of ['0.40', '0.41']) bids.push(await place(bob, anOrder(bob, { token: YES, side: 'BUY', price, size: '10' })));
    const cross = await place(bob, anOrder(bob, { token: YES, side: 'BUY', price: '0.61', size: '15' }));
    expect(cross).toMatchObject({ success: true, status: 'matched', takingAmount: '15', tradeIDs: [expect.any(String)] });
    expect(cross.transactionsHashes).toEqual([expect.stringMatching(/^0x[0-9a-f]{64}$/)]);
    // Placements of two callers in one message, one of them a batch: each order gets its own result
    // in its own placement's list, a bad one does not stop the others.
    const [bobs, alices] = await om.data('matching.orders.place.v1', {
      placements: [
        {
          caller: bob,
          orders: [anOrder(bob, { token: NO, side: 'BUY', price: '0.30', size: '5' }), anOrder(bob, { token: NO, side: 'BUY', price: '0.305', size: '5' })],
        },
        { caller: alice, orders: [anOrder(bob, { token: NO, side: 'BUY', price: '0.30', size: '5' })] },
      ],
    });
    expect(bobs!.map((r) => r.success)).toEqual([true, false]);
    expect(alices).toEqual([expect.objectContaining({ success: false, code: 'INVALID_ORDER_ERROR' })]);
    // One message holds at most MAX_ORDERS_PER_MESSAGE orders.
    const order = anOrder(bob, { token: NO, side: 'BUY', price: '0.30', size: '5' });
    const placements = Array.from({ length: 34 }, () => ({ caller: bob, orders: Array.from({ length: 15 }, () => order) }));
    expect(await om.request('matching.orders.place.v1', { placements })).toMatchObject({
      ok: false,
      status: 400,
      body: { code: 'invalid_request', error: expect.stringContaining('at most 500 orders per message') },
    });

    const trades = await om.data('matching.trades.list.v1', { caller: bob });
    expect(trades.data).toHaveLength(1);
    expect(trades.data[0]).toMatchObject({ side: 'BUY', size: '15', price: '0.603333', status: 'MATCHED', trader_side: 'TAKER', err_msg: '' });
    // Upstream's nanosecond time: the same moment as match_time, to the millisecond.
    expect(trades.data[0]!.match_time_nano).toBe(String(BigInt(Date.parse(trades.data[0]!.match_time)) * 1_000_000n));
    expect(trades.data[0]!.maker_orders.map((m) => [m.price, m.matched_amount])).toEqual([
      ['0.6', '10'],
      ['0.61', '5'],
    ]);
    const byId = await om.data('matching.trades.list.v1', { caller: bob, id: trades.data[0]!.id.toUpperCase() });
    expect(byId.data.map((t) => t.id)).toEqual([trades.data[0]!.id]);
    const makerView = await om.data('matching.trades.list.v1', { caller: alice });
    expect(makerView.data[0]).toMatchObject({ trader_side: 'MAKER', id: trades.data[0]!.id });

    const open = await om.data('matching.orders.list.v1', { caller: alice });
    expect(open.data.map((o) => [o.price, o.size_matched])).toEqual([['0.61', '5'], ['0.62', '0']]);
    const one = await om.data('matching.orders.get.v1', { caller: alice, id: asks[0]!.orderID });
    expect(one).toMatchObject({ status: 'MATCHED', original_size: '10', size_matched: '10', outcome: 'Yes' });

    const before = om.engine().state;
    const book = [...before.markets.get(CONDITION)!.book.orders()];
    const holdings = (state: typeof before) => [alice, bob].map((t) => state.ledger.holdings(t.address.toLowerCase()).sort(([a], [b]) => a.localeCompare(b)));
    const balances = holdings(before);
    expect(audit(before).balanced).toBe(true);

    await om.restart({ POST_ONLY_AFTER_RESTART_SECONDS: '60' });
    const after = om.engine().state;
    expect([...after.markets.get(CONDITION)!.book.orders()]).toEqual(book);
    expect(holdings(after)).toEqual(balances);
    // Rows are keyed by seq: an order is found by id through the seqs the engine loaded, ended or resting.
    const get = (caller: typeof alice, id: string) => om.request('matching.orders.get.v1', { caller, id });
    expect(await get(alice, asks[0]!.orderID)).toMatchObject({ ok: true, data: { status: 'MATCHED', size_matched: '10' } });
    expect(await get(alice, asks[1]!.orderID.toUpperCase().replace('0X', '0x'))).toMatchObject({ ok: true, data: { status: 'LIVE', size_matched: '5' } });
    expect(await get(bob, asks[1]!.orderID)).toMatchObject({ ok: false, status: 404, body: { code: 'order_not_found' } });
    expect(await get(alice, `0x${'5'.repeat(64)}`)).toMatchObject({ ok: false, status: 404, body: { code: 'order_not_found' } });
    expect(audit(after)).toEqual(audit(before));

    const refused = await place(bob, anOrder(bob, { token: YES, side: 'BUY', price: '0.30', size: '5' }));
    expect(refused).toMatchObject({ success: false, code: 'post_only_mode', retry_after_seconds: expect.any(Number) });
    expect(refused.retry_after_seconds).toBeGreaterThan(55);
    const resting = await place(bob, anOrder(bob, { token: YES, side: 'BUY', price: '0.30', size: '5', postOnly: true }));
    expect(resting).toMatchObject({ success: true, status: 'live' });
    const duplicate = await place(alice, { ...anOrder(alice, { token: YES, side: 'SELL', price: '0.60', size: '10', postOnly: true }), orderId: asks[0]!.orderID });
    expect(duplicate.code).toBe('INVALID_ORDER_DUPLICATED');

    // The ended orders' ids load a page at a time: one id per page here, so every page boundary counts.
    const pool = new Pool({ connectionString: om.databaseUrl });
    try {
      const ended = (await pool.query<{ id: string; seq: string }>("SELECT id, seq FROM orders WHERE status <> 'LIVE'")).rows;
      expect(ended.length).toBeGreaterThanOrEqual(2);
      const ids = new EndedOrderIds();
      await loadPastIds(pool, ids, 0, 1);
      expect(ids.size).toBe(ended.length);
      expect(ended.every(({ id, seq }) => ids.seqOf(id) === Number(seq) && after.pastIds.seqOf(id) === Number(seq))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it("applies a trader's split or merge named by a reference once, before and after a restart", async () => {
    await om.data('matching.admin.deposit.v1', { address: carol.address, amount: '20' });
    const first = await om.data('matching.split.v1', { caller: carol, conditionId: CONDITION, amount: '8', reference: 'carol-split-1' });
    expect(first).toMatchObject({ collateral: { available: '12' }, reference: 'carol-split-1', replayed: false });
    await om.restart();
    // The answer was lost in the restart: the same request again moves nothing.
    const again = await om.data('matching.split.v1', { caller: carol, conditionId: CONDITION, amount: '8', reference: 'carol-split-1' });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await om.request('matching.split.v1', { caller: carol, conditionId: CONDITION, amount: '7', reference: 'carol-split-1' })).toMatchObject({
      ok: false,
      status: 409,
      body: { code: 'conflict' },
    });
    // Another trader's reference of the same text is its own.
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '1' });
    expect(await om.data('matching.split.v1', { caller: alice, conditionId: CONDITION, amount: '1', reference: 'carol-split-1' })).toMatchObject({ replayed: false });
    const merged = await om.data('matching.merge.v1', { caller: carol, conditionId: CONDITION, amount: '8', reference: 'carol-merge-1' });
    expect(merged).toMatchObject({ collateral: { available: '20' }, positions: [], reference: 'carol-merge-1', replayed: false });
    expect(await om.data('matching.merge.v1', { caller: carol, conditionId: CONDITION, amount: '8', reference: 'carol-merge-1' })).toMatchObject({ replayed: true });
    expect(await om.data('matching.split.v1', { caller: carol, conditionId: CONDITION, amount: '1' })).toMatchObject({ reference: null, replayed: false });
    await om.expectConserved();
  });

  it('cancels, reports balances, and publishes order, trade, book and money-move events in order', async () => {
    // With resting orders and a trade of its own.
    const market = `0x${'ac'.repeat(32)}`;
    const [yes, no] = ['111', '222'];
    const [dave, erin] = [traderOf(4), traderOf(5)];
    await ownMarket(market, [yes, no], [dave, erin], dave);
    expect(await place(dave, anOrder(dave, { token: yes, side: 'SELL', price: '0.60', size: '10' }))).toMatchObject({ success: true, status: 'live' });
    expect(await place(erin, anOrder(erin, { token: yes, side: 'BUY', price: '0.60', size: '5' }))).toMatchObject({ success: true, status: 'matched' });
    const resting = [
      await place(erin, anOrder(erin, { token: yes, side: 'BUY', price: '0.40', size: '10' })),
      await place(erin, anOrder(erin, { token: no, side: 'BUY', price: '0.30', size: '5' })),
    ].map((r) => r.orderID);

    // The whole balance, what open orders reserve included, as upstream's (its clients subtract their
    // open orders themselves).
    const held = { ...om.engine().state.ledger.get(erin.address, COLLATERAL) };
    expect(held.reserved).toBe(4_000_000 + 1_500_000);
    const whole = String(held.available + held.reserved);
    expect((await om.data('matching.balance.get.v1', { caller: erin, asset_type: 'COLLATERAL' })).balance).toBe(whole);
    const canceled = await om.data('matching.orders.cancel-all.v1', { caller: erin });
    expect(canceled).toEqual({ canceled: resting, not_canceled: {} });
    expect((await om.data('matching.balance.get.v1', { caller: erin, asset_type: 'COLLATERAL' })).balance).toBe(whole);
    expect(om.engine().state.ledger.get(erin.address, COLLATERAL)).toEqual({ available: held.available + held.reserved, reserved: 0 });
    expect((await om.request('matching.balance.get.v1', { caller: erin, asset_type: 'CONDITIONAL' })).ok).toBe(false);

    const cancellationsOf = (messages: Awaited<ReturnType<typeof readStream>>) =>
      messages.flatMap((m) => (m.data as MatchingEventBatch).events).filter((e) => e.type === 'order' && e.data.type === 'CANCELLATION' && resting.includes(e.data.id));
    const messages = await until(async () => {
      const all = await readStream(om.prefix, 'MATCHING');
      return cancellationsOf(all).length === resting.length ? all : undefined;
    }, 10_000, 'the cancellations published');
    // One message per committed batch, its events in the engine's order.
    expect(new Set(messages.map((m) => m.subject))).toEqual(new Set(['matching.evt.batch.v1']));
    const batchIds = messages.map((m) => (m.data as MatchingEventBatch).batchId);
    expect(new Set(batchIds).size).toBe(batchIds.length);
    const events = messages.flatMap((m) => (m.data as MatchingEventBatch).events).filter((e) => e.data.conditionId === market);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['order', 'trade', 'book', 'money-move']));
    expect(events.filter((e) => e.type === 'money-move').map((e) => e.data)).toEqual([
      { kind: 'split', address: dave.address, conditionId: market, amount: '20000000', payout: '0', shares: [], timestamp: expect.any(Number) },
    ]);
    const bookSeqs = events.flatMap((e) => (e.type === 'book' ? [e.data.bookSeq] : []));
    expect(bookSeqs).toEqual(bookSeqs.map((_, i) => i + 1));
    const tradeMessage = messages.find((m) => (m.data as MatchingEventBatch).events.some((e) => e.type === 'trade' && e.data.conditionId === market))!
      .data as MatchingEventBatch;
    const trade = tradeMessage.events.find((e) => e.type === 'trade')!.data as TradeEvent;
    expect(trade.batchId).toBe(tradeMessage.batchId);
    expect(trade.batchId).toMatch(/^0x[0-9a-f]{64}$/);

    // Published rows leave the outbox: the engine prunes them every second.
    const outboxRows = async () => Number((await om.engine().pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox')).rows[0]!.n);
    await eventually(async () => (await outboxRows()) === 0, 'the outbox emptied');
    expect(Number((await om.engine().pool.query<{ n: string }>('SELECT count(*) AS n FROM batches')).rows[0]!.n)).toBeGreaterThan(0);
  });

  it('journals and publishes a batch too large for one message as several, in order', async () => {
    // A market and a trader of their own: the resolution, run as one command (an operator's runs in
    // steps of CANCEL_STEP_ORDERS), cancels exactly the orders placed here.
    const market = `0x${'ef'.repeat(32)}`;
    await om.publishMarket(aMarketSnapshot(market, ['601', '602']));
    const frank = traderOf(6);
    await om.data('matching.admin.deposit.v1', { address: frank.address, amount: '1000' });
    const resting = 1_200;
    const placed: string[] = [];
    for (let n = 0; n < resting; n += 300) {
      // 20 client requests of 15 orders in one message, as the gateway sends them (post-only: accepted
      // also while a restart of another test keeps post-only mode on).
      const placements = Array.from({ length: 20 }, () => ({
        caller: frank,
        orders: Array.from({ length: 15 }, () => anOrder(frank, { token: '601', side: 'BUY', price: '0.10', size: '5', postOnly: true })),
      }));
      const results = await om.data('matching.orders.place.v1', { placements });
      expect(results.flat().filter((r) => !r.success)).toEqual([]);
      placed.push(...results.flat().map((r) => r.orderID));
    }
    // A cancellation event per order, then one book change and the resolution: 1,202 events in one batch.
    await om.engine().run((state, now) => resolve(state, market, 0, now));
    await om.expectConserved();

    const resolutionMessages = async () =>
      (await readStream(om.prefix, 'MATCHING'))
        .filter((m) => m.subject === MATCHING_BATCH_SUBJECT)
        .map((m) => m.data as MatchingEventBatch)
        .filter((b) => b.events.some((e) => e.type === 'order' && e.data.type === 'CANCELLATION' && e.data.conditionId === market));
    const parts = await until(async () => {
      const found = await resolutionMessages();
      return found.reduce((n, p) => n + p.events.length, 0) >= resting + 2 ? found : undefined;
    }, 10_000, 'every cancellation published');
    expect(parts.length).toBe(Math.ceil((resting + 2) / MAX_EVENTS_PER_MESSAGE));
    expect(new Set(parts.map((p) => p.batchId)).size).toBe(1);
    const events = parts.flatMap((p) => p.events);
    expect(events).toHaveLength(resting + 2);
    expect(events.flatMap((e) => (e.type === 'order' ? [e.data.id] : []))).toEqual(placed);
    expect(events.slice(resting).map((e) => e.type)).toEqual(['book', 'market-resolved']);
  });

  it('keeps no record of a killed FOK or FAK: reading it is a 404, before and after a restart, and the same signed order is taken later', async () => {
    // Of its own: the books of the other tests would fill these orders.
    const market = `0x${'ad'.repeat(32)}`;
    const [yes, no] = ['131', '232'];
    const [gina, hank] = [traderOf(7), traderOf(8)];
    await ownMarket(market, [yes, no], [gina, hank], hank);
    // Both against an empty side: the FOK is refused before it reserves, the FAK by the book.
    const fok = anOrder(gina, { token: yes, side: 'BUY', price: '0.50', size: '10', type: 'FOK', collateral: '5' });
    const fak = anOrder(hank, { token: yes, side: 'SELL', price: '0.40', size: '5', type: 'FAK' });
    expect(await place(gina, fok)).toMatchObject({ success: false, code: 'FOK_ORDER_NOT_FILLED_ERROR' });
    expect(await place(hank, fak)).toMatchObject({ success: false, code: 'FAK_ORDER_NOT_FILLED_ERROR' });

    const notFound = { ok: false, status: 404, body: { code: 'order_not_found' } };
    const read = (caller: typeof gina, id: string) => om.request('matching.orders.get.v1', { caller, id });
    const readBoth = async () => [await read(gina, fok.orderId), await read(hank, fak.orderId)];
    expect(await readBoth()).toMatchObject([notFound, notFound]);
    // Nothing journaled either: the engine rebuilt from PostgreSQL has no trace of them.
    await om.restart();
    expect(await readBoth()).toMatchObject([notFound, notFound]);

    // Once the book can fill them, the very same signed orders are taken, not refused as duplicates.
    await om.data('matching.admin.post-only.v1', { enabled: false, retryAfterSeconds: 0 });
    // The FOK's $5 buys exactly these 10 shares.
    expect(await place(hank, anOrder(hank, { token: yes, side: 'SELL', price: '0.50', size: '10' }))).toMatchObject({ success: true, status: 'live' });
    expect(await place(gina, fok)).toMatchObject({ success: true, status: 'matched', orderID: fok.orderId });
    expect(await place(gina, anOrder(gina, { token: yes, side: 'BUY', price: '0.40', size: '5' }))).toMatchObject({ success: true, status: 'live' });
    expect(await place(hank, fak)).toMatchObject({ success: true, status: 'matched', orderID: fak.orderId });
    expect(await readBoth()).toMatchObject([
      { ok: true, data: { status: 'MATCHED' } },
      { ok: true, data: { status: 'MATCHED' } },
    ]);
  });
});
