import { cancelByIds, cancelWhere, expireOrders } from '../../../src/engine/cancel-orders';
import { COLLATERAL } from '../../../src/engine/ledger';
import { audit, merge, redeem, resolve, split, withdraw } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, balanceOf, CONDITION, expectConserved, fund, newEngine, NO, traderOf, YES } from '../../support/engine-fixture';

const alice = traderOf(1);
const bob = traderOf(2);

describe('cancels', () => {
  it('release what the order reserved, once', () => {
    const state = newEngine();
    fund(state, alice, '10');
    const order = placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.40', size: '10' }), 1);
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 6_000_000, reserved: 4_000_000 });
    expect(cancelByIds(state, bob.apiKey, [order.orderID], 2)).toEqual({ canceled: [], not_canceled: { [order.orderID]: expect.any(String) } });
    expect(cancelByIds(state, alice.apiKey, [order.orderID, order.orderID], 2)).toEqual({ canceled: [order.orderID], not_canceled: {} });
    expect(cancelByIds(state, alice.apiKey, [order.orderID], 3).not_canceled[order.orderID]).toBe("order can't be found - already canceled or matched");
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
    expect(cancelWhere(state, alice.apiKey, (o) => o.tokenId === NO, 2).canceled).toHaveLength(1);
    expect(cancelWhere(state, alice.apiKey, () => true, 2).canceled).toHaveLength(1);
    expect(state.open.size).toBe(1);
    expectConserved(state);
  });

  it('GTD orders leave the book when they expire', () => {
    const state = newEngine();
    fund(state, alice, '10');
    const now = 1_700_000_000_000;
    placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.40', size: '5', type: 'GTD', expiration: now / 1000 + 120 }), now);
    expect(expireOrders(state, now + 119_000)).toEqual([]);
    expect(expireOrders(state, now + 120_000)).toHaveLength(1);
    expect(balanceOf(state, alice, COLLATERAL).reserved).toBe(0);
    expectConserved(state);
  });
});

describe('money moves, resolution and redemption', () => {
  it('conserves collateral and shares through split, trade, merge, resolve, redeem and withdrawal', () => {
    const state = newEngine();
    fund(state, alice, '100');
    fund(state, bob, '100');
    expect(split(state, alice.address, CONDITION, 30_000_000).ok).toBe(true);
    expect(split(state, bob.address, CONDITION, 1_000_000_000).ok).toBe(false);
    expectConserved(state);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.70', size: '10' }), 1);
    placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.70', size: '10' }), 2);
    expectConserved(state);
    expect(merge(state, alice.address, CONDITION, 20_000_000).ok).toBe(true);
    expect(merge(state, alice.address, CONDITION, 1).ok).toBe(false);
    expectConserved(state);
    placeOrder(state, alice, anOrder(alice, { token: NO, side: 'SELL', price: '0.40', size: '10' }), 3);

    expect(resolve(state, CONDITION, 0, 4)).toEqual({ ok: true, data: { canceled: 1 } });
    expect([...state.effects.orders.values()].filter((o) => o.status === 'CANCELED_MARKET_RESOLVED')).toHaveLength(1);
    expect(redeem(state, bob.address, CONDITION)).toEqual({ ok: true, data: { payout: 10_000_000 } });
    expect(redeem(state, alice.address, CONDITION)).toEqual({ ok: true, data: { payout: 0 } });
    expect(redeem(state, alice.address, CONDITION).ok).toBe(false);
    expect(balanceOf(state, bob, YES).available).toBe(0);
    expectConserved(state);
    expect(withdraw(state, bob.address, 200_000_000).ok).toBe(false);
    expect(withdraw(state, bob.address, 50_000_000).ok).toBe(true);
    expectConserved(state);
    expect(audit(state)).toMatchObject({ deposits: 200_000_000, withdrawals: 50_000_000, backing: 0, balanced: true });
  });
});
