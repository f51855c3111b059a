import { callerOpenOrders, callerOrderIds, callerOrders, cancelByIds, expireOrders, pullOffBooks } from '../../../src/engine/cancel-orders';
import { COLLATERAL } from '../../../src/engine/ledger';
import { audit, endOrdersOfResolvedMarkets, endResolvedOrders, merge, redeem, resolve, split, withdraw } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import type { EngineState } from '../../../src/engine/engine-state';
import { ExpiryQueue } from '../../../src/engine/expiry-queue';
import { runAt } from '../../../src/engine/run-at';
import {
  aMarket,
  anOrder,
  balanceOf,
  CONDITION,
  expectConserved,
  expectIndexesAgree,
  fund,
  newEngine,
  NO,
  traderOf,
  YES,
} from '../../support/engine-fixture';

const alice = traderOf(1);
const bob = traderOf(2);
const NOW = 1_700_000_000_000;
const SECOND = NOW / 1000;

/** A resting GTD bid of alice's that expires at `expiration`; returns its id. */
function restGtd(state: EngineState, expiration: number, price = '0.40'): string {
  return placeOrder(state, alice, anOrder(alice, { side: 'BUY', price, size: '5', type: 'GTD', expiration }), NOW).orderID;
}

/** Ids of the orders the batch so far canceled, in the order of their events. */
function canceledInEvents(state: EngineState): string[] {
  return state.effects.events.flatMap((e) => (e.type === 'order' && e.data.type === 'CANCELLATION' ? [e.data.id] : []));
}

