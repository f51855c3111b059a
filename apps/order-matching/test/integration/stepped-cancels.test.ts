import { connect, type NatsConnection } from 'nats';
import type { Caller, MatchingEventBatch } from '@exchange/contracts';
import { NothingDoneError, RpcClient } from '@exchange/service-kit';
import { readStream, rpcCalls, TEST_NATS_URL, until } from '@exchange/testing';
import { Side } from '../../src/core';
import { pullOffBooks } from '../../src/engine/cancel-orders';
import { resolve } from '../../src/engine/money';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'5e'.repeat(32)}`;
const YES = '701';
const NO = '702';
const alice = traderOf(1);
const bob = traderOf(2);
const NOT_FOUND = "order can't be found - already canceled or matched";

describe('cancels of many orders, one step at a time, on real PostgreSQL and NATS', () => {
  let om: MatchingUnderTest;
  let nc: NatsConnection;
  // Requests sent side by side: the harness's own audit after each would catch the engine between two steps.
  let concurrent: ReturnType<typeof rpcCalls>;

  beforeAll(async () => {
    om = await startMatching({ CANCEL_STEP_ORDERS: '1' });
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, NO]));
    for (const trader of [alice, bob]) await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '1000' });
    nc = await connect({ servers: TEST_NATS_URL });
    concurrent = rpcCalls(new RpcClient(nc, om.prefix, 10_000));
  });
  afterAll(async () => {
    await nc.close();
    await om.stop();
  });

  const rest = async (trader: Caller, price: string, count: number): Promise<string[]> => {
    const results = await om.data('matching.orders.place.v1', {
      placements: [{ caller: trader, orders: Array.from({ length: count }, () => anOrder(trader, { token: YES, side: 'BUY', price, size: '5' })) }],
    });
    expect(results[0]!.map((r) => r.status)).toEqual(Array(count).fill('live'));
    return results[0]!.map((r) => r.orderID);
  };

  it("takes every order off the book in its first step: another trader's order that runs between the steps meets none of them", async () => {
    const orders = [...(await rest(alice, '0.20', 15)), ...(await rest(alice, '0.20', 4)), ...(await rest(alice, '0.30', 1))];
    // Sent right after the cancel-all: it arrives while the first of twenty steps commits. Before the
    // first step took them all off the book, it took alice's newest bid (bob's BUY of NO at 0.70 and her
    // BUY of YES at 0.30 mint a pair), which the last step then answered as not canceled.
    const [canceled, placed] = await Promise.all([
      concurrent.data('matching.orders.cancel-all.v1', { caller: alice }),
      concurrent.data('matching.orders.place.v1', { placements: [{ caller: bob, orders: [anOrder(bob, { token: NO, side: 'BUY', price: '0.70', size: '5' })] }] }),
    ]);
    const bobs = placed[0]![0]!;
    expect(bobs).toMatchObject({ success: true, status: 'live', takingAmount: '0' });
    expect(canceled).toEqual({ canceled: orders, not_canceled: {} });
    expect([...om.engine().state.orders.keys()]).toEqual([bobs.orderID]);
    await om.expectConserved();

    // Bob's order ran between the steps (in the engine's order, which the stream keeps); the one book
    // change before it, in the first step's batch, holds both of alice's levels.
    const events = await until(async () => {
      const all = (await readStream(om.prefix, 'MATCHING')).flatMap((m) => (m.data as MatchingEventBatch).events);
      return all.some((e) => e.type === 'order' && e.data.id === bobs.orderID) ? all : undefined;
    }, 10_000, "bob's order published");
    const bobAt = events.findIndex((e) => e.type === 'order' && e.data.id === bobs.orderID);
    const cancelsAt = orders.map((id) => events.findIndex((e) => e.type === 'order' && e.data.type === 'CANCELLATION' && e.data.id === id));
    expect(cancelsAt[0]).toBeLessThan(bobAt);
    expect(cancelsAt[orders.length - 1]).toBeGreaterThan(bobAt);
    const bookChanges = events.slice(0, bobAt).filter((e) => e.type === 'book' && e.data.conditionId === CONDITION).map((e) => e.type === 'book' && e.data.changes);
    expect(bookChanges.at(-1)).toEqual([
      { side: 'BID', price: '200000', size: '0' },
      { side: 'BID', price: '300000', size: '0' },
    ]);
    expect(events.slice(bobAt).filter((e) => e.type === 'book' && e.data.changes.some((c) => c.side === 'BID'))).toEqual([]);
    await om.data('matching.orders.cancel-all.v1', { caller: bob });
  });

  it('cancels more ids than a step, each once, and answers the others as not found', async () => {
    const mine = await rest(alice, '0.20', 4);
    const [bobs] = await rest(bob, '0.20', 1);
    const unknown = `0x${'00'.repeat(32)}`;
    const result = await om.data('matching.orders.cancel.v1', { caller: alice, orderIds: [mine[2]!, bobs!, mine[0]!, mine[2]!, unknown, mine[3]!] });
    expect(result).toEqual({ canceled: [mine[2], mine[0], mine[3]], not_canceled: { [bobs!]: NOT_FOUND, [unknown]: NOT_FOUND } });
    expect([...om.engine().state.orders.keys()].sort()).toEqual([mine[1], bobs].sort());
    expect(await om.data('matching.orders.cancel-market.v1', { caller: alice, market: CONDITION })).toEqual({ canceled: [mine[1]], not_canceled: {} });
  });

  it('puts orders pulled by a step that never ended them back on the books at a restart, and restates the books for market data', async () => {
    const orders = await rest(alice, '0.25', 3);
    // A first step's batch, committed, and no later one: a crash between the steps.
    await om.engine().run((state, now) => pullOffBooks(state, orders.map((id) => state.orders.get(id)!), now));
    const book = () => om.engine().state.markets.get(CONDITION)!.book;
    expect(book().levelSize(Side.BID, 250_000)).toBe(0);
    // Open until their step, yet no longer resting: not scored (order scoring asks this).
    const live = async () => (await om.data('matching.orders.live.v1', { caller: alice, orderIds: orders })).map((o) => o.id);
    expect(await live()).toEqual([]);
    await om.restart();
    expect(await live()).toEqual(orders);

    expect(book().levelSize(Side.BID, 250_000)).toBe(15_000_000);
    const bookChanges = await until(async () => {
      const events = (await readStream(om.prefix, 'MATCHING')).flatMap((m) => (m.data as MatchingEventBatch).events);
      const changes = events.flatMap((e) => (e.type === 'book' && e.data.conditionId === CONDITION ? [e.data] : []));
      return changes.at(-1)?.changes.some((c) => c.price === '250000' && c.size !== '0') ? changes : undefined;
    }, 10_000, 'the books restated');
    // Every level, bob's resting bid (the test above) too.
    expect(bookChanges.at(-1)!.changes).toEqual([
      { side: 'BID', price: '250000', size: '15000000' },
      { side: 'BID', price: '200000', size: '5000000' },
    ]);
    expect(bookChanges.map((c) => c.bookSeq)).toEqual(bookChanges.map((_, i) => i + 1));
    expect(await om.data('matching.orders.cancel-all.v1', { caller: alice })).toEqual({ canceled: orders, not_canceled: {} });
  });

  it('answers a cancel whose later step was refused as one that may have been made, not "nothing was done"', async () => {
    const orders = await rest(alice, '0.15', 3);
    const engine = om.engine();
    const run = engine.run.bind(engine);
    let runs = 0;
    // The second step meets the journal failing, as after a write whose outcome is unknown (group-commit.ts).
    const failing = jest.spyOn(engine, 'run').mockImplementation((command) => (++runs === 2 ? Promise.reject(new NothingDoneError('the matching engine restarts')) : run(command)));
    try {
      const reply = await om.request('matching.orders.cancel.v1', { caller: alice, orderIds: orders });
      expect(reply).toMatchObject({ ok: false, status: 503, body: { error: expect.stringMatching(/ended only some of its orders .*may have been made/) } });
    } finally {
      failing.mockRestore();
    }
    // The first step's cancel is durable; the others are still open.
    const open = (await om.data('matching.orders.list.v1', { caller: alice })).data.map((o) => o.id);
    expect(orders.filter((id) => open.includes(id))).toEqual(orders.slice(1));
    expect(await om.data('matching.orders.cancel.v1', { caller: alice, orderIds: orders.slice(1) })).toMatchObject({ canceled: orders.slice(1) });
  });

  describe('resolutions', () => {
    const market = (n: number) => ({ conditionId: `0x${String(n).repeat(64)}`, yes: `9${n}1`, no: `9${n}2` });
    const restOn = async (m: ReturnType<typeof market>, count: number): Promise<string[]> => {
      await om.publishMarket(aMarketSnapshot(m.conditionId, [m.yes, m.no]));
      // Requests of at most 15 orders, as the gateway sends them.
      const placements = Array.from({ length: Math.ceil(count / 15) }, (_, n) => ({
        caller: alice,
        orders: Array.from({ length: Math.min(15, count - n * 15) }, () => anOrder(alice, { token: m.yes, side: 'BUY', price: '0.20', size: '5' })),
      }));
      const results = await om.data('matching.orders.place.v1', { placements });
      return results.flat().map((r) => r.orderID);
    };

    it("close the market in their first step, answered then, and end its orders in steps, other traders' commands running between them", async () => {
      const m = market(7);
      const orders = await restOn(m, 40);
      const [resolved, placed] = await Promise.all([
        concurrent.data('matching.admin.resolve.v1', { conditionId: m.conditionId, winningOutcome: 'Yes' }),
        concurrent.data('matching.orders.place.v1', { placements: [{ caller: bob, orders: [anOrder(bob, { token: YES, side: 'BUY', price: '0.10', size: '5' })] }] }),
      ]);
      // Answered once the first step is durable: the market is closed and its book empty, while later
      // steps still end its orders (40 commits one after another), and a redemption waits for them.
      expect(resolved).toEqual({ conditionId: m.conditionId, winningOutcome: 0, canceled: 40 });
      expect(om.engine().state.byMarket.of(m.conditionId).size).toBeGreaterThan(0);
      expect(om.engine().state.markets.get(m.conditionId)!.book.size).toBe(0);
      expect(await concurrent.request('matching.redeem.v1', { caller: alice, conditionId: m.conditionId })).toMatchObject({ ok: false, status: 425 });
      const bobs = placed[0]![0]!;
      const events = await until(async () => {
        const all = (await readStream(om.prefix, 'MATCHING')).flatMap((msg) => (msg.data as MatchingEventBatch).events ?? []);
        return all.some((e) => e.type === 'order' && e.data.id === bobs.orderID) && all.filter((e) => e.type === 'order' && orders.includes(e.data.id) && e.data.type === 'CANCELLATION').length === 40 ? all : undefined;
      }, 10_000, 'the resolution published');
      const bobAt = events.findIndex((e) => e.type === 'order' && e.data.id === bobs.orderID);
      const resolvedAt = events.findIndex((e) => e.type === 'market-resolved' && e.data.conditionId === m.conditionId);
      const lastCancelAt = events.findIndex((e) => e.type === 'order' && e.data.type === 'CANCELLATION' && e.data.id === orders[39]);
      expect(resolvedAt).toBeLessThan(bobAt);
      expect(bobAt).toBeLessThan(lastCancelAt);
      expect(om.engine().state.byMarket.of(m.conditionId).size).toBe(0);
      await om.expectConserved();
      await om.data('matching.orders.cancel-all.v1', { caller: bob });
    });

    it('left unfinished by a stop are finished at the restart', async () => {
      const m = market(8);
      const orders = await restOn(m, 3);
      // A first step's batch, committed, and no later one: a crash between the steps.
      const { value } = await om.engine().run((state, now) => resolve(state, m.conditionId, 1, now, 1));
      expect(value).toEqual({ ok: true, data: { canceled: 1, later: orders.slice(1) } });
      await om.restart();
      expect(om.engine().state.byMarket.of(m.conditionId).size).toBe(0);
      const ended = await om.engine().pool.query<{ id: string; status: string }>('SELECT id, status FROM orders WHERE id = ANY($1) ORDER BY seq', [orders]);
      expect(ended.rows).toEqual(orders.map((id) => ({ id, status: 'CANCELED_MARKET_RESOLVED' })));
      expect(om.engine().state.ledger.get(alice.address, 'COLLATERAL').reserved).toBe(0);
    });
  });
});
