import { COLLATERAL } from '../../../src/engine/ledger';
import { audit, split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, balanceOf, CONDITION, expectConserved, fund, newEngine, NO, traderOf, YES, NOW } from '../../support/engine-fixture';

describe('fills across the two tokens of a market', () => {
  it('two BUYs whose prices add up to 1 mint a pair from their collateral', () => {
    const state = newEngine();
    const [alice, bob] = [traderOf(1), traderOf(2)];
    fund(state, alice, '10');
    fund(state, bob, '10');
    placeOrder(state, alice, anOrder(alice, { token: YES, side: 'BUY', price: '0.40', size: '10' }), 1);
    expectConserved(state);
    const result = placeOrder(state, bob, anOrder(bob, { token: NO, side: 'BUY', price: '0.60', size: '10' }), 2);
    expect(result).toMatchObject({ success: true, status: 'matched', makingAmount: '6', takingAmount: '10' });
    expect(balanceOf(state, alice, YES).available).toBe(10_000_000);
    expect(balanceOf(state, bob, NO).available).toBe(10_000_000);
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(6_000_000);
    expect(balanceOf(state, bob, COLLATERAL).available).toBe(4_000_000);
    expect(audit(state).backing).toBe(10_000_000);
    expectConserved(state);
  });

  it('a BUY of NO pays the complement of the resting YES bid, with price improvement', () => {
    const state = newEngine();
    const [alice, bob] = [traderOf(1), traderOf(2)];
    fund(state, alice, '10');
    fund(state, bob, '10');
    placeOrder(state, alice, anOrder(alice, { token: YES, side: 'BUY', price: '0.45', size: '10' }), 1);
    // Bob would pay up to 0.60 for NO; the resting YES bid at 0.45 makes NO cost 0.55.
    const result = placeOrder(state, bob, anOrder(bob, { token: NO, side: 'BUY', price: '0.60', size: '10' }), 2);
    expect(result).toMatchObject({ makingAmount: '5.5', takingAmount: '10' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 4_500_000, reserved: 0 });
    expectConserved(state);
  });

  it('two SELLs whose prices add up to at most 1 merge a pair into collateral', () => {
    const state = newEngine();
    const [alice, bob] = [traderOf(1), traderOf(2)];
    fund(state, alice, '10');
    fund(state, bob, '10');
    split(state, alice.address, CONDITION, 10_000_000, NOW);
    split(state, bob.address, CONDITION, 10_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { token: YES, side: 'SELL', price: '0.45', size: '10' }), 1);
    const result = placeOrder(state, bob, anOrder(bob, { token: NO, side: 'SELL', price: '0.50', size: '10' }), 2);
    // Bob's NO sells at 1 − 0.45 = 0.55, better than the 0.50 he asked.
    expect(result).toMatchObject({ success: true, makingAmount: '10', takingAmount: '5.5' });
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(4_500_000);
    expect(balanceOf(state, bob, COLLATERAL).available).toBe(5_500_000);
    expect(balanceOf(state, alice, YES).available).toBe(0);
    expect(balanceOf(state, bob, NO).available).toBe(0);
    expect(audit(state).backing).toBe(10_000_000);
    expectConserved(state);
  });
});