describe('cancels', () => {
  it('release what the order reserved, once', () => {
    const state = newEngine();
    fund(state, alice, '10');
    const order = placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.40', size: '10' }), 1);
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 6_000_000, reserved: 4_000_000 });
    expect(cancelByIds(state, bob, [order.orderID], 2)).toEqual({ canceled: [], not_canceled: { [order.orderID]: expect.any(String) } });
    expect(cancelByIds(state, alice, [order.orderID, order.orderID], 2)).toEqual({ canceled: [order.orderID], not_canceled: {} });
    expect(cancelByIds(state, alice, [order.orderID], 3).not_canceled[order.orderID]).toBe("order can't be found - already canceled or matched");
    // An ended order is kept only as its id, which still refuses a duplicate.
    expect(state.orders.has(order.orderID)).toBe(false);
    expect(state.pastIds.has(order.orderID)).toBe(true);
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 10_000_000, reserved: 0 });
    expect(state.markets.get(CONDITION)!.book.size).toBe(0);
    expectConserved(state);
  });

  it('cancel-all and cancel by market touch only the caller', () => {
    const state = newEngine();
    fund(state, alice, '10');
    fund(state, bob, '10');
    placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.30', size: '5' }), 1);
    placeOrder(state, alice, anOrder(alice, { token: NO, side: 'BUY', price: '0.30', size: '5' }), 1);
    placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.20', size: '5' }), 1);
    expect(cancelByIds(state, alice, callerOrderIds(state, alice, (o) => o.tokenId === NO), 2).canceled).toHaveLength(1);
    expect(cancelByIds(state, alice, callerOrderIds(state, alice, () => true), 2).canceled).toHaveLength(1);
    expect(state.orders.size).toBe(1);
    expectConserved(state);
  });

  it('cancel-all of one key ends its orders in the order they were placed and leaves the other key alone', () => {
    const state = newEngine();
    fund(state, alice, '10');
    fund(state, bob, '10');
    const place = (trader: typeof alice, price: string) => placeOrder(state, trader, anOrder(trader, { side: 'BUY', price, size: '5' }), 1).orderID;
    const a1 = place(alice, '0.30');
    const b1 = place(bob, '0.20');
    const a2 = place(alice, '0.10');
    const b2 = place(bob, '0.25');
    const a3 = place(alice, '0.35');
    state.takeEffects();
    expect(cancelByIds(state, alice, callerOrderIds(state, alice, () => true), 2)).toEqual({ canceled: [a1, a2, a3], not_canceled: {} });
    expect(canceledInEvents(state)).toEqual([a1, a2, a3]);
    expect([...state.orders.keys()]).toEqual([b1, b2]);
    expect(state.byOwner.of(alice.apiKey).size).toBe(0);
    expect([...state.byOwner.entries()].map(([key]) => key)).toEqual([bob.apiKey]);
    expect(cancelByIds(state, alice, callerOrderIds(state, alice, () => true), 3)).toEqual({ canceled: [], not_canceled: {} });
    expectIndexesAgree(state);
    expectConserved(state);
  });

  it('of many orders record one book change per market, with the size each level is left with', () => {
    const state = newEngine();
    const OTHER = `0x${'c1'.repeat(32)}`;
    state.addMarket(aMarket({ conditionId: OTHER, tokenIds: ['3333', '4444'] }));
    fund(state, alice, '20');
    fund(state, bob, '10');
    const place = (trader: typeof alice, token: string, side: 'BUY' | 'SELL', price: string) =>
      placeOrder(state, trader, anOrder(trader, { token, side, price, size: '5' }), 1).orderID;
    const mine = [place(alice, YES, 'BUY', '0.30'), place(alice, YES, 'BUY', '0.30'), place(alice, NO, 'BUY', '0.60'), place(alice, '3333', 'BUY', '0.10')];
    place(bob, YES, 'BUY', '0.30');
    state.takeEffects();
    expect(cancelByIds(state, alice, mine, 2).canceled).toEqual(mine);
    const books = state.takeEffects().events.flatMap((e) => (e.type === 'book' ? [e.data] : []));
    // A BUY of NO at 0.60 rests as an ask of YES at 0.40. Bob's bid keeps 5 shares at 0.30.
    expect(books).toEqual([
      { conditionId: CONDITION, bookSeq: 5, changes: [{ side: 'BID', price: '300000', size: '5000000' }, { side: 'ASK', price: '400000', size: '0' }], timestamp: 2 },
      { conditionId: OTHER, bookSeq: 2, changes: [{ side: 'BID', price: '100000', size: '0' }], timestamp: 2 },
    ]);
    expectConserved(state);
  });

  it("pulled off the book stay open and reserved, meet no order, and end once however they end", () => {
    const state = newEngine();
    fund(state, alice, '20');
    fund(state, bob, '10');
    const gtd = restGtd(state, SECOND + 120, '0.30');
    const mine = [gtd, ...['0.30', '0.35'].map((price) => placeOrder(state, alice, anOrder(alice, { side: 'BUY', price, size: '5' }), NOW).orderID)];
    const bobs = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.35', size: '5' }), NOW).orderID;
    state.takeEffects();

    pullOffBooks(state, callerOpenOrders(state, alice, [...mine, bobs]).open, NOW);
    const pulled = state.takeEffects();
    expect(pulled.events).toEqual([
      { type: 'book', data: { conditionId: CONDITION, bookSeq: 5, changes: [{ side: 'BID', price: '300000', size: '0' }, { side: 'BID', price: '350000', size: '5000000' }], timestamp: NOW } },
    ]);
    expect(pulled.orders.size).toBe(0);
    expect(mine.map((id) => state.orders.get(id)?.status)).toEqual(['LIVE', 'LIVE', 'LIVE']);
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 20_000_000 - 4_750_000, reserved: 4_750_000 });
    // A BUY of NO at 0.70 for 10 shares mints with bob's bid at 0.35 alone, and rests the rest.
    const carol = traderOf(3);
    fund(state, carol, '10');
    const carols = placeOrder(state, carol, anOrder(carol, { token: NO, side: 'BUY', price: '0.70', size: '10' }), NOW);
    expect(carols).toMatchObject({ status: 'live', makingAmount: '3.25', takingAmount: '5' });
    expect(state.takeEffects().trades.flatMap((t) => t.makers.map((m) => m.orderId))).toEqual([bobs]);
    expectConserved(state);

    // The GTD order expires before its step: ended then, with no book change, and not again by the step.
    expect(expireOrders(state, (SECOND + 60) * 1000)).toEqual([gtd]);
    expect(state.takeEffects().events.map((e) => e.type)).toEqual(['order']);
    expect(cancelByIds(state, alice, mine, NOW + 61_000)).toEqual({ canceled: mine.slice(1), not_canceled: { [gtd]: "order can't be found - already canceled or matched" } });
    expect(state.effects.events.map((e) => e.type)).toEqual(['order', 'order']);
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 20_000_000, reserved: 0 });
    expect([...state.orders.keys()]).toEqual([carols.orderID]);
    expectIndexesAgree(state);
    expectConserved(state);
  });

  it('by id, by market and all at once reach the orders of every key of the address, while each key keeps an index of its own', () => {
    const state = newEngine();
    fund(state, alice, '10');
    const secondKey = { ...alice, apiKey: 'key-1b' };
    const first = placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.30', size: '5' }), 1).orderID;
    const second = placeOrder(state, secondKey, anOrder(secondKey, { side: 'BUY', price: '0.31', size: '5' }), 1);
    expect(second.success).toBe(true);
    const third = placeOrder(state, alice, anOrder(alice, { token: NO, side: 'BUY', price: '0.32', size: '5' }), 1).orderID;
    expect(callerOrders(state, secondKey).map((o) => o.id)).toEqual([first, second.orderID, third]);
    expect([...state.byOwner.of(secondKey.apiKey)].map((o) => o.id)).toEqual([second.orderID]);
    expect(cancelByIds(state, secondKey, [first], 2).canceled).toEqual([first]);
    expect(cancelByIds(state, bob, [third], 2).canceled).toEqual([]);
    expect(cancelByIds(state, alice, callerOrderIds(state, alice, () => true), 3).canceled).toEqual([second.orderID, third]);
    expectIndexesAgree(state);
    expectConserved(state);
  });

  it('GTD orders leave the book 60 s before the expiration they state', () => {
    const state = newEngine();
    fund(state, alice, '10');
    const now = 1_700_000_000_000;
    placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.40', size: '5', type: 'GTD', expiration: now / 1000 + 120 }), now);
    expect(expireOrders(state, now + 59_999)).toEqual([]);
    expect(expireOrders(state, now + 60_000)).toHaveLength(1);
    expect(balanceOf(state, alice, COLLATERAL).reserved).toBe(0);
    expectConserved(state);
  });

  it('expire at their second, only those due, by expiration then seq', () => {
    const state = newEngine();
    fund(state, alice, '20');
    const late = restGtd(state, SECOND + 130, '0.30');
    const first = restGtd(state, SECOND + 120, '0.31');
    const second = restGtd(state, SECOND + 120, '0.32');
    const last = restGtd(state, SECOND + 200, '0.33');
    const forever = placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.34', size: '5' }), NOW).orderID;
    state.takeEffects();

    expect(expireOrders(state, NOW + 59_999)).toEqual([]);
    // A tick that comes late finds several expirations due at once.
    expect(expireOrders(state, NOW + 75_000)).toEqual([first, second, late]);
    expect(canceledInEvents(state)).toEqual([first, second, late]);
    expect(state.effects.orders.get(first)).toMatchObject({ status: 'CANCELED', reserved: 0 });
    expect([...state.orders.keys()]).toEqual([last, forever]);
    expect(expireOrders(state, NOW + 139_000)).toEqual([]);
    expect(expireOrders(state, NOW + 140_000)).toEqual([last]);
    expect(expireOrders(state, NOW + 10_000_000)).toEqual([]);
    expect([...state.orders.keys()]).toEqual([forever]);
    expect(balanceOf(state, alice, COLLATERAL).reserved).toBe(1_700_000);
    expectIndexesAgree(state);
    expectConserved(state);
  });

  it('that ended before their expiration are not expired again', () => {
    const state = newEngine();
    fund(state, alice, '20');
    fund(state, bob, '20');
    expect(split(state, bob.address, CONDITION, 10_000_000, NOW).ok).toBe(true);
    const canceled = restGtd(state, SECOND + 120);
    const matched = restGtd(state, SECOND + 120, '0.50');
    const matchedByGtd = restGtd(state, SECOND + 120, '0.45');
    const kept = restGtd(state, SECOND + 120, '0.30');
    cancelByIds(state, alice, [canceled], NOW);
    expect(placeOrder(state, bob, anOrder(bob, { side: 'SELL', price: '0.50', size: '5' }), NOW).status).toBe('matched');
    expect(state.orders.has(matched)).toBe(false);
    // A GTD taker that never rests leaves an entry behind too.
    const taker = placeOrder(state, bob, anOrder(bob, { side: 'SELL', price: '0.45', size: '5', type: 'GTD', expiration: SECOND + 120 }), NOW);
    expect(taker.status).toBe('matched');
    expect(state.orders.has(matchedByGtd)).toBe(false);
    state.takeEffects();

    expect(expireOrders(state, NOW + 120_000)).toEqual([kept]);
    expect(canceledInEvents(state)).toEqual([kept]);
    expect(state.orders.size).toBe(0);
    expectConserved(state);
  });

  it('end before any command sees the books, not only at the next tick', () => {
    const state = newEngine();
    fund(state, alice, '10');
    fund(state, bob, '10');
    split(state, bob.address, CONDITION, 10_000_000, NOW);
    const gtd = restGtd(state, SECOND + 61, '0.50');
    const cross = () => anOrder(bob, { side: 'SELL', price: '0.50', size: '5', type: 'FAK' });
    // At its last millisecond it still trades; from its end on, a crossing order finds an empty book.
    expect(runAt(state, NOW + 999, (s, now) => placeOrder(s, bob, cross(), now))).toMatchObject({ success: true, status: 'matched' });
    const next = restGtd(state, SECOND + 61, '0.50');
    const late = runAt(state, NOW + 1_000, (s, now) => placeOrder(s, bob, cross(), now));
    expect(late).toMatchObject({ success: false, code: 'FAK_ORDER_NOT_FILLED_ERROR' });
    expect(state.orders.has(next)).toBe(false);
    expect(state.effects.orders.get(next)).toMatchObject({ status: 'CANCELED', reserved: 0 });
    expect(state.orders.has(gtd)).toBe(false);
    expectConserved(state);
  });

  it('canceled long before they expire are compacted out of the expiry queue without losing live ones', () => {
    const compactions = jest.spyOn(ExpiryQueue.prototype, 'retain');
    const state = newEngine();
    fund(state, alice, '20000');
    const ids = Array.from({ length: 3000 }, (_, i) => restGtd(state, SECOND + 100_000 + (i % 7)));
    const live = ids.filter((_, i) => i % 100 === 0);
    cancelByIds(state, alice, ids.filter((_, i) => i % 100 !== 0), NOW);
    expect(expireOrders(state, NOW + 1_000)).toEqual([]);
    expect(compactions).toHaveBeenCalledTimes(1);
    compactions.mockRestore();
    const byExpirationThenSeq = live
      .map((id, n) => ({ id, expiration: SECOND + 100_000 + ((n * 100) % 7) }))
      .sort((a, b) => a.expiration - b.expiration)
      .map((o) => o.id);
    expect(expireOrders(state, (SECOND + 100_010) * 1000)).toEqual(byExpirationThenSeq);
    expect(state.orders.size).toBe(0);
    expectConserved(state);
  });
});

describe('money moves, resolution and redemption', () => {
  it('conserves collateral and shares through split, trade, merge, resolve, redeem and withdrawal', () => {
    const state = newEngine();
    fund(state, alice, '100');
    fund(state, bob, '100');
    expect(split(state, alice.address, CONDITION, 30_000_000, NOW).ok).toBe(true);
    expect(split(state, bob.address, CONDITION, 1_000_000_000, NOW).ok).toBe(false);
    expectConserved(state);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.70', size: '10' }), 1);
    placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.70', size: '10' }), 2);
    expectConserved(state);
    expect(merge(state, alice.address, CONDITION, 20_000_000, NOW).ok).toBe(true);
    expect(merge(state, alice.address, CONDITION, 1, NOW).ok).toBe(false);
    expectConserved(state);
    placeOrder(state, alice, anOrder(alice, { token: NO, side: 'SELL', price: '0.40', size: '10' }), 3);

    expect(resolve(state, CONDITION, 0, 4)).toEqual({ ok: true, data: { canceled: 1, later: [] } });
    expect([...state.effects.orders.values()].filter((o) => o.status === 'CANCELED_MARKET_RESOLVED')).toHaveLength(1);
    expect(redeem(state, bob.address, CONDITION, NOW)).toEqual({ ok: true, data: { payout: 10_000_000 } });
    expect(redeem(state, alice.address, CONDITION, NOW)).toEqual({ ok: true, data: { payout: 0 } });
    expect(redeem(state, alice.address, CONDITION, NOW).ok).toBe(false);
    expect(balanceOf(state, bob, YES).available).toBe(0);
    expectConserved(state);
    expect(withdraw(state, { address: bob.address, amount: 200_000_000 }, NOW).ok).toBe(false);
    expect(withdraw(state, { address: bob.address, amount: 50_000_000 }, NOW).ok).toBe(true);
    expectConserved(state);
    expect(audit(state)).toMatchObject({ deposits: 200_000_000, withdrawals: 50_000_000, backing: 0, balanced: true });
  });

  it('resolution cancels only the resolved market\'s orders, in the order they were placed', () => {
    const state = newEngine();
    const other = aMarket({ conditionId: `0x${'d0'.repeat(32)}`, tokenIds: ['3333', '4444'] });
    state.addMarket(other);
    fund(state, alice, '10');
    fund(state, bob, '10');
    const place = (trader: typeof alice, token: string) =>
      placeOrder(state, trader, anOrder(trader, { token, side: 'BUY', price: '0.20', size: '5' }), 1).orderID;
    const a1 = place(alice, YES);
    const o1 = place(alice, '3333');
    const b1 = place(bob, NO);
    const o2 = place(bob, '4444');
    const a2 = place(alice, NO);
    state.takeEffects();

    expect(resolve(state, CONDITION, 1, 2)).toEqual({ ok: true, data: { canceled: 3, later: [] } });
    expect(canceledInEvents(state)).toEqual([a1, b1, a2]);
    expect(state.effects.orders.get(b1)?.status).toBe('CANCELED_MARKET_RESOLVED');
    expect([...state.orders.keys()]).toEqual([o1, o2]);
    expect(other.book.size).toBe(2);
    expect(state.byMarket.of(CONDITION).size).toBe(0);
    expectIndexesAgree(state);
    expectConserved(state);
  });
});

describe('resolution in steps', () => {
  /** Alice's three bids and bob's SELL of 5 YES, resting on the fixture's market. */
  function restingMarket() {
    const state = newEngine();
    fund(state, alice, '10');
    fund(state, bob, '10');
    split(state, bob.address, CONDITION, 5_000_000, NOW);
    const bids = ['0.20', '0.25', '0.30'].map((price) => placeOrder(state, alice, anOrder(alice, { side: 'BUY', price, size: '5' }), 1).orderID);
    const ask = placeOrder(state, bob, anOrder(bob, { side: 'SELL', price: '0.60', size: '5' }), 1).orderID;
    state.takeEffects();
    return { state, ids: [...bids, ask] };
  }

  it('closes the market and takes every order off the book at once, then ends the rest in later steps', () => {
    const { state, ids } = restingMarket();
    const first = resolve(state, CONDITION, 0, 2, 2);
    expect(first).toEqual({ ok: true, data: { canceled: 2, later: ids.slice(2) } });
    expect(state.markets.get(CONDITION)).toMatchObject({ winningOutcome: 0, acceptingOrders: false });
    expect(state.markets.get(CONDITION)!.book.size).toBe(0);
    const effects = state.takeEffects();
    expect(effects.events.map((e) => e.type)).toEqual(['book', 'order', 'order', 'market-resolved']);
    expectConserved(state);

    // Between the steps: bob's shares are still held by his order, so a redemption waits for the last step.
    expect(redeem(state, bob.address, CONDITION, NOW)).toMatchObject({ ok: false, status: 425, body: { code: 'too_early', retry_after_seconds: 1 } });
    // An order of a later step ended otherwise (alice cancels it) is not counted by the step.
    expect(cancelByIds(state, alice, [ids[2]!], 3).canceled).toEqual([ids[2]]);
    endResolvedOrders(state, first.ok ? first.data.later : [], 4);
    expect(state.effects.orders.get(ids[3]!)).toMatchObject({ status: 'CANCELED_MARKET_RESOLVED', reserved: 0 });
    // Every order ended with no book change after the first step's.
    expect(state.takeEffects().events.map((e) => e.type)).toEqual(['order', 'order']);
    expect(state.orders.size).toBe(0);
    expect(redeem(state, bob.address, CONDITION, NOW)).toEqual({ ok: true, data: { payout: 5_000_000 } });
    expectIndexesAgree(state);
    expectConserved(state);
  });

  it('are finished at start when the engine stopped between them', () => {
    const { state, ids } = restingMarket();
    resolve(state, CONDITION, 1, 2, 1);
    state.takeEffects();
    endOrdersOfResolvedMarkets(state, 3);
    expect(ids.slice(1).map((id) => state.effects.orders.get(id)?.status)).toEqual(Array(3).fill('CANCELED_MARKET_RESOLVED'));
    expect(state.orders.size).toBe(0);
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 10_000_000, reserved: 0 });
    expectConserved(state);
  });
});

describe('resolution of a neg-risk event', () => {
  it('lets one market of the event resolve Yes, and refuses a second one', () => {
    const group = `0x${'ab'.repeat(32)}`;
    const state = newEngine(undefined, { negRisk: true, negRiskMarketId: group });
    const sibling = `0x${'c1'.repeat(32)}`;
    const elsewhere = `0x${'c2'.repeat(32)}`;
    state.addMarket(aMarket({ conditionId: sibling, tokenIds: ['3333', '4444'], negRisk: true, negRiskMarketId: group }));
    state.addMarket(aMarket({ conditionId: elsewhere, tokenIds: ['5555', '6666'], negRisk: true, negRiskMarketId: `0x${'cd'.repeat(32)}` }));
    // Pairs of every market, and a resting order, so that the resolutions have shares to back and reservations to release.
    fund(state, alice, '40');
    for (const market of [CONDITION, sibling, elsewhere]) expect(split(state, alice.address, market, 10_000_000, NOW).ok).toBe(true);
    const resting = placeOrder(state, alice, { ...anOrder(alice, { token: '3333', side: 'SELL', price: '0.60', size: '5' }), exchange: 'negRisk' }, 1);
    expect(resting).toMatchObject({ success: true, status: 'live' });
    expect(resolve(state, CONDITION, 0, 1)).toEqual({ ok: true, data: { canceled: 0, later: [] } });
    // Accepted until the eighteenth session: two winners of mutually exclusive outcomes.
    expect(resolve(state, sibling, 0, 2)).toEqual({
      ok: false,
      status: 409,
      body: { code: 'conflict', error: `market ${CONDITION} of the same neg-risk event resolved Yes: only one market of a neg-risk event can` },
    });
    expect(state.markets.get(sibling)!.winningOutcome).toBe(-1);
    expectConserved(state);
    expect(resolve(state, sibling, 1, 3)).toEqual({ ok: true, data: { canceled: 1, later: [] } });
    expect(balanceOf(state, alice, '3333')).toEqual({ available: 10_000_000, reserved: 0 });
    expect(resolve(state, elsewhere, 0, 4)).toMatchObject({ ok: true });
    expectConserved(state);
    // Redeemed, each market pays its winning shares: 10 of each of the three.
    for (const market of [CONDITION, sibling, elsewhere]) expect(redeem(state, alice.address, market, NOW)).toEqual({ ok: true, data: { payout: 10_000_000 } });
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(40_000_000);
    expectConserved(state);
  });
});
